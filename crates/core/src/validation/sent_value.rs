//! Describes a value in a few words for a field line: strings quoted and cut,
//! numbers in one spelling (number.rs), arrays and objects summarized. Works on the JSON text
//! with a flat scanner, so no depth or size of value can overflow or flood.

use crate::json::parse_string;
use crate::locale::FieldWords;

/// Characters of a string shown before the cut.
pub(crate) const MAX_STRING_CHARS: usize = 80;
/// Digits of a number shown before the cut.
const MAX_NUMBER_CHARS: usize = 30;
/// Keys of an object named before "and N more".
const MAX_KEYS: usize = 5;

/// `'text'`, `42`, `true`, `an array of 3 items`, `an object with keys 'a', 'b'`,
/// or `nothing` when no value was sent, in the catalog's words.
pub(crate) fn describe(json: Option<&str>, words: &FieldWords) -> String {
    let Some(json) = json.map(str::trim) else {
        return words.nothing.to_owned();
    };
    match json.as_bytes().first() {
        Some(b'"') => match parse_string(json) {
            Ok(text) => quote(&text, words),
            Err(_) => quote(json, words),
        },
        Some(b'[') => match top_level(json).items {
            0 => words.empty_array.to_owned(),
            n => (words.array_of)(n),
        },
        Some(b'{') => {
            let TopLevel { keys, key_count, .. } = top_level(json);
            match key_count {
                0 => words.empty_object.to_owned(),
                n => {
                    let shown: Vec<String> = keys.iter().map(|k| quote(k, words)).collect();
                    (words.object_with_keys)(n, &shown.join(", "), n.saturating_sub(MAX_KEYS))
                }
            }
        }
        Some(_) => {
            let json = crate::json::canonical_number(json);
            match json.chars().count() {
                total if total > MAX_NUMBER_CHARS => {
                    let shown: String = json.chars().take(MAX_NUMBER_CHARS).collect();
                    format!("{shown}… ({})", (words.characters)(total))
                }
                _ => json.into_owned(),
            }
        }
        None => words.nothing.to_owned(),
    }
}

/// The length of a sent string in characters, if the value is a string.
pub(crate) fn string_length(json: Option<&str>) -> Option<usize> {
    parse_string(json?.trim()).ok().map(|s| s.chars().count())
}

/// `'text'` with control characters written as escapes (a field line stays one
/// line) and long text cut, the cut marked and the full length given.
pub(crate) fn quote(text: &str, words: &FieldWords) -> String {
    let total = text.chars().count();
    let mut out = String::with_capacity(text.len().min(4 * MAX_STRING_CHARS) + 24);
    out.push('\'');
    for c in text.chars().take(MAX_STRING_CHARS) {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    if total > MAX_STRING_CHARS {
        out.push_str(&format!("…' ({})", (words.characters)(total)));
    } else {
        out.push('\'');
    }
    out
}

struct TopLevel {
    items: usize,
    /// The first `MAX_KEYS` keys of an object: all a line names.
    keys: Vec<String>,
    key_count: usize,
}

/// Counts the items (and, for an object, the keys, keeping the first few) of
/// an array or object's top level, skipping nested values without recursing.
fn top_level(json: &str) -> TopLevel {
    let bytes = json.as_bytes();
    let (mut depth, mut items, mut keys, mut key_count) = (0usize, 0usize, Vec::new(), 0usize);
    let mut saw_value = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 1 {
                    saw_value = true;
                    let rest = json.get(i + 1..).unwrap_or("").trim_start();
                    if rest.starts_with(':') && keys.len() == MAX_KEYS {
                        key_count += 1;
                    } else if rest.starts_with(':') {
                        key_count += 1;
                        let raw = json.get(start..=i.min(bytes.len() - 1)).unwrap_or("\"\"");
                        keys.push(parse_string(raw).map_or_else(|_| raw.to_owned(), |k| k.into_owned()));
                    }
                }
            }
            b'[' | b'{' => {
                if depth == 1 {
                    saw_value = true;
                }
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => items += 1,
            b' ' | b'\n' | b'\r' | b'\t' | b':' => {}
            _ if depth == 1 => saw_value = true,
            _ => {}
        }
        i += 1;
    }
    TopLevel {
        items: if saw_value { items + 1 } else { 0 },
        keys,
        key_count,
    }
}
