//! Size caps hold for any input: no text of an envelope is longer than its
//! cap, an envelope over its total has dropped every list, and a capped
//! envelope read back renders to the same bytes in every form.

use mcp_envelope::delta::{ContractDelta, DeltaSeverity};
use mcp_envelope::{parse, render, Format, Limits, Locale, ToolError};

#[path = "common/hostile_text.rs"]
mod hostile_text;

use hostile_text::XorShift;

fn long_text(rng: &mut XorShift) -> String {
    rng.long_text(9)
}

fn random_error(rng: &mut XorShift) -> ToolError {
    let mut error = ToolError::new(long_text(rng) + "C", long_text(rng))
        .suggest(long_text(rng))
        .customer_message(long_text(rng))
        .correlation_id(long_text(rng));
    for _ in 0..rng.next() % 16 {
        error = error.actions([long_text(rng)]);
    }
    for i in 0..rng.next() % 16 {
        error = error.detail(format!("{i}{}", long_text(rng)), long_text(rng));
    }
    for _ in 0..rng.next() % 8 {
        error = error.delta(ContractDelta {
            action: (rng.next() % 2 == 0).then(|| long_text(rng)),
            severity: DeltaSeverity::ALL[(rng.next() % 4) as usize],
            field: long_text(rng),
            description: long_text(rng),
            before: (rng.next() % 2 == 0).then(|| long_text(rng)),
            after: None,
        });
    }
    error.omitted_actions = (rng.next() % 3) as usize;
    error.omitted_details = (rng.next() % 3) as usize;
    error.omitted_deltas = (rng.next() % 3) as usize;
    if rng.next() % 2 == 0 {
        error.locale = Locale::PtBr;
        error.localize_steering = rng.next() % 2 == 0;
    }
    error.limits(Limits {
        message_chars: 40 + (rng.next() % 300) as usize,
        envelope_chars: 200 + (rng.next() % 1500) as usize,
        actions: (rng.next() % 12) as usize,
        details: (rng.next() % 12) as usize,
    })
}

fn texts(e: &ToolError) -> Vec<&str> {
    let mut texts = vec![e.code.as_str(), e.message.as_str()];
    texts.extend(e.suggestion.as_deref());
    texts.extend(e.customer_message.as_deref());
    texts.extend(e.correlation_id.as_deref());
    texts.extend(e.available_actions.iter().map(String::as_str));
    texts.extend(e.details.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]));
    for d in &e.deltas {
        texts.extend([d.field.as_str(), d.description.as_str()]);
        texts.extend(d.action.as_deref());
        texts.extend(d.before.as_deref());
    }
    texts
}

#[test]
fn any_error_renders_within_its_caps_and_reads_back_to_the_same_bytes() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for round in 0..1500 {
        let error = random_error(&mut rng);
        let limits = error.limits_or_default();
        for format in Format::ALL.iter().copied() {
            let out = render(&error, format);
            let mut back = parse(&out).unwrap_or_else(|e| panic!("round {round} {format}: {e}\n{out}"));
            for text in texts(&back) {
                assert!(
                    text.chars().count() <= limits.message_chars,
                    "round {round} {format}: {text:?} is over {}",
                    limits.message_chars
                );
            }
            assert!(back.available_actions.len() <= limits.actions, "round {round} {format}");
            assert!(back.details.len() <= limits.details, "round {round} {format}");
            if out.chars().count() > limits.envelope_chars {
                let listed = back.available_actions.len() + back.details.len() + back.deltas.len();
                assert_eq!(
                    listed, 0,
                    "round {round} {format}: over the total with lists left\n{out}"
                );
            }
            back.limits = error.limits;
            back.locale = error.locale;
            back.localize_steering = error.localize_steering;
            assert_eq!(render(&back, format), out, "round {round} {format}: not idempotent");
        }
    }
}

#[test]
fn a_16_mb_message_renders_within_the_default_caps_in_every_form() {
    let error = ToolError::new("X", "😀".repeat(1 << 22)).customer_message("y".repeat(16 << 20));
    for format in Format::ALL.iter().copied() {
        let out = render(&error, format);
        assert!(out.chars().count() <= Limits::DEFAULT.envelope_chars, "{format}");
        // 4,194,304 emoji: 474 kept (500 - 19 - 7 digits), 4,193,830 cut.
        assert!(out.contains("… [4193830 characters cut]"), "{format}: {out}");
    }
}
