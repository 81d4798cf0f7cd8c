//! Every partial result, for any input, renders in each form to a text that
//! reads back to what it states: the JSON form exactly, the XML form with
//! forbidden characters replaced by U+FFFD (and well-formed for a strict
//! parser), the text form to a result that renders the same bytes again.

use mcp_envelope::partial::{parse_partial, render_partial, FailedItem, PartialResult};
use mcp_envelope::{Category, Format, REPLACEMENT};

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

/// Hostile text that may also hold a line opening another partial result.
fn text(rng: &mut XorShift) -> String {
    match rng.next() % 4 {
        0 => format!("{}\npartial_result: {}", rng.text(), rng.text()),
        1 => format!("{}<partial_result severity=\"error\">", rng.text()),
        _ => rng.text(),
    }
}

fn random_partial(rng: &mut XorShift) -> PartialResult {
    let mut partial = PartialResult::new();
    if rng.next() % 2 == 0 {
        partial = partial.task(text(rng));
    }
    for _ in 0..rng.next() % 3 {
        partial = partial.obtained([text(rng)]);
    }
    for _ in 0..1 + rng.next() % 3 {
        let code = ["FORBIDDEN", "TIMEOUT", "NOT_FOUND"][(rng.next() % 3) as usize].to_owned() + &rng.text();
        let mut failed = FailedItem::new(text(rng) + "i", code);
        if rng.next() % 2 == 0 {
            failed = failed.message(text(rng));
        }
        if rng.next() % 3 == 0 {
            failed = failed.category(Category::ALL[(rng.next() % 5) as usize]);
        }
        if rng.next() % 3 == 0 {
            failed = failed.retryable(rng.next() % 2 == 0);
        }
        partial = partial.failed(failed);
    }
    for _ in 0..rng.next() % 3 {
        partial = partial.tried([text(rng)]);
    }
    if rng.next() % 2 == 0 {
        partial = partial.recovery(text(rng));
    }
    if rng.next() % 2 == 0 {
        partial = partial.correlation_id(text(rng));
    }
    partial
}

/// The same result with every text as the XML form carries it.
fn sanitized_partial(p: &PartialResult) -> PartialResult {
    let all = |lines: &[String]| lines.iter().map(|l| sanitized(l)).collect::<Vec<_>>();
    PartialResult {
        task: p.task.as_deref().map(sanitized),
        obtained: all(&p.obtained),
        failed: p
            .failed
            .iter()
            .map(|f| FailedItem {
                item: sanitized(&f.item),
                code: sanitized(&f.code),
                message: f.message.as_deref().map(sanitized),
                ..f.clone()
            })
            .collect(),
        tried: all(&p.tried),
        recovery: p.recovery.as_deref().map(sanitized),
        correlation_id: p.correlation_id.as_deref().map(sanitized),
        ..p.clone()
    }
}

#[test]
fn any_partial_result_reads_back_in_every_form() {
    let mut rng = XorShift(0x5851_F42D_4C95_7F2D);
    for round in 0..3000 {
        let partial = random_partial(&mut rng);

        let json = render_partial(&partial, Format::Json);
        let back = parse_partial(&json).unwrap_or_else(|e| panic!("round {round}: {e}\n{json}"));
        assert_eq!(back, partial, "round {round}: JSON form\n{json}");
        assert_eq!(render_partial(&back, Format::Json), json, "round {round}");

        let xml = render_partial(&partial, Format::Xml);
        roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("round {round}: {e}\n{xml}"));
        let back = parse_partial(&xml).unwrap_or_else(|e| panic!("round {round}: {e}\n{xml}"));
        assert_eq!(back, sanitized_partial(&partial), "round {round}: XML form\n{xml}");
        assert_eq!(render_partial(&back, Format::Xml), xml, "round {round}");

        let text = render_partial(&partial, Format::Text);
        let back = parse_partial(&text).unwrap_or_else(|e| panic!("round {round}: {e}\n{text}"));
        assert_eq!(render_partial(&back, Format::Text), text, "round {round}: text form");
        assert_eq!(back.failed.len(), partial.failed.len(), "round {round}");
        assert_eq!(back.obtained.len(), partial.obtained.len(), "round {round}");
    }
}

#[test]
fn a_repeated_key_is_refused() {
    use mcp_envelope::raw::render_partial;
    let refused = |input: &str| render_partial(input).unwrap_err().to_string();
    assert_eq!(
        refused(r#"{"obtained":[],"obtained":[],"failed":[{"item":"C","code":"X"}]}"#),
        "the partial result spec: duplicate field `obtained`"
    );
    assert_eq!(
        refused(r#"{"obtained":[],"failed":[{"item":"C","code":"X","code":"Y"}]}"#),
        "failed[0]: duplicate field `code`"
    );
    assert_eq!(
        refused(r#"{"obtained":[],"failed":[{"item":"C","code":"X"}]"#),
        "invalid JSON in the partial result spec: EOF while parsing an object at line 1 column 49"
    );
}
