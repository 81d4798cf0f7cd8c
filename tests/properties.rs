//! Properties of the renderers and readers, each checked on 10,000 generated
//! cases per form (proptest; a failure prints its smallest case):
//!
//! - what a reader accepts, the renderer accepts: an envelope another writer
//!   wrote, read back, is a spec `spec::from_json` takes, and renders to an
//!   envelope that reads back as the same error;
//! - every envelope reads back, renders again to the same bytes (caps cut
//!   once), and says the same as its error when nothing was cut or replaced;
//! - every XML output parses in a strict XML parser (roxmltree);
//! - every output stays within its caps.
//!
//! Fixed seeds and no regression files: a run is the same run everywhere.

use mcp_envelope::delta::{ContractDelta, DeltaSeverity};
use mcp_envelope::partial::{parse_partial, render_partial, FailedItem, PartialLimits, PartialResult};
use mcp_envelope::validation::{parse_validation, render_validation, IssueCode, PathSegment, ValidationIssue};
use mcp_envelope::{parse, render, spec, Category, Format, Limits, Locale, Severity, ToolError};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

#[path = "common/hostile_text.rs"]
mod hostile_text;
#[path = "common/shown.rs"]
mod shown;

use shown::{shown_whole, texts};

/// The cases each property runs per form.
const CASES: u32 = 10_000;

/// A runner with a fixed seed, `CASES` cases, no regression files.
fn runner() -> TestRunner {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::XorShift))
}

/// Runs `test` on `CASES` values of `strategy`; a failure names the form.
fn check<S: Strategy>(what: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    if let Err(e) = runner().run(&strategy, test) {
        panic!("{what}: {e}");
    }
}

/// Hostile text: markup, entities, forbidden characters, line ends, odd
/// unicode, cut markers, and plain words long enough for the caps. Made
/// from plain numbers rather than proptest's regex strings, which take
/// most of a debug build's time.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<(u8, u32)>(), 0..8).prop_map(|pieces| {
        let mut out = String::new();
        for (kind, n) in pieces {
            match kind % 8 {
                0..=2 => out.push_str(hostile_text::PIECES[n as usize % hostile_text::PIECES.len()]),
                3 => out.push(char::from_u32(n % 0x11_0000).unwrap_or('\u{fffd}')),
                4 | 5 => out.extend((0..1 + n % 6).map(|i| char::from(b'a' + ((n >> i) % 26) as u8))),
                6 => out.push(char::from_u32(0x80 + n % 0x800).unwrap_or('é')),
                _ => out.push_str(&"word ".repeat(1 + n as usize % 60)),
            }
        }
        out
    })
}

fn some_text() -> impl Strategy<Value = String> {
    text().prop_map(|t| if t.is_empty() { "C".to_owned() } else { t })
}

fn delta() -> impl Strategy<Value = ContractDelta> {
    let texts = (
        text(),
        text(),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
    );
    (prop::sample::select(DeltaSeverity::ALL), texts).prop_map(
        |(severity, (field, description, action, before, after))| ContractDelta {
            severity,
            action,
            field,
            description,
            before,
            after,
        },
    )
}

fn limits() -> impl Strategy<Value = Limits> {
    (
        Limits::MIN_MESSAGE_CHARS..600usize,
        Limits::MIN_ENVELOPE_CHARS..2500usize,
        0..12usize,
        0..12usize,
    )
        .prop_map(|(message_chars, envelope_chars, actions, details)| Limits {
            message_chars,
            envelope_chars,
            actions,
            details,
        })
}

