//! Per-call cost of the component in wasmtime against the native core, side
//! by side in one run: the component's JSON string functions and the native
//! functions they wrap.
//!
//! `cargo bench -p host-tests --bench calls [-- other.wasm ...]` also times
//! other builds of the component (for example one without wasm-opt).

use host_tests::{wit, Instance};
use mcp_envelope::{render_xml, spec, validation};
#[path = "../../benches/common/timing.rs"]
mod timing;

use std::time::Duration;
use timing::time;

const SPEC: &str = r#"{"code":"NOT_FOUND","message":"No invoice with that ID","suggestion":"List invoices first, then retry with a real ID","availableActions":["billing.list_invoices"],"details":{"requestedId":"inv_2026_9999"},"retryAfter":30}"#;
const VALIDATION: &str = r#"{"action":"billing.get_invoice","issues":[{"path":["id"],"code":"invalid_format","format":"email","input":"not-an-email"},{"path":["amount"],"code":"too_small","origin":"number","minimum":1,"input":0}]}"#;

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let budget = Duration::from_millis(500);
    let native_spec = time(budget, || render_xml(&spec::from_json(SPEC).unwrap()));
    let native_validation = time(budget, || validation::render_validation_spec_json(VALIDATION).unwrap());
    println!(
        "native core:                        render from spec {:>7.2} µs   validation {:>7.2} µs",
        micros(native_spec),
        micros(native_validation)
    );

    let mut paths: Vec<String> = std::env::args().skip(1).filter(|a| a.ends_with(".wasm")).collect();
    paths.insert(0, host_tests::component_path().display().to_string());
    for path in paths {
        let (engine, component) = host_tests::load(&path);
        let mut i = Instance::with(&engine, &component);
        let spec_call = time(budget, || {
            i.api.call_render(&mut i.store, SPEC, wit::Format::Xml).unwrap()
        });
        let validation_call = time(budget, || {
            i.api.call_render_validation(&mut i.store, VALIDATION).unwrap()
        });
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        println!("{path} ({size} bytes):");
        println!(
            "  render {:>7.2} µs ({:.1}x native)   render-validation {:>7.2} µs ({:.1}x native)",
            micros(spec_call),
            spec_call.as_secs_f64() / native_spec.as_secs_f64(),
            micros(validation_call),
            validation_call.as_secs_f64() / native_validation.as_secs_f64()
        );
    }
}
