//! Finds what a model sent at a path in the call's arguments, so a wrapper
//! hands over the arguments once instead of looking each value up itself.
//!
//! The arguments stay raw JSON text: each step parses one level only, so any
//! depth of nesting is looked through without recursion, and the value found
//! is the exact text that was sent.

use super::model::{IssueCode, ValidationIssue};
use super::path::PathSegment;
use crate::json::{items_of, parse_object, A_SEQUENCE};
use serde_json::value::RawValue;

/// The JSON text at `path` in `arguments`, or `None` when nothing is there.
pub(crate) fn value_at(arguments: &str, path: &[PathSegment]) -> Option<String> {
    let mut here = arguments;
    for segment in path {
        here = step(here, segment)?;
    }
    Some(here.to_owned())
}

/// One step into an object (by key; an index is its decimal key) or an array
/// (by index; a key that is a plain decimal number is an index).
fn step<'a>(here: &'a str, segment: &PathSegment) -> Option<&'a str> {
    match here.trim_start().as_bytes().first()? {
        b'{' => {
            let entries = parse_object(here).ok()?;
            let key = match segment {
                PathSegment::Key(key) => key.clone(),
                PathSegment::Index(i) => i.to_string(),
            };
            // A repeated key: the last one is what JSON parsers keep.
            entries.into_iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v)
        }
        b'[' => {
            let items: Vec<&RawValue> = items_of(here, A_SEQUENCE).ok()?;
            let index = match segment {
                PathSegment::Index(i) => usize::try_from(*i).ok()?,
                PathSegment::Key(key) => decimal_index(key)?,
            };
            items.into_iter().nth(index).map(RawValue::get)
        }
        _ => None,
    }
}

/// `0`, `12`; not `01`, `-1` or `+1`.
pub(crate) fn decimal_index(text: &str) -> Option<usize> {
    let plain = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    if plain {
        text.parse().ok()
    } else {
        None
    }
}

/// Whether the value at `path` in `arguments` is an array (for JSON pointers,
/// whose segments do not say whether `0` is an index or a key).
pub(crate) fn is_array_at(arguments: &str, path: &[PathSegment]) -> bool {
    value_at(arguments, path).is_some_and(|text| text.trim_start().starts_with('['))
}

/// Gives each issue that lacks the sent value the one at its path. A missing
/// field and unknown keys are about the object around them, so they get none.
pub(crate) fn fill_sent_values(issues: &mut [ValidationIssue], arguments: &str) {
    for issue in issues {
        if issue.input.is_none() && !matches!(issue.code, IssueCode::MissingRequired | IssueCode::UnrecognizedKeys) {
            issue.input = value_at(arguments, &issue.path);
        }
    }
}
