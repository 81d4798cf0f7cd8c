//! Prints `mcp_envelope::wire_schema()`, the JSON Schema document of every
//! wire shape under `$defs`: bindings/js/scripts/build.mjs and
//! bindings/python/hatch_build.py generate the packages' types from it.

fn main() {
    let schema = mcp_envelope::wire_schema();
    println!(
        "{}",
        serde_json::to_string_pretty(&schema).expect("a JSON value always prints")
    );
}
