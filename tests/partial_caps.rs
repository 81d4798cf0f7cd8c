//! Size caps of the partial result hold for any input: no text is longer
//! than its cap, no list longer than `items`, the summary counts everything,
//! an envelope over its total has dropped every attempt and obtained line,
//! the failed items are never dropped, and a capped envelope read back renders
//! to the same bytes in every form.

use mcp_envelope::partial::{parse_partial, render_partial, FailedItem, PartialLimits, PartialResult};
use mcp_envelope::{Format, Limits};

#[path = "common/hostile_text.rs"]
mod hostile_text;

use hostile_text::XorShift;

fn long_text(rng: &mut XorShift) -> String {
    rng.long_text(7)
}

fn lines(rng: &mut XorShift, most: u64) -> Vec<String> {
    (0..rng.next() % most).map(|_| long_text(rng)).collect()
}

fn random_partial(rng: &mut XorShift) -> PartialResult {
    let mut partial = PartialResult::new().obtained(lines(rng, 16)).tried(lines(rng, 16));
    if rng.next() % 2 == 0 {
        partial = partial.task(long_text(rng));
    }
    for _ in 0..1 + rng.next() % 14 {
        let code = ["FORBIDDEN", "TIMEOUT", "X"][(rng.next() % 3) as usize].to_owned() + &long_text(rng);
        let mut failed = FailedItem::new(long_text(rng) + "i", code);
        if rng.next() % 4 != 0 {
            failed = failed.message(long_text(rng));
        }
        partial = partial.failed(failed);
    }
    if rng.next() % 2 == 0 {
        partial = partial.recovery(long_text(rng));
    }
    if rng.next() % 2 == 0 {
        partial = partial.correlation_id(long_text(rng));
    }
    partial.omitted_obtained = (rng.next() % 3) as usize;
    partial.omitted_failed = (rng.next() % 3) as usize;
    partial.omitted_tried = (rng.next() % 3) as usize;
    partial.limits(PartialLimits {
        message_chars: 40 + (rng.next() % 300) as usize,
        envelope_chars: 200 + (rng.next() % 2500) as usize,
        items: 1 + (rng.next() % 12) as usize,
    })
}

fn texts(p: &PartialResult) -> Vec<&str> {
    let mut texts: Vec<&str> = p.obtained.iter().chain(&p.tried).map(String::as_str).collect();
    texts.extend(p.task.as_deref());
    texts.extend(p.recovery.as_deref());
    texts.extend(p.correlation_id.as_deref());
    for f in &p.failed {
        texts.extend([f.item.as_str(), f.code.as_str()]);
        texts.extend(f.message.as_deref());
    }
    texts
}

#[test]
fn any_partial_result_renders_within_its_caps_and_reads_back_to_the_same_bytes() {
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    for round in 0..1200 {
        let partial = random_partial(&mut rng);
        let limits = partial.limits_or_default();
        for format in Format::ALL.iter().copied() {
            let out = render_partial(&partial, format);
            let mut back = parse_partial(&out).unwrap_or_else(|e| panic!("round {round} {format}: {e}\n{out}"));
            for text in texts(&back) {
                let chars = text.chars().count();
                assert!(
                    chars <= limits.message_chars,
                    "round {round} {format}: {text:?} is over its cap"
                );
            }
            for listed in [back.obtained.len(), back.failed.len(), back.tried.len()] {
                assert!(
                    listed <= limits.items,
                    "round {round} {format}: a list over {}",
                    limits.items
                );
            }
            assert_eq!(back.summary(), partial.summary(), "round {round} {format}: counts");
            // The total never drops a listed failed item.
            assert_eq!(
                back.failed.len(),
                partial.failed.len().min(limits.items),
                "round {round} {format}"
            );
            // A list left whole by the total, or whose count line would be
            // longer than what it lists.
            let out_chars = out.chars().count();
            let mut none_obtained = back.clone();
            none_obtained.omitted_obtained += std::mem::take(&mut none_obtained.obtained).len();
            let obtained_done = back.obtained.is_empty() || uncapped_chars(none_obtained, format, limits) >= out_chars;
            let mut none_tried = back.clone();
            none_tried.omitted_tried += std::mem::take(&mut none_tried.tried).len();
            let tried_done = back.tried.is_empty() || uncapped_chars(none_tried, format, limits) >= out_chars;
            if out_chars > limits.envelope_chars {
                assert!(
                    obtained_done && tried_done,
                    "round {round} {format}: over the total with lines left\n{out}"
                );
            }
            let (obtained, tried) = (partial.listed_obtained().0, partial.listed_tried().0);
            if back.obtained.len() < obtained.len() {
                assert!(tried_done, "round {round} {format}: obtained dropped before tried");
            }
            // Obtained lines listed and none dropped: the total stopped at the
            // attempts, which keep as many as fit.
            if back.tried.len() < tried.len() && !obtained.is_empty() && back.obtained.len() == obtained.len() {
                assert!(
                    one_more_is_over(&back, tried[back.tried.len()].clone(), format, limits),
                    "round {round} {format}: an attempt dropped that fits\n{out}"
                );
            }
            back.limits = partial.limits;
            assert_eq!(
                render_partial(&back, format),
                out,
                "round {round} {format}: not idempotent"
            );
        }
    }
}