/// Any error a caller can build: every field set or not, under any caps.
fn tool_error() -> impl Strategy<Value = ToolError> {
    let texts = (
        some_text(),
        text(),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
    );
    let lists = (
        prop::collection::vec(text(), 0..12),
        prop::collection::vec((text(), text()), 0..12),
        prop::collection::vec(delta(), 0..7),
        (0..3usize, 0..3usize, 0..3usize),
    );
    let flags = (
        prop::option::of(any::<u32>()),
        prop::sample::select(Severity::ALL),
        prop::option::of(prop::sample::select(Category::ALL)),
        prop::option::of(any::<bool>()),
        prop::sample::select(Locale::ALL),
        any::<bool>(),
        prop::option::of(limits()),
    );
    (texts, lists, flags).prop_map(|(texts, lists, flags)| {
        let (code, message, suggestion, customer_message, correlation_id) = texts;
        let (actions, details, deltas, (omitted_actions, omitted_details, omitted_deltas)) = lists;
        let (retry_after, severity, category, retryable, locale, localize_steering, limits) = flags;
        let mut e = ToolError::new(code, message);
        for (key, value) in details {
            e = e.detail(key, value);
        }
        e.suggestion = suggestion;
        e.available_actions = actions;
        e.omitted_actions = omitted_actions;
        e.omitted_details = omitted_details;
        e.retry_after = retry_after;
        e.severity = severity;
        e.category = category;
        e.retryable = retryable;
        e.customer_message = customer_message;
        e.correlation_id = correlation_id;
        e.deltas = deltas;
        e.omitted_deltas = omitted_deltas;
        e.locale = locale;
        e.localize_steering = localize_steering;
        e.limits = limits;
        e
    })
}

/// An envelope of `e` in `format` reads back: as `e` when it shows `e`
/// whole, always as a spec the renderer accepts and to the same bytes again.
/// Gives the envelope and the error read back.
fn reads_back(e: &ToolError, format: Format) -> Result<(String, ToolError), TestCaseError> {
    let out = render(e, format);
    let mut back = parse(&out).map_err(|why| TestCaseError::fail(format!("does not read back: {why}\n{out}")))?;
    let stated = spec::to_json_as_stated(&back);
    prop_assert!(spec::from_json(&stated).is_ok(), "the spec {stated} is refused");
    if shown_whole(e, format) {
        prop_assert_eq!(&back, e, "{}", out);
    }
    let read = back.clone();
    back.limits = e.limits;
    back.locale = e.locale;
    back.localize_steering = e.localize_steering;
    prop_assert_eq!(render(&back, format), out.as_str());
    Ok((out, read))
}

/// Any error renders, in each form, to an envelope that reads back (above)
/// and stays within its caps: no text over `message_chars`, no list over its
/// cap, and an envelope over `envelope_chars` has dropped every list.
#[test]
fn any_error_reads_back_within_its_caps_in_every_form() {
    for format in Format::ALL.iter().copied() {
        check(&format!("{format}"), tool_error(), |e| {
            let (out, back) = reads_back(&e, format)?;
            let limits = e.limits_or_default();
            for text in texts(&back) {
                prop_assert!(
                    text.chars().count() <= limits.message_chars,
                    "{:?} is over its cap",
                    text
                );
            }
            prop_assert!(back.available_actions.len() <= limits.actions);
            prop_assert!(back.details.len() <= limits.details);
            if out.chars().count() > limits.envelope_chars {
                let listed = back.available_actions.len() + back.details.len() + back.deltas.len();
                prop_assert_eq!(listed, 0, "over its total with lists left:\n{}", out);
            }
            Ok(())
        });
    }
}

/// Every `<tool_error>` parses in a strict XML parser, its root and code intact.
#[test]
fn every_tool_error_xml_output_is_well_formed() {
    check("xml", tool_error(), |e| {
        let out = render(&e, Format::Xml);
        let doc = roxmltree::Document::parse(&out).map_err(|why| TestCaseError::fail(format!("{why}\n{out}")))?;
        prop_assert_eq!(doc.root_element().tag_name().name(), "tool_error");
        prop_assert!(doc.root_element().attribute("code").is_some_and(|c| !c.is_empty()));
        Ok(())
    });
}

fn partial() -> impl Strategy<Value = PartialResult> {
    let failed = (
        some_text(),
        some_text(),
        prop::option::of(text()),
        prop::option::of(any::<bool>()),
        prop::option::of(any::<u32>()),
    )
        .prop_map(|(item, code, message, retryable, retry_after)| FailedItem {
            item,
            code,
            message,
            retryable,
            category: None,
            retry_after,
        });
    let limits = (
        Limits::MIN_MESSAGE_CHARS..600usize,
        Limits::MIN_ENVELOPE_CHARS..2500usize,
        1..12usize,
    )
        .prop_map(|(message_chars, envelope_chars, items)| PartialLimits {
            message_chars,
            envelope_chars,
            items,
        });
    let lists = (
        prop::collection::vec(text(), 0..8),
        prop::collection::vec(failed, 1..6),
        prop::collection::vec(text(), 0..8),
    );
    let texts = (
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
    );
    (lists, texts, prop::option::of(limits)).prop_map(|((obtained, failed, tried), (task, recovery, id), limits)| {
        let mut p = PartialResult::new().obtained(obtained).tried(tried);
        p.failed = failed;
        p.task = task;
        p.recovery = recovery;
        p.correlation_id = id;
        p.limits = limits;
        p
    })
}

