//! The native core's function for each `call` vector: the kebab-case export
//! name, the input as JSON text, the exact text out or the exact refusal.
//! The library finds the export by its WIT name (`raw::call`).

pub fn native(name: &str, input: &str) -> Result<String, String> {
    // Takes nothing: the vector's input is null.
    if name == "idempotency-key-argument" {
        return Ok(mcp_envelope::raw::idempotency_key_argument());
    }
    match mcp_envelope::raw::call(name, input) {
        Some(answer) => answer.map_err(String::from),
        None => panic!("no export of the WIT package takes one request under the name {name:?}"),
    }
}
