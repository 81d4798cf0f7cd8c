//! Every `<tool_error>` envelope, for any input, is well-formed XML 1.0 that a
//! strict parser (roxmltree) reads back to the same text, forbidden
//! characters replaced by U+FFFD and nothing else changed.

use mcp_envelope::{render_text, render_xml, ToolError, REPLACEMENT};

#[path = "common/hostile_text.rs"]
mod hostile_text;

use hostile_text::XorShift;

fn sanitized(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            '\0'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => REPLACEMENT,
            c => c,
        })
        .collect()
}

fn child_text<'a>(root: roxmltree::Node<'a, 'a>, name: &str) -> Option<String> {
    root.children()
        .find(|n| n.has_tag_name(name))
        .map(|n| n.text().unwrap_or("").to_owned())
}

#[test]
fn any_input_renders_well_formed_xml_that_reads_back() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for round in 0..5000 {
        let error = ToolError::new(rng.text(), rng.text())
            .suggest(rng.text() + "x")
            .actions([rng.text(), rng.text()])
            .detail(rng.text(), rng.text())
            .customer_message(rng.text() + "y")
            .correlation_id(rng.text() + "z");
        let xml = render_xml(&error);
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("round {round}: {e}\n{xml}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "tool_error");
        assert_eq!(
            root.attribute("code"),
            Some(sanitized(&error.code).as_str()),
            "round {round}"
        );
        assert_eq!(
            child_text(root, "message"),
            Some(sanitized(&error.message)),
            "round {round}"
        );
        assert_eq!(
            child_text(root, "recovery"),
            error.suggestion.as_deref().map(sanitized),
            "round {round}"
        );
        let actions: Vec<String> = root
            .descendants()
            .filter(|n| n.has_tag_name("action"))
            .map(|n| n.text().unwrap_or("").to_owned())
            .collect();
        assert_eq!(
            actions,
            error.available_actions.iter().map(|a| sanitized(a)).collect::<Vec<_>>(),
            "round {round}"
        );
        let detail = root.descendants().find(|n| n.has_tag_name("detail")).unwrap();
        assert_eq!(
            detail.attribute("key"),
            Some(sanitized(&error.details[0].0).as_str()),
            "round {round}"
        );
        assert_eq!(
            detail.text().unwrap_or(""),
            sanitized(&error.details[0].1),
            "round {round}"
        );
        assert_eq!(
            child_text(root, "customer_message"),
            error.customer_message.as_deref().map(sanitized)
        );
        assert_eq!(
            child_text(root, "correlation_id"),
            error.correlation_id.as_deref().map(sanitized)
        );
        // The text form never carries a forbidden character either.
        assert!(!render_text(&error)
            .chars()
            .any(|c| matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}')));
    }
}

#[test]
fn any_validation_input_renders_well_formed_xml_that_reads_back() {
    use mcp_envelope::validation::{
        field_name, field_text, parse_validation, render_validation, ContractDelta, DeltaSeverity, IssueCode,
        PathSegment, ValidationIssue, ValidationOptions,
    };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for round in 0..2000 {
        let code = IssueCode::ALL[(rng.next() % IssueCode::ALL.len() as u64) as usize];
        let mut issue = ValidationIssue::new(code)
            .at([
                PathSegment::Key(rng.text()),
                PathSegment::Index(rng.next() % 5),
                PathSegment::Key(rng.text()),
            ])
            .input_json(serde_json::to_string(&rng.text()).unwrap())
            .expected(rng.text())
            .format(rng.text())
            .message(rng.text());
        issue.keys = vec![rng.text(), rng.text()];
        issue.values = vec![serde_json::to_string(&rng.text()).unwrap()];
        let delta = ContractDelta {
            action: None,
            severity: DeltaSeverity::Breaking,
            field: rng.text(),
            description: rng.text(),
            before: Some(rng.text()),
            after: Some(rng.text()),
        };
        let action = rng.text() + "a";
        let xml = render_validation(
            &action,
            &[issue.clone()],
            std::slice::from_ref(&delta),
            ValidationOptions::default(),
        );
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("round {round}: {e}\n{xml}"));
        let root = doc.root_element();
        assert_eq!(
            root.attribute("action"),
            Some(sanitized(&action).as_str()),
            "round {round}"
        );
        let field = root.children().find(|n| n.has_tag_name("field")).unwrap();
        assert_eq!(
            field.attribute("name"),
            Some(sanitized(&field_name(&issue.path)).as_str()),
            "round {round}"
        );
        assert_eq!(
            field.text().unwrap_or(""),
            sanitized(&field_text(&issue)),
            "round {round}"
        );
        let d = root.descendants().find(|n| n.has_tag_name("delta")).unwrap();
        assert_eq!(d.text().unwrap_or(""), sanitized(&delta.description), "round {round}");
        assert_eq!(
            d.attribute("before"),
            delta.before.as_deref().map(sanitized).as_deref(),
            "round {round}"
        );
        // Our own reader agrees with the strict parser.
        let back = parse_validation(&xml).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(
            back.fields,
            vec![(sanitized(&field_name(&issue.path)), sanitized(&field_text(&issue)))]
        );
    }
}