/// Any partial result renders, in each form, within its caps, to an
/// envelope that reads back and renders again to the same bytes; its XML
/// parses in a strict parser.
#[test]
fn any_partial_result_reads_back_within_its_caps_in_every_form() {
    for format in Format::ALL.iter().copied() {
        check(&format!("partial {format}"), partial(), |p| {
            let limits = p.limits_or_default();
            let out = render_partial(&p, format);
            if format == Format::Xml {
                let doc =
                    roxmltree::Document::parse(&out).map_err(|why| TestCaseError::fail(format!("{why}\n{out}")))?;
                prop_assert_eq!(doc.root_element().tag_name().name(), "partial_result");
            }
            let mut back = parse_partial(&out).map_err(|why| TestCaseError::fail(format!("{why}\n{out}")))?;
            let stated = mcp_envelope::partial::to_json_as_stated(&back);
            prop_assert!(
                mcp_envelope::partial::partial_from_json(&stated).is_ok(),
                "the spec {} is refused",
                stated
            );
            for list in [&back.obtained, &back.tried] {
                prop_assert!(list.len() <= limits.items);
                prop_assert!(list.iter().all(|t| t.chars().count() <= limits.message_chars));
            }
            back.limits = p.limits;
            prop_assert_eq!(render_partial(&back, format), out);
            Ok(())
        });
    }
}

fn issue() -> impl Strategy<Value = ValidationIssue> {
    let path = prop::collection::vec(
        prop_oneof![
            text().prop_map(PathSegment::Key),
            (0u64..5).prop_map(PathSegment::Index)
        ],
        0..4,
    );
    let texts = (
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
    );
    (
        prop::sample::select(IssueCode::ALL),
        path,
        texts,
        prop::collection::vec(text(), 0..3),
        text(),
    )
        .prop_map(|(code, path, (expected, format, origin, message), keys, sent)| {
            let mut issue = ValidationIssue::new(code)
                .at(path)
                .input_json(serde_json::to_string(&sent).unwrap());
            issue.expected = expected;
            issue.format = format;
            issue.origin = origin;
            issue.message = message;
            issue.values = keys.iter().map(|k| serde_json::to_string(k).unwrap()).collect();
            issue.keys = keys;
            issue
        })
}

/// Every `<validation_error>` parses in a strict XML parser and reads back
/// with its action and a line per listed field.
#[test]
fn every_validation_xml_output_is_well_formed() {
    let input = (
        some_text(),
        prop::collection::vec(issue(), 0..6),
        prop::collection::vec(delta(), 0..4),
    );
    check("validation", input, |(action, issues, deltas)| {
        let options = Default::default();
        let out = render_validation(&action, &issues, &deltas, options);
        let doc = roxmltree::Document::parse(&out).map_err(|why| TestCaseError::fail(format!("{why}\n{out}")))?;
        prop_assert_eq!(doc.root_element().tag_name().name(), "validation_error");
        let back = parse_validation(&out).map_err(|why| TestCaseError::fail(format!("{why}\n{out}")))?;
        prop_assert_eq!(back.fields.len(), issues.len().min(options.max_fields));
        Ok(())
    });
}

#[path = "properties/other_writers.rs"]
mod other_writers;

/// What a reader accepts from another writer, in each form, the renderer
/// accepts: the error read is a spec `spec::from_json` takes, and its
/// envelope reads back as the same error.
#[test]
fn what_a_reader_accepts_the_renderer_accepts() {
    for (form, strategy) in other_writers::envelopes() {
        check(form, strategy, |text| {
            let Ok(e) = parse(&text) else {
                return Ok(());
            };
            let stated = spec::to_json_as_stated(&e);
            prop_assert!(
                spec::from_json(&stated).is_ok(),
                "{:?} reads as the spec {}, which is refused",
                text,
                stated
            );
            for format in Format::ALL.iter().copied() {
                reads_back(&e, format)?;
            }
            Ok(())
        });
    }
}
