//! The lockfile: a `tools/list` result in one canonical form, so that the
//! same contract always gives the same bytes whichever SDK listed it, and a
//! review in git shows only what changed. Canonical means: tools sorted by
//! name, each in the core's one canonical JSON (`Value::into_canonical`:
//! every object's keys sorted, every number in one spelling, so `1.0` and
//! `1` are one bound), and the text pretty-printed two spaces deep. The `sha256` is of the compact canonical `tools` array, so
//! it names the contract, not its layout.

use sha2::{Digest, Sha256};

use super::Tool;
use crate::error::SpecError;
use crate::json::{fail, Map, Value};

/// The lockfile format this version writes and reads.
pub const LOCKFILE_VERSION: u64 = 1;

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
