//! Properties of the built component beyond the vectors: it imports nothing,
//! its code table matches the core's, and hostile input never traps it.

use host_tests::{loaded, wit, Instance};
use mcp_envelope::{code, render_xml, spec, ToolError};

#[test]
fn component_imports_nothing() {
    let (engine, component) = loaded();
    let imports: Vec<String> = component
        .component_type()
        .imports(engine)
        .map(|(name, _)| name.to_owned())
        .collect();
    assert!(
        imports.is_empty(),
        "the component must import nothing, but imports {imports:?}"
    );
}

#[test]
fn component_exports_the_api_and_types() {
    let (engine, component) = loaded();
    let mut exports: Vec<String> = component
        .component_type()
        .exports(engine)
        .map(|(name, _)| name.to_owned())
        .collect();
    exports.sort();
    assert_eq!(exports, ["mcp:envelope/api@0.8.0", "mcp:envelope/types@0.8.0"]);
}

#[test]
fn canonical_codes_and_defaults_match_the_core() {
    let mut i = Instance::new();
    let codes = i.api.call_canonical_codes(&mut i.store).unwrap();
    assert_eq!(codes, code::CANONICAL_CODES);
    for name in code::CANONICAL_CODES {
        let request = format!("{{\"code\":\"{name}\"}}");
        let got = i.api.call_code_defaults(&mut i.store, &request).unwrap();
        assert_eq!(got, Ok(code::defaults(name).unwrap().to_json()));
    }
    let custom = i
        .api
        .call_code_defaults(&mut i.store, r#"{"code":"ORDER_NOT_FOUND"}"#)
        .unwrap();
    assert_eq!(custom, Ok("null".to_owned()));
}

#[path = "../../tests/common/hostile_text.rs"]
mod hostile_text;

use hostile_text::XorShift;

#[test]
fn hostile_strings_never_trap_and_match_the_core() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut i = Instance::new();
    for round in 0..300 {
        let error = ToolError::new(rng.text(), rng.text())
            .suggest(rng.text())
            .actions([rng.text(), rng.text()])
            .detail(rng.text(), rng.text())
            .customer_message(rng.text());
        let xml = i
            .api
            .call_render(&mut i.store, &spec::to_json(&error), wit::Format::Xml)
            .unwrap_or_else(|e| panic!("round {round} trapped: {e:?}"));
        if !error.code.is_empty() {
            assert_eq!(xml.unwrap(), render_xml(&error), "round {round}");
        }
        // Garbage in the parser: the component answers exactly as the core does.
        let garbage = rng.text();
        let got = i
            .api
            .call_read_envelope(&mut i.store, &garbage)
            .unwrap_or_else(|e| panic!("round {round} trapped on {garbage:?}: {e:?}"));
        let want = mcp_envelope::read_envelope(&garbage)
            .map(|r| r.to_json())
            .map_err(|e| e.to_string());
        assert_eq!(got, want, "round {round}: {garbage:?}");
        let spec_text = spec::to_json(&error);
        let rendered = i.api.call_render(&mut i.store, &spec_text, wit::Format::Text).unwrap();
        if !error.code.is_empty() {
            assert_eq!(rendered.unwrap(), mcp_envelope::render_text(&error), "round {round}");
        }
    }
}

#[test]
fn deeply_nested_json_never_traps_and_a_deep_detail_renders() {
    let mut i = Instance::new();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let got = i
        .api
        .call_render(&mut i.store, &format!("{{\"message\":{deep}}}"), wit::Format::Xml)
        .expect("no trap");
    assert_eq!(got.unwrap_err(), "message: invalid type: sequence, expected a string");
    // As a detail it is content: shown to 64 levels, the rest cut and marked, never refused.
    let got = i
        .api
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
        .api
        .call_read_envelope(&mut i.store, &format!("{{\"content\":{deep}}}"))
        .expect("no trap");
    assert!(got
        .unwrap_err()
        .starts_with("malformed JSON envelope: recursion limit exceeded"));
}

#[test]
fn the_compare_and_set_script_is_the_cores() {
    let mut i = Instance::new();
    let script = i.api.call_compare_and_set_script(&mut i.store).unwrap();
    assert_eq!(script, mcp_envelope::stores::COMPARE_AND_SET_SCRIPT);
    assert!(script.starts_with("local current = redis.call('GET', KEYS[1])\n"));
}
