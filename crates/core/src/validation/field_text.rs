//! The text of one `<field>` line, from the issue's structured fields through
//! our own templates: what is wrong, `You sent: ..`, `Expected ..`, each a
//! sentence, in the words of a locale's catalog (`Words::field`). The
//! validator's own words are used only where no template fits.

use super::model::{Bound, IssueCode, ValidationIssue};
use super::sent_value::{describe, quote, string_length, MAX_STRING_CHARS};
use super::FIELD_CHARS;
use crate::cut::{capped, Marker};
use crate::json::canonical_number;
use crate::locale::{FieldWords, Locale};
use std::borrow::Cow;

/// Allowed values listed before "and N more".
const MAX_VALUES: usize = 10;
/// Characters of a validator's own message kept before the cut.
const MAX_MESSAGE_CHARS: usize = 200;

/// The line of one issue in English (the wire format's own words).
///
/// ```
/// use mcp_envelope::validation::{field_text, IssueCode, ValidationIssue};
/// let issue = ValidationIssue::new(IssueCode::InvalidFormat).format("email").input_json(r#""not-an-email""#);
/// assert_eq!(field_text(&issue), "Invalid email format. You sent: 'not-an-email'. Expected a valid email address.");
/// ```
pub fn field_text(issue: &ValidationIssue) -> String {
    field_text_in(issue, Locale::En)
}

/// The line of one issue in a locale's words.
///
/// ```
/// use mcp_envelope::validation::{field_text_in, IssueCode, ValidationIssue};
/// use mcp_envelope::Locale;
/// let issue = ValidationIssue::new(IssueCode::InvalidFormat).format("email").input_json(r#""not-an-email""#);
/// assert_eq!(
///     field_text_in(&issue, Locale::PtBr),
///     "Formato de email inválido. Você enviou: 'not-an-email'. Esperado: um endereço de email válido."
/// );
/// ```
/// The line is at most `FIELD_CHARS` characters, a cut marked in English as a
/// tool error's are (cut markers steer the model).
pub fn field_text_in(issue: &ValidationIssue, locale: Locale) -> String {
    let text = uncapped_field_text(issue, locale);
    match capped(&text, FIELD_CHARS, Marker::ENGLISH) {
        Cow::Borrowed(_) => text,
        Cow::Owned(cut) => cut,
    }
}

fn uncapped_field_text(issue: &ValidationIssue, locale: Locale) -> String {
    let w = &locale.words().field;
    let sent = describe(issue.input.as_deref(), w);
    let (wrong, expected) = match issue.code {
        IssueCode::MissingRequired => missing(issue, w),
        IssueCode::InvalidType if issue.input.is_none() => missing(issue, w),
        IssueCode::InvalidType => (w.wrong_type.to_owned(), type_phrase(issue.expected.as_deref(), w)),
        IssueCode::TooSmall | IssueCode::TooBig => return size_text(issue, sent, w),
        IssueCode::InvalidFormat => format_text(issue, w),
        IssueCode::NotMultipleOf => match issue.divisor.as_deref().map(canonical_number) {
            Some(divisor) => ((w.not_multiple_of)(&divisor), (w.a_multiple_of)(&divisor)),
            None => (w.not_multiple_of_step.to_owned(), w.a_multiple_of_step.to_owned()),
        },
        IssueCode::InvalidValue => value_text(issue, w),
        IssueCode::UnrecognizedKeys => return keys_text(issue, w),
        IssueCode::InvalidUnion => pair(w.invalid_union),
        IssueCode::InvalidKey => pair(w.invalid_key),
        IssueCode::InvalidElement => pair(w.invalid_element),
        IssueCode::Custom => (
            own_words(issue.message.as_deref(), w).unwrap_or_else(|| w.failed_check.to_owned()),
            w.passing_value.to_owned(),
        ),
    };
    (w.line)(&wrong, &sent, &expected)
}

fn pair((wrong, expected): (&str, &str)) -> (String, String) {
    (wrong.to_owned(), expected.to_owned())
}

