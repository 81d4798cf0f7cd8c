//! Properties of the built components beyond the vectors: each imports
//! nothing and exports its world's interfaces, their code tables match the
//! core's, and hostile input never traps them.

use host_tests::{envelope_only, interface_name, loaded, wit, Full, Instance, Which};
use mcp_envelope::{code, render_xml, spec, ToolError};

#[test]
fn components_import_nothing() {
    for which in Which::BOTH {
        let (engine, component) = loaded(which);
        let imports: Vec<String> = component
            .component_type()
            .imports(engine)
            .map(|(name, _)| name.to_owned())
            .collect();
        assert!(
            imports.is_empty(),
            "{} must import nothing, but imports {imports:?}",
            which.file_name()
        );
    }
}

fn exports(which: Which) -> Vec<String> {
    let (engine, component) = loaded(which);
    let mut exports: Vec<String> = component
        .component_type()
        .exports(engine)
        .map(|(name, _)| name.to_owned())
        .collect();
    exports.sort();
    exports
}

#[test]
fn the_envelope_component_exports_types_and_envelope() {
    let want: Vec<String> = ["envelope", "types"].map(interface_name).into();
    assert_eq!(exports(Which::Envelope), want);
}

#[test]
fn the_full_component_exports_every_interface() {
    let want: Vec<String> = ["agent", "contract", "envelope", "server", "types"]
        .map(interface_name)
        .into();
    assert_eq!(exports(Which::Full), want);
}

#[test]
fn each_component_is_its_world() {
    let instantiate = |which: Which| {
        let (engine, component) = loaded(which);
        let mut store = wasmtime::Store::new(engine, ());
        let instance = wasmtime::component::Linker::new(engine)
            .instantiate(&mut store, component)
            .unwrap();
        (store, instance)
    };
    let (mut store, instance) = instantiate(Which::Envelope);
    envelope_only::EnvelopeOnly::new(&mut store, &instance).expect("envelope.wasm is the envelope-only world");
    assert!(
        Full::new(&mut store, &instance).is_err(),
        "envelope.wasm must not export the full world"
    );
    let (mut store, instance) = instantiate(Which::Full);
    Full::new(&mut store, &instance).expect("full.wasm is the full world");
}

#[test]
fn canonical_codes_and_defaults_match_the_core() {
    for which in Which::BOTH {
        let mut i = Instance::of(which);
        let codes = i.envelope.call_canonical_codes(&mut i.store).unwrap();
        assert_eq!(codes, code::CANONICAL_CODES);
        for name in code::CANONICAL_CODES {
            let request = format!("{{\"code\":\"{name}\"}}");
            let got = i.envelope.call_code_defaults(&mut i.store, &request).unwrap();
            assert_eq!(got, Ok(code::defaults(name).unwrap().to_json()));
        }
        let custom = i
            .envelope
            .call_code_defaults(&mut i.store, r#"{"code":"ORDER_NOT_FOUND"}"#)
            .unwrap();
        assert_eq!(custom, Ok("null".to_owned()));
    }
}

#[path = "../../tests/common/hostile_text.rs"]
mod hostile_text;

use hostile_text::XorShift;

#[test]
fn hostile_strings_never_trap_and_match_the_core() {
    for which in Which::BOTH {
        hostile_strings(Instance::of(which));
    }
}

fn hostile_strings(mut i: Instance) {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for round in 0..300 {
        let error = ToolError::new(rng.text(), rng.text())
            .suggest(rng.text())
            .actions([rng.text(), rng.text()])
            .detail(rng.text(), rng.text())
            .customer_message(rng.text());
        let xml = i
            .envelope
            .call_render(&mut i.store, &spec::to_json(&error), wit::Format::Xml)
            .unwrap_or_else(|e| panic!("round {round} trapped: {e:?}"));
        if !error.code.is_empty() {
            assert_eq!(xml.unwrap(), render_xml(&error), "round {round}");
        }
        // Garbage in the parser: the component answers exactly as the core does.
        let garbage = rng.text();
        let got = i
            .envelope
            .call_read_envelope(&mut i.store, &garbage)
            .unwrap_or_else(|e| panic!("round {round} trapped on {garbage:?}: {e:?}"));
        let want = mcp_envelope::read_envelope(&garbage)
            .map(|r| r.to_json())
            .map_err(|e| e.to_string());
        assert_eq!(got, want, "round {round}: {garbage:?}");
        let spec_text = spec::to_json(&error);
        let rendered = i
            .envelope
            .call_render(&mut i.store, &spec_text, wit::Format::Text)
            .unwrap();
        if !error.code.is_empty() {
            assert_eq!(rendered.unwrap(), mcp_envelope::render_text(&error), "round {round}");
        }
    }
}

#[test]
fn deeply_nested_json_never_traps_and_a_deep_detail_renders() {
    for which in Which::BOTH {
        deeply_nested_json(Instance::of(which));
    }
}

fn deeply_nested_json(mut i: Instance) {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let got = i
        .envelope
        .call_render(&mut i.store, &format!("{{\"message\":{deep}}}"), wit::Format::Xml)
        .expect("no trap");
    assert_eq!(got.unwrap_err(), "message: invalid type: sequence, expected a string");
    // As a detail it is content: shown to 64 levels, the rest cut and marked, never refused.
    let got = i
        .envelope
        .call_render(
            &mut i.store,
            &format!("{{\"code\":\"X\",\"message\":\"m\",\"details\":{{\"body\":{deep}}}}}"),
            wit::Format::Xml,
        )
        .expect("no trap")
        .expect("rendered");
    let (open, close) = ("[".repeat(64), "]".repeat(64));
    assert!(
        got.contains(&format!(
            "<detail key=\"body\">{open}\"… [199872 characters cut]\"{close}</detail>"
        )),
        "{got}"
    );
    let got = i
        .envelope
        .call_read_envelope(&mut i.store, &format!("{{\"content\":{deep}}}"))
        .expect("no trap");
    assert!(got
        .unwrap_err()
        .starts_with("malformed JSON envelope: recursion limit exceeded"));
}

#[test]
fn the_compare_and_set_script_is_the_cores() {
    let mut i = Instance::full();
    let script = i.server().call_compare_and_set_script(&mut i.store).unwrap();
    assert_eq!(script, mcp_envelope::stores::COMPARE_AND_SET_SCRIPT);
    assert!(script.starts_with("local current = redis.call('GET', KEYS[1])\n"));
}

#[test]
fn the_envelope_component_answers_no_other_interfaces_call() {
    let mut i = Instance::new();
    let got = i.call_export("ledger-key", "{}").expect("no trap");
    assert_eq!(got, None, "envelope.wasm must not export ledger-key");
    assert!(i.call_export("limits", "null").expect("no trap").is_some());
}
