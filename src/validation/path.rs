//! How the envelope names a field: `items[0].name`, with keys that would be
//! ambiguous (containing `.`, `[`, `]`, quotes, spaces or nothing at all)
//! written as `["a.b"]`, and the arguments object itself as `(arguments)`.

use super::model::PathSegment;
use crate::render::push_json_string;

/// The name of the whole arguments object, for issues at the root. It cannot
/// collide with a field: a key `(arguments)` is written `["(arguments)"]`.
pub const ROOT_NAME: &str = "(arguments)";

/// ```
/// use mcp_envelope::validation::{field_name, PathSegment::{Index, Key}};
/// assert_eq!(field_name(&[Key("items".into()), Index(0), Key("sku".into())]), "items[0].sku");
/// assert_eq!(field_name(&[Key("meta".into()), Key("a.b".into())]), "meta[\"a.b\"]");
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
                out.push('[');
                push_json_string(&mut out, key);
                out.push(']');
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