/// A field not sent: what to send, as specific as the issue says (the
/// allowed values, the format, the type), so a schema's words reach it.
fn missing(issue: &ValidationIssue, w: &FieldWords) -> (String, String) {
    let expected = if !issue.values.is_empty() {
        value_text(issue, w).1
    } else if issue.format.is_some() {
        format_text(issue, w).1
    } else {
        match issue.expected.as_deref() {
            Some(t) => type_phrase(Some(t), w),
            None => w.a_value.to_owned(),
        }
    };
    (w.missing_required.to_owned(), expected)
}

/// "a string", "an integer": a type name with its article.
fn type_phrase(type_name: Option<&str>, w: &FieldWords) -> String {
    let t = &w.types;
    match type_name.unwrap_or("") {
        "" => t.other.to_owned(),
        "string" | "str" => t.string.to_owned(),
        "number" | "float" => t.number.to_owned(),
        "integer" | "int" | "bigint" => t.integer.to_owned(),
        "boolean" | "bool" => t.boolean.to_owned(),
        "object" | "dict" | "record" => t.object.to_owned(),
        "array" | "list" | "tuple" => t.array.to_owned(),
        "null" | "none" => t.null.to_owned(),
        "date" => t.date.to_owned(),
        other => (w.a_value_of_type)(&quote(other, w)),
    }
}

/// What is wrong ("Invalid email format") and what a valid value looks like.
fn format_text(issue: &ValidationIssue, w: &FieldWords) -> (String, String) {
    let format = issue.format.as_deref().unwrap_or("");
    if let Some((_, name, expected)) = w.formats.iter().find(|(names, _, _)| names.contains(&format)) {
        return ((w.invalid_format)(name), (*expected).to_owned());
    }
    match format {
        "regex" | "pattern" => (
            w.pattern_mismatch.to_owned(),
            match issue.pattern.as_deref() {
                Some(p) => (w.matching_pattern)(&quote(p, w)),
                None => w.matching_field_pattern.to_owned(),
            },
        ),
        "" => pair(w.no_format),
        other => {
            let quoted = quote(other, w);
            ((w.invalid_format)(&quoted), (w.a_valid)(&quoted))
        }
    }
}

fn value_text(issue: &ValidationIssue, w: &FieldWords) -> (String, String) {
    let shown: Vec<String> = issue
        .values
        .iter()
        .take(MAX_VALUES)
        .map(|v| describe(Some(v), w))
        .collect();
    match issue.values.len() {
        0 => pair(w.not_allowed_value),
        1 => (w.not_the_allowed_value.to_owned(), (w.exactly)(&shown[0])),
        n => (
            w.not_one_of_allowed.to_owned(),
            (w.one_of)(&format!("{}{}", shown.join(", "), more(n, w))),
        ),
    }
}

/// `, and N more` after a list cut at `MAX_VALUES`, else nothing.
fn more(listed: usize, w: &FieldWords) -> String {
    match listed {
        n if n > MAX_VALUES => (w.and_more)(n - MAX_VALUES),
        _ => String::new(),
    }
}

fn keys_text(issue: &ValidationIssue, w: &FieldWords) -> String {
    let shown: Vec<String> = issue.keys.iter().take(MAX_VALUES).map(|k| quote(k, w)).collect();
    let listed = format!("{}{}", shown.join(", "), more(issue.keys.len(), w));
    match issue.keys.len() {
        0 => w.unknown_keys_unnamed.to_owned(),
        1 => (w.unknown_key)(&listed),
        _ => (w.unknown_keys)(&listed),
    }
}

