//! The text of one `<field>` line, from the issue's structured fields through
//! our own templates: what is wrong, `You sent: ..`, `Expected ..`, each a
//! sentence. The validator's English is used only where no template fits.

use std::borrow::Cow;

use super::model::{Bound, IssueCode, ValidationIssue};
use super::sent_value::{describe, quote, string_length};
use super::FIELD_CHARS;
use crate::cut::{capped, Marker};

/// Allowed values listed before "and N more".
const MAX_VALUES: usize = 10;
/// Characters of a validator's own message kept before the cut.
const MAX_MESSAGE_CHARS: usize = 200;

/// The text of one field line, at most `FIELD_CHARS` characters (cut marked).
///
/// ```
/// use mcp_envelope::validation::{field_text, IssueCode, ValidationIssue};
/// let issue = ValidationIssue::new(IssueCode::InvalidFormat).format("email").input_json(r#""not-an-email""#);
/// assert_eq!(field_text(&issue), "Invalid email format. You sent: 'not-an-email'. Expected a valid email address.");
/// ```
pub fn field_text(issue: &ValidationIssue) -> String {
    let text = uncapped_field_text(issue);
    match capped(&text, FIELD_CHARS, Marker::English) {
        Cow::Borrowed(_) => text,
        Cow::Owned(cut) => cut,
    }
}

fn uncapped_field_text(issue: &ValidationIssue) -> String {
    let sent = describe(issue.input.as_deref());
    let (wrong, expected) = match issue.code {
        IssueCode::MissingRequired => missing(issue),
        IssueCode::InvalidType if issue.input.is_none() => missing(issue),
        IssueCode::InvalidType => ("Wrong type".to_owned(), type_phrase(issue.expected.as_deref())),
        IssueCode::TooSmall | IssueCode::TooBig => return size_text(issue, sent),
        IssueCode::InvalidFormat => format_text(issue),
        IssueCode::NotMultipleOf => {
            let divisor = issue.divisor.as_deref().unwrap_or("the required step");
            (
                format!("Not a multiple of {divisor}"),
                format!("a multiple of {divisor}"),
            )
        }
        IssueCode::InvalidValue => value_text(issue),
        IssueCode::UnrecognizedKeys => return keys_text(issue),
        IssueCode::InvalidUnion => (
            "Matches none of the allowed shapes".to_owned(),
            "a value matching one of the allowed shapes".to_owned(),
        ),
        IssueCode::InvalidKey => ("Invalid key".to_owned(), "keys of the allowed form".to_owned()),
        IssueCode::InvalidElement => ("Invalid element".to_owned(), "elements of the allowed form".to_owned()),
        IssueCode::Custom => (
            own_words(issue.message.as_deref()).unwrap_or_else(|| "Failed a check".to_owned()),
            "a value that passes this check".to_owned(),
        ),
    };
    format!("{wrong}. You sent: {sent}. Expected {expected}.")
}

fn missing(issue: &ValidationIssue) -> (String, String) {
    let expected = match issue.expected.as_deref() {
        Some(t) => type_phrase(Some(t)),
        None => "a value".to_owned(),
    };
    ("Missing required field".to_owned(), expected)
}

/// "a string", "an integer": a type name with its article.
fn type_phrase(type_name: Option<&str>) -> String {
    match type_name.unwrap_or("") {
        "" => "a value of another type".to_owned(),
        "string" | "str" => "a string".to_owned(),
        "number" | "float" => "a number".to_owned(),
        "integer" | "int" | "bigint" => "an integer".to_owned(),
        "boolean" | "bool" => "a boolean (true or false)".to_owned(),
        "object" | "dict" | "record" => "an object".to_owned(),
        "array" | "list" | "tuple" => "an array".to_owned(),
        "null" | "none" => "null".to_owned(),
        "date" => "a date".to_owned(),
        other => format!("a value of type {}", quote(other)),
    }
}

/// The name in "Invalid {name} format" and what a valid value looks like.
fn format_text(issue: &ValidationIssue) -> (String, String) {
    let format = issue.format.as_deref().unwrap_or("");
    let (name, expected): (&str, String) = match format {
        "email" => ("email", "a valid email address".into()),
        "url" | "uri" => ("URL", "a valid URL, such as https://example.com/page".into()),
        "uuid" | "guid" => ("UUID", "a UUID, such as 123e4567-e89b-12d3-a456-426614174000".into()),
        "datetime" | "date-time" => (
            "date-time",
            "an ISO 8601 date-time, such as 2026-01-31T09:30:00Z".into(),
        ),
        "date" => ("date", "an ISO 8601 date, such as 2026-01-31".into()),
        "time" => ("time", "an ISO 8601 time, such as 09:30:00".into()),
        "duration" => ("duration", "an ISO 8601 duration, such as P3DT4H".into()),
        "ipv4" => ("IPv4", "an IPv4 address, such as 192.0.2.1".into()),
        "ipv6" => ("IPv6", "an IPv6 address, such as 2001:db8::1".into()),
        "cidrv4" => ("IPv4 range", "an IPv4 range in CIDR form, such as 192.0.2.0/24".into()),
        "cidrv6" => ("IPv6 range", "an IPv6 range in CIDR form, such as 2001:db8::/32".into()),
        "e164" => (
            "phone number",
            "a phone number in E.164 form, such as +14155550123".into(),
        ),
        "base64" => ("base64", "base64-encoded text".into()),
        "base64url" => ("base64url", "base64url-encoded text".into()),
        "jwt" => ("JWT", "a JSON Web Token".into()),
        "hostname" => ("hostname", "a hostname, such as api.example.com".into()),
        "regex" | "pattern" => {
            return match issue.pattern.as_deref() {
                Some(p) => (
                    "Does not match the required pattern".into(),
                    format!("text matching the pattern {}", quote(p)),
                ),
                None => (
                    "Does not match the required pattern".into(),
                    "text matching the field's pattern".into(),
                ),
            }
        }
        "" => return ("Invalid format".into(), "a value in the field's format".into()),
        other => {
            return (
                format!("Invalid {} format", quote(other)),
                format!("a valid {}", quote(other)),
            )
        }
    };
    (format!("Invalid {name} format"), expected)
}

