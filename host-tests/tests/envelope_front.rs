//! The envelope interface alone never compiles the full component. A test
//! file is a process of its own, so no other test's loads count here.

use host_tests::{is_loaded, wit, Instance, Which};

#[test]
fn the_envelope_interface_alone_never_loads_the_full_component() {
    let mut i = Instance::new();
    let spec = r#"{"code":"NOT_FOUND","message":"No order 42."}"#;
    let xml = i
        .envelope
        .call_render(&mut i.store, spec, wit::Format::Xml)
        .unwrap()
        .unwrap();
    i.envelope
        .call_call_tool_result(&mut i.store, spec, wit::Format::Json)
        .unwrap()
        .unwrap();
    i.envelope.call_read_envelope(&mut i.store, &xml).unwrap().unwrap();
    i.envelope.call_canonical_codes(&mut i.store).unwrap();
    i.envelope.call_limits(&mut i.store, "null").unwrap().unwrap();
    i.envelope.call_partial_limits(&mut i.store, "null").unwrap().unwrap();
    assert!(is_loaded(Which::Envelope));
    assert!(
        !is_loaded(Which::Full),
        "the envelope interface's calls compiled build/full.wasm"
    );
}