/// `too_small` and `too_big`, worded by what was measured.
fn size_text(issue: &ValidationIssue, sent: String, w: &FieldWords) -> String {
    let s = &w.size;
    let small = issue.code == IssueCode::TooSmall;
    let bound = if small {
        issue.minimum.as_ref()
    } else {
        issue.maximum.as_ref()
    };
    let origin = issue.origin.as_deref().unwrap_or("");
    let (wrong, unit, sent) = match (origin, small) {
        ("string", true) => (s.too_short, Some(s.character), with_length(sent, issue, w)),
        ("string", false) => (s.too_long, Some(s.character), with_length(sent, issue, w)),
        ("array" | "set" | "list", true) => (s.too_few_items, Some(s.item), sent),
        ("array" | "set" | "list", false) => (s.too_many_items, Some(s.item), sent),
        ("object" | "map", true) => (s.too_few_entries, Some(s.entry), sent),
        ("object" | "map", false) => (s.too_many_entries, Some(s.entry), sent),
        ("file", true) => (s.too_small, Some(s.byte), sent),
        ("file", false) => (s.too_large, Some(s.byte), sent),
        ("date", true) => (s.too_early, None, sent),
        ("date", false) => (s.too_late, None, sent),
        (_, true) => (s.too_small, None, sent),
        (_, false) => (s.too_large, None, sent),
    };
    let expected = match bound {
        None => s.in_range.to_owned(),
        Some(bound) => bound_phrase(bound, small, origin == "date", unit, w),
    };
    (w.line)(wrong, &sent, &expected)
}

/// The sent string with its length, unless the quote was cut (a cut quote
/// already states the length).
fn with_length(sent: String, issue: &ValidationIssue, w: &FieldWords) -> String {
    match string_length(issue.input.as_deref()) {
        Some(n) if n <= MAX_STRING_CHARS => format!("{sent} ({})", (w.characters)(n)),
        _ => sent,
    }
}

fn bound_phrase(bound: &Bound, small: bool, date: bool, unit: Option<(&str, &str)>, w: &FieldWords) -> String {
    let s = &w.size;
    let value = &*canonical_number(&bound.value);
    let quantity = match unit {
        Some((one, many)) => format!("{value} {}", if value == "1" { one } else { many }),
        None => value.to_owned(),
    };
    if bound.exact {
        return (w.exactly)(&quantity);
    }
    match (date, small, bound.inclusive, unit.is_some()) {
        (true, true, true, _) => (s.on_or_after)(value),
        (true, true, false, _) => (s.after)(value),
        (true, false, true, _) => (s.on_or_before)(value),
        (true, false, false, _) => (s.before)(value),
        (false, true, true, _) => (s.at_least)(&quantity),
        (false, true, false, true) => (s.more_than)(&quantity),
        (false, true, false, false) => (s.greater_than)(value),
        (false, false, true, _) => (s.at_most)(&quantity),
        (false, false, false, true) => (s.fewer_than)(&quantity),
        (false, false, false, false) => (s.less_than)(value),
    }
}

/// A validator's message as one clean sentence: one line, no trailing period, cut if long.
fn own_words(message: Option<&str>, w: &FieldWords) -> Option<String> {
    // One pass over the message, copying only what is kept, so a huge
    // message costs a count, not copies.
    let (mut kept, mut total) = (String::new(), 0usize);
    let mut last_word = "";
    for word in message?.split_whitespace() {
        if total > 0 {
            if total < MAX_MESSAGE_CHARS + 1 {
                kept.push(' ');
            }
            total += 1;
        }
        for c in word.chars() {
            if total < MAX_MESSAGE_CHARS + 1 {
                kept.push(c);
            }
            total += 1;
        }
        last_word = word;
    }
    // Trailing periods go: the template adds its own.
    total -= last_word.len() - last_word.trim_end_matches('.').len();
    if total == 0 {
        return None;
    }
    if total > MAX_MESSAGE_CHARS {
        let at = kept
            .char_indices()
            .nth(MAX_MESSAGE_CHARS)
            .map_or(kept.len(), |(at, _)| at);
        kept.truncate(at);
        return Some(format!("{kept}… ({})", (w.characters)(total)));
    }
    let at = kept.char_indices().nth(total).map_or(kept.len(), |(at, _)| at);
    kept.truncate(at);
    Some(kept)
}