/// Whether `back` with one more attempt listed, under no total, is over the total.
fn one_more_is_over(back: &PartialResult, line: String, format: Format, limits: PartialLimits) -> bool {
    let mut more = back.clone().tried([line]);
    more.omitted_tried -= 1;
    uncapped_chars(more, format, limits) > limits.envelope_chars
}

/// The length of `partial` rendered under `limits` but no total.
fn uncapped_chars(mut partial: PartialResult, format: Format, limits: PartialLimits) -> usize {
    partial.limits = Some(PartialLimits {
        envelope_chars: usize::MAX,
        ..limits
    });
    render_partial(&partial, format).chars().count()
}

#[test]
fn a_16_mb_line_and_message_render_within_the_default_caps_in_every_form() {
    let partial = PartialResult::new()
        .task("t".repeat(16 << 20))
        .obtained(["😀".repeat(1 << 22)])
        .failed(FailedItem::new("Company C", "FORBIDDEN").message("y".repeat(16 << 20)));
    for format in Format::ALL.iter().copied() {
        let out = render_partial(&partial, format);
        assert!(out.chars().count() <= Limits::DEFAULT.envelope_chars, "{format}");
        // 4,194,304 emoji: 474 kept (500 - 19 - 7 digits), 4,193,830 cut.
        assert!(out.contains("… [4193830 characters cut]"), "{format}: {out}");
        assert!(out.contains("… [16776743 characters cut]"), "{format}: {out}");
    }
}

#[test]
fn a_thousand_entries_a_list_cost_a_few_renders() {
    let many = |prefix: &str| (0..1000).map(|i| format!("{prefix} {i}")).collect::<Vec<_>>();
    let mut partial = PartialResult::new().obtained(many("obtained")).tried(many("tried"));
    for item in many("item") {
        partial = partial.failed(FailedItem::new(item, "TIMEOUT").message(format!("no answer\n{}", "x".repeat(100))));
    }
    let partial = partial.limits(PartialLimits {
        items: 1000,
        ..PartialLimits::DEFAULT
    });
    for format in Format::ALL.iter().copied() {
        let out = render_partial(&partial, format);
        let back = parse_partial(&out).unwrap();
        // Every failed item stays, so the envelope stays over: every line went.
        assert_eq!((back.obtained.len(), back.tried.len(), back.failed.len()), (0, 0, 1000));
        assert_eq!((back.omitted_obtained, back.omitted_tried), (1000, 1000), "{format}");
        let messages: std::collections::BTreeSet<_> = back.failed.iter().map(|f| f.message.as_deref()).collect();
        let messages: Vec<_> = messages.into_iter().collect();
        assert_eq!(messages, [Some("no answer… [101 characters cut]")], "{format}");
    }
}
