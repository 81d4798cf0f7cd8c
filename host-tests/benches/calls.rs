//! Per-call cost and cold start of the two components in wasmtime, and of
//! the native core, side by side in one run on `benches/inputs.json` (the
//! inputs every host's benchmark times): the native core against a
//! hand-written Rust reference of the same bytes, each component against the
//! native core.
//!
//! `cargo bench -p host-tests --bench calls [-- --json OUT] [-- other.wasm ...]`
//! prints a table; with `--json OUT` it also writes the rows `scripts/bench`
//! collects into BENCHMARKS.md. Other `.wasm` files are timed too (for
//! comparing builds). Rows name each file by its path in the repository.

use host_tests::{wit, Instance, Which};
use mcp_envelope::{read_envelope, render_xml, spec};
use serde_json::{json, Value};
use std::path::Path;
#[path = "../../benches/common/reference.rs"]
mod reference;
#[path = "../../benches/common/timing.rs"]
mod timing;

use std::time::{Duration, Instant};
use timing::time;

fn micros(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6 * 100.0).round() / 100.0
}

fn per_call(case: &str, value: Duration, reference: Duration, reference_name: &str) -> Value {
    json!({"table": "per-call", "case": case, "value": micros(value), "unit": "µs",
           "reference": micros(reference), "referenceName": reference_name})
}

/// `path` as the repository names it (`build/full.wasm`), never the
/// machine's own folders.
fn in_repository(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (Ok(root), Ok(file)) = (root.canonicalize(), Path::new(path).canonicalize()) else {
        return path.to_owned();
    };
    match file.strip_prefix(&root) {
        Ok(inside) => inside.display().to_string(),
        Err(_) => Path::new(path)
            .file_name()
            .map_or(path.to_owned(), |name| name.to_string_lossy().into_owned()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let json_out = args
        .iter()
        .position(|a| a == "--json")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let inputs: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../benches/inputs.json")).unwrap(),
    )
    .unwrap();
    let render_spec = inputs["render"].to_string();
    let validation_spec = inputs["validation"].to_string();
    let read_text = inputs["readBack"].as_str().unwrap().to_owned();

    // The references must produce exactly what the core produces.
    let seed = spec::from_json(&render_spec).unwrap();
    let envelope = render_xml(&seed);
    assert_eq!(
        reference::render_seed(),
        envelope,
        "the reference renderer differs from the core"
    );
    let fields = mcp_envelope::raw::render_validation(&validation_spec).unwrap();
    assert_eq!(
        reference::render_validation_20(),
        fields,
        "the reference validation formatter differs"
    );
    let reading = read_envelope(&read_text).unwrap().to_json();
    assert_eq!(
        reference::read_seed(&read_text),
        reading,
        "the reference reader differs"
    );

    let budget = Duration::from_millis(500);
    let native_render = time(budget, || render_xml(&spec::from_json(&render_spec).unwrap()));
    let native_validation = time(budget, || {
        mcp_envelope::raw::render_validation(&validation_spec).unwrap()
    });
    let native_read = time(budget, || read_envelope(&read_text).unwrap().to_json());
    let reference_render = time(budget, reference::render_seed);
    let reference_validation = time(budget, reference::render_validation_20);
    let reference_read = time(budget, || reference::read_seed(&read_text));
    let mut rows = vec![
        per_call(
            "render (native Rust core)",
            native_render,
            reference_render,
            "hand-written Rust",
        ),
        per_call(
            "validation (native Rust core)",
            native_validation,
            reference_validation,
            "hand-written Rust",
        ),
        per_call(
            "readBack (native Rust core)",
            native_read,
            reference_read,
            "hand-written Rust",
        ),
    ];

    let mut paths: Vec<String> = Which::BOTH
        .iter()
        .map(|&which| host_tests::component_path(which).display().to_string())
        .collect();
    paths.extend(args.iter().skip(1).filter(|a| a.ends_with(".wasm")).cloned());
    for path in &paths {
        let label = format!("wasmtime, {}", in_repository(path));
        let compile_start = Instant::now();
        let (engine, component) = host_tests::load(path);
        let compiled = compile_start.elapsed();
        let instantiate_start = Instant::now();
        let mut i = Instance::with(&engine, &component);
        let instantiated = instantiate_start.elapsed();
        let got = i
            .envelope
            .call_render(&mut i.store, &render_spec, wit::Format::Xml)
            .unwrap()
            .unwrap();
        assert_eq!(got, envelope, "{path} renders other bytes than the core");
        let render = time(budget, || {
            i.envelope
                .call_render(&mut i.store, &render_spec, wit::Format::Xml)
                .unwrap()
        });
        let validation = time(budget, || {
            i.envelope
                .call_render_validation(&mut i.store, &validation_spec)
                .unwrap()
        });
        let read = time(budget, || {
            i.envelope.call_read_envelope(&mut i.store, &read_text).unwrap()
        });
        rows.push(per_call(
            &format!("render ({label})"),
            render,
            native_render,
            "native Rust core",
        ));
        rows.push(per_call(
            &format!("validation ({label})"),
            validation,
            native_validation,
            "native Rust core",
        ));
        rows.push(per_call(
            &format!("readBack ({label})"),
            read,
            native_read,
            "native Rust core",
        ));
        let ms = |d: Duration| (d.as_secs_f64() * 1e5).round() / 100.0;
        rows.push(
            json!({"table": "cold-start", "case": format!("compile ({label})"), "value": ms(compiled), "unit": "ms"}),
        );
        rows.push(json!({"table": "cold-start", "case": format!("instantiate ({label})"), "value": ms(instantiated), "unit": "ms"}));
    }

    for row in &rows {
        let ratio = match (row["value"].as_f64(), row["reference"].as_f64()) {
            (Some(v), Some(r)) if r > 0.0 => format!("{:>6.1}x {}", v / r, row["referenceName"].as_str().unwrap_or("")),
            _ => String::new(),
        };
        println!(
            "{:<44} {:>9.2} {:<2}  {}",
            row["case"].as_str().unwrap(),
            row["value"].as_f64().unwrap(),
            row["unit"].as_str().unwrap(),
            ratio
        );
    }
    if let Some(out) = json_out {
        let doc = json!({"host": "rust", "rows": rows});
        std::fs::write(&out, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
        println!("wrote {out}");
    }
}
