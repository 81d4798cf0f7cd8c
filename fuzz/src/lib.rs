//! What the fuzz targets share: text and JSON made from the fuzzer's bytes
//! (biased toward what breaks envelopes), an arbitrary error, and the
//! checks every error or partial result read back must pass.
//!
//! The properties are those the vectors state (vectors/README.md): an
//! envelope read back is a spec the renderer accepts, it renders again to
//! the same bytes (caps cut once), and, when nothing was cut or replaced,
//! it says the same thing as the error it was rendered from.

use arbitrary::{Arbitrary, Result, Unstructured};
use mcp_envelope::delta::{ContractDelta, DeltaSeverity};
use mcp_envelope::partial::{parse_partial, partial_from_json, render_partial, to_json_as_stated, PartialResult};
use mcp_envelope::{
    parse, read_envelope, render, spec, Category, Format, Limits, Locale, Reading, Severity, ToolError,
};
use serde_json::{Map, Value};

#[allow(dead_code)] // the tests' generator; the fuzzer takes its pieces only
#[path = "../../tests/common/hostile_text.rs"]
mod hostile_text;
#[path = "../../tests/common/shown.rs"]
mod shown;

use hostile_text::{MARKERS, PIECES};
pub use shown::replaced;
use shown::shown_whole;

/// Pieces for the fuzzer beyond the tests' hostile ones
/// (tests/common/hostile_text.rs): the text form's keys and line
/// continuations, JSON's brackets, the other envelopes' tags.
const MORE_PIECES: &[&str] = &[
    "\n  ",
    ": ",
    "[",
    "]",
    "<message>",
    "&#x1;",
    "<!--",
    "what_failed: ",
    "\nerror_code: X\nwhat_failed: m",
    "partial_result: ",
    "failed: ",
    "<validation_error action=\"a\">",
    "<partial_result>",
];

/// A text from the fuzzer: pieces from `PIECES` and arbitrary characters.
pub fn hostile_text(u: &mut Unstructured<'_>) -> Result<String> {
    let mut out = String::new();
    for _ in 0..u.arbitrary_len::<u8>()?.min(64) {
        match u.int_in_range(0u8..=3)? {
            0 => {
                let pieces = *u.choose(&[PIECES, MARKERS, MORE_PIECES])?;
                out.push_str(u.choose(pieces)?)
            }
            1 => out.push(u.arbitrary::<char>()?),
            // Plain words: long texts reach the caps.
            2 => out.push_str(&"word ".repeat(u.int_in_range(1..=120)?)),
            _ => out.push(char::from(u.int_in_range(b'a'..=b'z')?)),
        }
    }
    Ok(out)
}

/// A text that is not empty, for the texts a spec requires (a code, an action).
pub fn some_text(u: &mut Unstructured<'_>) -> Result<String> {
    let text = hostile_text(u)?;
    Ok(if text.is_empty() { "C".to_owned() } else { text })
}

fn choose_copy<T: Copy>(u: &mut Unstructured<'_>, all: &[T]) -> Result<T> {
    u.choose(all).copied()
}

/// A detail key: often one of a few, so that keys meet (alike, alike once
/// forbidden characters are replaced, alike up to a cut), else hostile.
pub fn key(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => u
            .choose(&["a", "b", "\0", "\u{1}", "\u{fffe}", "\u{fffd}", "a\0", "a\u{b}"])?
            .to_string(),
        1 => "k".repeat(u.int_in_range(30..=700)?) + u.choose(&["1", "2", "\0", ""])?,
        _ => hostile_text(u)?,
    })
}

/// A contract change with hostile texts.
pub fn delta(u: &mut Unstructured<'_>) -> Result<ContractDelta> {
    Ok(ContractDelta {
        severity: choose_copy(u, DeltaSeverity::ALL)?,
        action: if u.arbitrary()? { Some(hostile_text(u)?) } else { None },
        field: hostile_text(u)?,
        description: hostile_text(u)?,
        before: if u.arbitrary()? { Some(hostile_text(u)?) } else { None },
        after: if u.arbitrary()? { Some(hostile_text(u)?) } else { None },
    })
}

fn optional(u: &mut Unstructured<'_>) -> Result<Option<String>> {
    Ok(if u.arbitrary()? { Some(hostile_text(u)?) } else { None })
}

/// An arbitrary error, built through the builder as a caller builds one
/// (details through `detail`, which keeps keys unique), any field set or not.
pub fn tool_error(u: &mut Unstructured<'_>) -> Result<ToolError> {
    let mut e = ToolError::new(some_text(u)?, hostile_text(u)?);
    e.suggestion = optional(u)?;
    for _ in 0..u.arbitrary_len::<u8>()?.min(14) {
        e.available_actions.push(hostile_text(u)?);
    }
    for _ in 0..u.arbitrary_len::<u8>()?.min(14) {
        e = e.detail(key(u)?, hostile_text(u)?);
    }
    for _ in 0..u.arbitrary_len::<u8>()?.min(8) {
        e.deltas.push(delta(u)?);
    }
    e.omitted_actions = u.int_in_range(0..=3)?;
    e.omitted_details = u.int_in_range(0..=3)?;
    e.omitted_deltas = u.int_in_range(0..=3)?;
    e.retry_after = u.arbitrary()?;
    e.severity = choose_copy(u, Severity::ALL)?;
    e.category = if u.arbitrary()? {
        Some(choose_copy(u, Category::ALL)?)
    } else {
        None
    };
    e.retryable = u.arbitrary()?;
    e.customer_message = optional(u)?;
    e.correlation_id = optional(u)?;
    e.locale = choose_copy(u, Locale::ALL)?;
    e.localize_steering = u.arbitrary()?;
    if u.arbitrary()? {
        e.limits = Some(Limits {
            message_chars: u.int_in_range(Limits::MIN_MESSAGE_CHARS..=600)?,
            envelope_chars: u.int_in_range(Limits::MIN_ENVELOPE_CHARS..=2500)?,
            actions: u.int_in_range(0..=12)?,
            details: u.int_in_range(0..=12)?,
        });
    }
    Ok(e)
}