fn value_text(issue: &ValidationIssue) -> (String, String) {
    let shown: Vec<String> = issue
        .values
        .iter()
        .take(MAX_VALUES)
        .map(|v| describe(Some(v)))
        .collect();
    match issue.values.len() {
        0 => ("Not an allowed value".into(), "one of the allowed values".into()),
        1 => ("Not the allowed value".into(), format!("exactly {}", shown[0])),
        n if n > MAX_VALUES => (
            "Not one of the allowed values".into(),
            format!("one of: {}, and {} more", shown.join(", "), n - MAX_VALUES),
        ),
        _ => (
            "Not one of the allowed values".into(),
            format!("one of: {}", shown.join(", ")),
        ),
    }
}

fn keys_text(issue: &ValidationIssue) -> String {
    let shown: Vec<String> = issue.keys.iter().take(MAX_VALUES).map(|k| quote(k)).collect();
    let more = match issue.keys.len() {
        n if n > MAX_VALUES => format!(", and {} more", n - MAX_VALUES),
        _ => String::new(),
    };
    let listed = format!("{}{more}", shown.join(", "));
    match issue.keys.len() {
        0 => "Unrecognized keys. You sent: keys this object does not have. Expected only the declared keys.".into(),
        1 => format!("Unrecognized key {listed}. You sent: {listed}. Expected only the declared keys; remove it."),
        _ => format!("Unrecognized keys {listed}. You sent: {listed}. Expected only the declared keys; remove them."),
    }
}

/// `too_small` and `too_big`, worded by what was measured.
fn size_text(issue: &ValidationIssue, sent: String) -> String {
    let small = issue.code == IssueCode::TooSmall;
    let bound = if small {
        issue.minimum.as_ref()
    } else {
        issue.maximum.as_ref()
    };
    let origin = issue.origin.as_deref().unwrap_or("");
    let (wrong, unit, sent) = match (origin, small) {
        ("string", true) => ("Too short", Some(("character", "characters")), with_length(sent, issue)),
        ("string", false) => ("Too long", Some(("character", "characters")), with_length(sent, issue)),
        ("array" | "set" | "list", true) => ("Too few items", Some(("item", "items")), sent),
        ("array" | "set" | "list", false) => ("Too many items", Some(("item", "items")), sent),
        ("object" | "map", true) => ("Too few entries", Some(("entry", "entries")), sent),
        ("object" | "map", false) => ("Too many entries", Some(("entry", "entries")), sent),
        ("file", true) => ("Too small", Some(("byte", "bytes")), sent),
        ("file", false) => ("Too large", Some(("byte", "bytes")), sent),
        ("date", true) => ("Too early", None, sent),
        ("date", false) => ("Too late", None, sent),
        (_, true) => ("Too small", None, sent),
        (_, false) => ("Too large", None, sent),
    };
    let expected = match bound {
        None => "a value within the allowed range".to_owned(),
        Some(bound) => bound_phrase(bound, small, origin == "date", unit),
    };
    format!("{wrong}. You sent: {sent}. Expected {expected}.")
}

fn with_length(sent: String, issue: &ValidationIssue) -> String {
    // A cut string already states its length.
    if sent.ends_with("characters)") {
        return sent;
    }
    match string_length(issue.input.as_deref()) {
        Some(n) => format!("{sent} ({n} {})", if n == 1 { "character" } else { "characters" }),
        None => sent,
    }
}

fn bound_phrase(bound: &Bound, small: bool, date: bool, unit: Option<(&str, &str)>) -> String {
    let value = &bound.value;
    let quantity = match unit {
        Some((one, many)) => format!("{value} {}", if value == "1" { one } else { many }),
        None => value.clone(),
    };
    if bound.exact {
        return format!("exactly {quantity}");
    }
    match (date, small, bound.inclusive, unit.is_some()) {
        (true, true, true, _) => format!("a date on or after {value}"),
        (true, true, false, _) => format!("a date after {value}"),
        (true, false, true, _) => format!("a date on or before {value}"),
        (true, false, false, _) => format!("a date before {value}"),
        (false, true, true, _) => format!("at least {quantity}"),
        (false, true, false, true) => format!("more than {quantity}"),
        (false, true, false, false) => format!("a value greater than {value}"),
        (false, false, true, _) => format!("at most {quantity}"),
        (false, false, false, true) => format!("fewer than {quantity}"),
        (false, false, false, false) => format!("a value less than {value}"),
    }
}

/// A validator's message as one clean sentence: one line, no trailing period,
/// cut if long. One pass over the message, copying only what is kept, so a
/// huge message costs a count, not copies.
fn own_words(message: Option<&str>) -> Option<String> {
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
        return Some(format!("{kept}… ({total} characters)"));
    }
    let at = kept.char_indices().nth(total).map_or(kept.len(), |(at, _)| at);
    kept.truncate(at);
    Some(kept)
}
