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

/// Pieces that break envelopes: markup, entities, CDATA, controls XML
/// forbids, line ends, the text form's keys, cut markers, odd unicode.
const PIECES: &[&str] = &[
    "<",
    ">",
    "&",
    "\"",
    "'",
    "]]>",
    "\r",
    "\r\n",
    "\n",
    "\n  ",
    "\t",
    "\0",
    "\u{1}",
    "\u{b}",
    "\u{7f}",
    "\u{85}",
    "\u{fffe}",
    "\u{fffd}",
    "\u{feff}",
    "\u{200d}",
    "\u{1F469}\u{200D}\u{1F467}",
    "e\u{301}",
    "\u{10FFFF}",
    "\u{2028}",
    " ",
    "  ",
    ": ",
    "\\",
    "{",
    "}",
    "[",
    "]",
    "<tool_error code=\"X\">",
    "</message>",
    "<message>",
    "<![CDATA[",
    "&amp;",
    "&#0;",
    "&#x1;",
    "-->",
    "<!--",
    "error_code: ",
    "what_failed: ",
    "\nerror_code: X\nwhat_failed: m",
    "partial_result: ",
    "<validation_error action=\"a\">",
    "<partial_result>",
    "… [12 characters cut]",
    " characters cut]",
    "… [",
];

/// A text from the fuzzer: pieces from `PIECES` and arbitrary characters.
pub fn hostile_text(u: &mut Unstructured<'_>) -> Result<String> {
    let mut out = String::new();
    for _ in 0..u.arbitrary_len::<u8>()?.min(64) {
        match u.int_in_range(0u8..=3)? {
            0 => out.push_str(u.choose(PIECES)?),
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
/// exponents, the digits serde_json's `arbitrary_precision` keeps.
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

/// The texts of an error an envelope shows, for the caps.
fn texts(e: &ToolError) -> Vec<&str> {
    let mut texts = vec![e.code.as_str(), e.message.as_str()];
    texts.extend(e.recovery());
    texts.extend(e.customer_message_text());
    texts.extend(e.correlation_id_text());
    texts.extend(e.available_actions.iter().map(String::as_str));
    texts.extend(e.details.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]));
    for d in e.listed_deltas().0 {
        texts.extend([d.field.as_str(), d.description.as_str()]);
        texts.extend(d.action.as_deref());
        texts.extend(d.before.as_deref());
        texts.extend(d.after.as_deref());
    }
    texts
}

/// A character every renderer replaces with U+FFFD (XML 1.0 forbids it).
fn is_forbidden(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` as the XML form writes it: each forbidden character U+FFFD.
pub fn replaced(text: &str) -> String {
    text.chars()
        .map(|c| if is_forbidden(c) { mcp_envelope::REPLACEMENT } else { c })
        .collect()
}

/// Whether the envelope of `e` in `format` shows `e` whole: no text cut, no
/// list capped, no character replaced. Only then must it read back as `e`.
fn shown_whole(e: &ToolError, format: Format) -> bool {
    let limits = e.limits_or_default();
    // Rendered without the total cap: when that fits the total, no step of
    // the total cap ran (docs/size-caps.md).
    let mut uncapped = e.clone();
    uncapped.limits = Some(Limits {
        envelope_chars: usize::MAX,
        ..limits
    });
    texts(e)
        .iter()
        .all(|t| t.chars().count() <= limits.message_chars && !t.chars().any(is_forbidden))
        && e.available_actions.len() <= limits.actions
        && e.details.len() <= limits.details
        && render(&uncapped, format).chars().count() <= limits.envelope_chars
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
