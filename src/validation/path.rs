//! How the envelope names a field: `items[0].name`, with keys that would be
//! ambiguous (containing `.`, `[`, `]`, quotes, spaces or nothing at all)
//! written as `['a.b']` (a quote or backslash in the key gets a backslash),
//! and the arguments object itself as `(arguments)`.

/// One step of a path into the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    Key(String),
    Index(u64),
}

/// The name of the whole arguments object, for issues at the root. It cannot
/// collide with a field: a key `(arguments)` is written `['(arguments)']`.
pub const ROOT_NAME: &str = "(arguments)";

/// ```
/// use mcp_envelope::validation::{field_name, PathSegment::{Index, Key}};
/// assert_eq!(field_name(&[Key("items".into()), Index(0), Key("sku".into())]), "items[0].sku");
/// assert_eq!(field_name(&[Key("meta".into()), Key("a.b".into())]), "meta['a.b']");
/// assert_eq!(field_name(&[]), "(arguments)");
/// ```
pub fn field_name(path: &[PathSegment]) -> String {
    if path.is_empty() {
        return ROOT_NAME.to_owned();
    }
    let mut out = String::new();
    for segment in path {
        match segment {
            PathSegment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            PathSegment::Key(key) if is_plain_key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            PathSegment::Key(key) => {
                // Single quotes keep the attribute free of &quot; noise.
                out.push_str("['");
                for c in key.chars() {
                    match c {
                        '\'' | '\\' => {
                            out.push('\\');
                            out.push(c);
                        }
                        c => out.push(c),
                    }
                }
                out.push_str("']");
            }
        }
    }
    out
}

/// A key that reads unambiguously without quotes.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('(')
        && key
            .chars()
            .all(|c| !matches!(c, '.' | '[' | ']' | '"' | '\'' | '\\') && !c.is_whitespace() && !c.is_control())
}
