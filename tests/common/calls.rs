//! The native core's function for each `call` vector: the kebab-case export
//! name, the input as JSON text, the exact text out or the exact refusal.
//! One row per JSON-in export of the WIT `api`.

pub fn native(name: &str, input: &str) -> Result<String, String> {
    match name {
        "limits" => mcp_envelope::limits::limits_json(input).map_err(|e| e.0),
        _ => panic!("no native function for the call {name:?}: add a row to tests/common/calls.rs"),
    }
}
