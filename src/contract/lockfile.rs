//! The lockfile: a `tools/list` result in one canonical form, so that the
//! same contract always gives the same bytes whichever SDK listed it, and a
//! review in git shows only what changed. Canonical means: tools sorted by
//! name, every object's keys sorted, every number in the core's one
//! spelling (`1.0` and `1` are one bound), and the text pretty-printed two
//! spaces deep. The `sha256` is of the compact canonical `tools` array, so
//! it names the contract, not its layout.

use sha2::{Digest, Sha256};

use super::Tool;
use crate::error::SpecError;
use crate::json::{fail, Map, Number, Value};
use crate::validation::canonical_number;

/// The lockfile format this version writes and reads.
pub const LOCKFILE_VERSION: u64 = 1;

/// A value with every object's keys sorted and every number canonical.
pub(super) fn canonical(value: Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut members: Vec<(String, Value)> = object.into_iter().map(|(k, v)| (k, canonical(v))).collect();
            sort_by_text(&mut members, |(key, _)| key);
            Value::Object(members.into_iter().collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(canonical).collect()),
        Value::Number(number) => {
            let spelled = canonical_number(number.as_str()).into_owned();
            Value::Number(Number::from_json_text(spelled))
        }
        other => other,
    }
}

/// Sorts by a text, keeping equal ones in order. By hand, an insertion
/// sort: an object's keys and a server's tools are short lists, and each of
/// std's sort routines would add kilobytes to the component.
pub(super) fn sort_by_text<T>(items: &mut [T], text: impl Fn(&T) -> &str) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && text(&items[j - 1]) > text(&items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

fn tools_array(tools: &[Tool]) -> Value {
    Value::Array(tools.iter().map(|t| Value::Object(t.members.clone())).collect())
}

/// The lowercase hex SHA-256 of the compact canonical `tools` array.
pub fn tools_sha256(tools: &[Tool]) -> String {
    let compact = serde_json::to_string(&tools_array(tools)).unwrap_or_default();
    Sha256::digest(compact.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The lockfile's text: `{"lockfileVersion", "sha256", "tools"}`, pretty-printed.
pub fn lockfile_text(tools: &[Tool]) -> String {
    let mut lock = Map::new();
    lock.insert("lockfileVersion".into(), Value::from(LOCKFILE_VERSION));
    lock.insert("sha256".into(), Value::from(tools_sha256(tools)));
    lock.insert("tools".into(), tools_array(tools));
    serde_json::to_string_pretty(&Value::Object(lock)).unwrap_or_default()
}

/// For an object that is a lockfile (it has `lockfileVersion`): its stated
/// hash, after checking the version; `None` for any other object.
pub(super) fn check_header(object: &mut Map, what: &str) -> Result<Option<String>, SpecError> {
    let Some(version) = object.remove("lockfileVersion") else {
        return Ok(None);
    };
    if version.as_u64() != Some(LOCKFILE_VERSION) {
        return fail(format!(
            "{what}: lockfileVersion {version} is not one this version reads ({LOCKFILE_VERSION})"
        ));
    }
    match object.remove("sha256") {
        Some(Value::String(hash)) => Ok(Some(hash)),
        _ => fail(format!("{what}: a lockfile needs its \"sha256\" string")),
    }
}