/// A JSON value whose object keys come mostly from `keys` (the members a
/// reader looks for) and whose strings are hostile; at most `depth` deep.
pub fn json_value(u: &mut Unstructured<'_>, keys: &[&str], depth: u32) -> Result<Value> {
    let leaf = depth == 0 || u.is_empty();
    Ok(match u.int_in_range(0u8..=if leaf { 4 } else { 7 })? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => number(u)?,
        3 | 4 => Value::String(if u.arbitrary()? {
            u.choose(keys)?.to_string()
        } else {
            hostile_text(u)?
        }),
        5 => Value::Array(
            (0..u.arbitrary_len::<u8>()?.min(6))
                .map(|_| json_value(u, keys, depth - 1))
                .collect::<Result<_>>()?,
        ),
        _ => {
            let mut object = Map::new();
            for _ in 0..u.arbitrary_len::<u8>()?.min(8) {
                let key = if u.int_in_range(0u8..=4)? > 0 {
                    u.choose(keys)?.to_string()
                } else {
                    hostile_text(u)?
                };
                object.insert(key, json_value(u, keys, depth - 1)?);
            }
            Value::Object(object)
        }
    })
}

/// A number as JSON writes it: small and large integers, fractions,
/// exponents, held as serde_json holds them in a user's build (an integer or
/// an `f64`; the core's own reading of written digits is the vectors').
fn number(u: &mut Unstructured<'_>) -> Result<Value> {
    let text = match u.int_in_range(0u8..=4)? {
        0 => u.int_in_range(-3i64..=12)?.to_string(),
        1 => u.arbitrary::<i64>()?.to_string(),
        2 => u.arbitrary::<u64>()?.to_string(),
        3 => format!("{}e{}", u.int_in_range(-9i32..=9)?, u.int_in_range(-30i32..=30)?),
        _ => {
            let f: f64 = u.arbitrary()?;
            if f.is_finite() {
                f.to_string()
            } else {
                "0.5".to_owned()
            }
        }
    };
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// An error as the fuzzer made or read it: the spec accepts it as stated,
/// and each form renders an envelope that reads back, renders again to the
/// same bytes, and says the same as `e` when it shows `e` whole.
pub fn check_tool_error(e: &ToolError) {
    let stated = spec::to_json_as_stated(e);
    let again = spec::from_json(&stated).unwrap_or_else(|why| panic!("the spec {stated} is refused: {why}"));
    assert!(again == *e, "the spec {stated} reads as {again:?}, not {e:?}");
    for format in Format::ALL.iter().copied() {
        let out = render(e, format);
        let mut back = parse(&out).unwrap_or_else(|why| panic!("{format} envelope does not read back: {why}\n{out}"));
        match read_envelope(&out) {
            Ok(Reading::ToolError(read)) => assert!(read == back, "read_envelope and parse differ on\n{out}"),
            other => panic!("read_envelope gives {other:?} for the {format} envelope\n{out}"),
        }
        if shown_whole(e, format) {
            assert!(back == *e, "{format} envelope reads back as {back:?}, not {e:?}\n{out}");
        }
        back.limits = e.limits;
        back.locale = e.locale;
        back.localize_steering = e.localize_steering;
        let twice = render(&back, format);
        assert!(
            twice == out,
            "{format} envelope read back renders otherwise:\n{out}\n---\n{twice}"
        );
    }
}

/// A partial result as read: the spec accepts it as stated, and each form
/// renders an envelope that reads back and renders again to the same bytes.
pub fn check_partial(p: &PartialResult) {
    let stated = to_json_as_stated(p);
    let (again, _) = partial_from_json(&stated).unwrap_or_else(|why| panic!("the spec {stated} is refused: {why}"));
    assert!(again == *p, "the spec {stated} reads as {again:?}, not {p:?}");
    for format in Format::ALL.iter().copied() {
        let out = render_partial(p, format);
        let mut back = parse_partial(&out)
            .unwrap_or_else(|why| panic!("{format} partial result does not read back: {why}\n{out}"));
        back.limits = p.limits;
        let twice = render_partial(&back, format);
        assert!(
            twice == out,
            "{format} partial result read back renders otherwise:\n{out}\n---\n{twice}"
        );
    }
}

/// `data` as text: as it is when it is UTF-8, else with U+FFFD for what is not.
pub fn text_of(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Made from `Unstructured` in the targets' `fuzz_target!(|input: Arbitrary| ..)` form.
#[derive(Debug)]
pub struct AnyError(pub ToolError);

impl<'a> Arbitrary<'a> for AnyError {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        tool_error(u).map(AnyError)
    }
}
