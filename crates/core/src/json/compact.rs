//! Compact JSON written from a raw value in one pass, with no recursion, and
//! the depth limit a value shown in an envelope is held to: each array or
//! object nested deeper than the limit is replaced by the cut marker as a
//! string, `"… [N characters cut]"`, N the characters of its compact text.
//!
//! Ours: serde_json writes compact JSON only from a parsed `Value`, and its
//! parser refuses a value nested deeper than 128 levels (it recurses, and
//! the component's stack is small). A value sent to an envelope is content
//! (a parsed upstream body, arguments a model made up), so it is shown at
//! any depth, never refused: this scanner needs no stack of its own, and
//! the cut keeps what is shallow in view (the siblings after a deep branch
//! stay) while the result stays valid JSON.

use super::{parse_string, push_json_string};
use crate::cut::{Cut, Marker};

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Open,
    Close,
    Str,
    /// Numbers, literals, commas and colons, as written.
    Other,
}

/// One token of a JSON text already read (so well-formed), whitespace skipped.
pub(super) struct Token<'a> {
    pub(super) kind: Kind,
    pub(super) text: &'a str,
}

pub(super) struct Tokens<'a> {
    pub(super) raw: &'a str,
    pub(super) at: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.raw.as_bytes();
        while bytes.get(self.at).is_some_and(|&b| is_space(b)) {
            self.at += 1;
        }
        let start = self.at;
        let kind = match *bytes.get(start)? {
            b'[' | b'{' => Kind::Open,
            b']' | b'}' => Kind::Close,
            b'"' => Kind::Str,
            _ => Kind::Other,
        };
        self.at = match kind {
            Kind::Open | Kind::Close => start + 1,
            // The closing quote: the first `"` not escaped by a backslash.
            Kind::Str => {
                let mut end = start + 1;
                loop {
                    end = next_quote_or_backslash(bytes, end);
                    match bytes.get(end) {
                        Some(b'\\') => end += 2,
                        _ => break,
                    }
                }
                (end + 1).min(bytes.len())
            }
            Kind::Other => {
                let run = bytes[start..]
                    .iter()
                    .position(|&b| is_space(b) || matches!(b, b'"' | b'[' | b'{' | b']' | b'}'));
                run.map_or(bytes.len(), |len| start + len)
            }
        };
        Some(Token {
            kind,
            text: &self.raw[start..self.at],
        })
    }
}

fn next_quote_or_backslash(bytes: &[u8], from: usize) -> usize {
    bytes[from.min(bytes.len())..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\')
        .map_or(bytes.len(), |at| from + at)
}

/// Appends a token as compact JSON writes it: a string escaped as serde_json
/// escapes it, anything else as written.
fn push_token(out: &mut String, token: &Token<'_>) {
    match token.kind {
        Kind::Str => match parse_string(token.text) {
            Ok(text) => push_json_string(out, &text),
            Err(_) => out.push_str(token.text),
        },
        _ => out.push_str(token.text),
    }
}

/// A raw JSON value (already read, so well-formed) as compact JSON: no
/// whitespace between tokens, each string escaped as serde_json escapes it,
/// numbers and keys exactly as written, at any depth.
pub fn compact(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for token in (Tokens { raw, at: 0 }) {
        push_token(&mut out, &token);
    }
    out
}

/// [`compact`], each array or object nested deeper than `depth` levels (the
/// value itself, when one, is level 1) replaced by `"… [N characters cut]"`
/// in `marker`'s language, N the characters of its compact text.
///
/// ```text
/// [[[1],2],3] within 2 levels: [["… [3 characters cut]",2],3]
/// ```
pub fn compact_within(raw: &str, depth: usize, marker: Marker) -> String {
    let mut out = String::with_capacity(raw.len().min(1 << 16));
    let mut tokens = Tokens { raw, at: 0 };
    let mut level = 0usize;
    let mut scratch = String::new();
    while let Some(token) = tokens.next() {
        match token.kind {
            Kind::Open if level == depth => {
                let (mut open, mut chars) = (1usize, 1usize);
                while open > 0 {
                    let Some(inner) = tokens.next() else { break };
                    match inner.kind {
                        Kind::Open => open += 1,
                        Kind::Close => open -= 1,
                        _ => {}
                    }
                    scratch.clear();
                    push_token(&mut scratch, &inner);
                    chars += scratch.chars().count();
                }
                let cut = Cut {
                    kept: "",
                    cut: chars,
                    marker,
                };
                push_json_string(&mut out, &cut.text());
            }
            Kind::Open => {
                level += 1;
                out.push_str(token.text);
            }
            Kind::Close => {
                level = level.saturating_sub(1);
                out.push_str(token.text);
            }
            _ => push_token(&mut out, &token),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locale::Locale;

    fn within(raw: &str, depth: usize) -> String {
        compact_within(raw, depth, Marker::ENGLISH)
    }

    #[test]
    fn compact_drops_whitespace_and_writes_strings_as_serde_json_does() {
        assert_eq!(
            compact("{ \"a\" : [1, 2.50,\n\"\\u00e9\\/\"] }"),
            r#"{"a":[1,2.50,"é/"]}"#
        );
        assert_eq!(compact(r#""say \"hi\"""#), r#""say \"hi\"""#);
    }

    #[test]
    fn a_value_within_the_depth_is_its_compact_text() {
        assert_eq!(within(r#"{"a": [1, {"b": null}]}"#, 3), r#"{"a":[1,{"b":null}]}"#);
        assert_eq!(within("7", 0), "7");
    }

    #[test]
    fn deeper_containers_become_the_marker_counting_their_compact_characters() {
        assert_eq!(within("[[[1],2],3]", 2), r#"[["… [3 characters cut]",2],3]"#);
        // Each container past the depth on its own; what follows a deep branch stays.
        assert_eq!(
            within(r#"{"x": {"deep": [[1]], "é": "\u00e9"}, "status": 503}"#, 1),
            r#"{"x":"… [22 characters cut]","status":503}"#
        );
        assert_eq!(
            within(r#"[{}, [ ], "a"]"#, 1),
            r#"["… [2 characters cut]","… [2 characters cut]","a"]"#
        );
        assert_eq!(within("[1]", 0), r#""… [3 characters cut]""#);
    }

    #[test]
    fn any_depth_is_read_without_recursion() {
        let n = 100_000;
        let raw = format!("{}{}", "[".repeat(n), "]".repeat(n));
        let shown = within(&raw, 64);
        let cut = 2 * (n - 64);
        assert_eq!(
            shown,
            format!("{}\"… [{cut} characters cut]\"{}", "[".repeat(64), "]".repeat(64))
        );
        assert_eq!(compact(&raw), raw);
    }

    #[test]
    fn the_marker_speaks_the_envelope_s_language() {
        assert_eq!(
            compact_within("[[1]]", 1, Marker::of(Locale::PtBr, true)),
            r#"["… [3 caracteres cortados]"]"#
        );
    }
}
