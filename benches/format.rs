//! Speed of the native core: the validation formatter at 10,000 issues and
//! the `<tool_error>` renderer, timed side by side in one run. Figures are
//! for comparison within a run, not absolute (the machines are noisy).
//!
//! `cargo bench --bench format`

use mcp_envelope::validation::{self, IssueCode, PathSegment, ValidationIssue, ValidationOptions};
use mcp_envelope::{render_xml, spec, ToolError};
#[path = "common/timing.rs"]
mod timing;

use std::time::Duration;
use timing::time;

fn issues(n: usize) -> Vec<ValidationIssue> {
    (0..n)
        .map(|i| match i % 4 {
            0 => ValidationIssue::new(IssueCode::InvalidFormat)
                .at([
                    PathSegment::Key("items".into()),
                    PathSegment::Index(i as u64),
                    PathSegment::Key("email".into()),
                ])
                .format("email")
                .input_json(format!("\"user{i}-at-example.com\"")),
            1 => ValidationIssue::new(IssueCode::InvalidType)
                .at([PathSegment::Key(format!("f{i}"))])
                .expected("string")
                .input_json("42"),
            2 => ValidationIssue::new(IssueCode::MissingRequired)
                .at([PathSegment::Key(format!("f{i}"))])
                .expected("integer"),
            _ => ValidationIssue::new(IssueCode::InvalidValue)
                .at([PathSegment::Key("color".into())])
                .input_json("\"purple\"")
                .message("ignored"),
        })
        .collect()
}

fn main() {
    let budget = Duration::from_millis(600);
    let all = issues(10_000);
    let every_field = ValidationOptions {
        max_fields: usize::MAX,
        ..ValidationOptions::default()
    };

    let listed = time(budget, || {
        validation::render_validation("billing.import", &all, &[], every_field)
    });
    let capped = time(budget, || {
        validation::render_validation("billing.import", &all, &[], ValidationOptions::default())
    });
    let spec_json = {
        let items: Vec<String> = (0..10_000)
            .map(|i| {
                format!(
                    r#"{{"path":["items",{i},"email"],"code":"invalid_format","format":"email","input":"user{i}"}}"#
                )
            })
            .collect();
        format!(
            r#"{{"action":"billing.import","maxFields":100000,"issues":[{}]}}"#,
            items.join(",")
        )
    };
    let from_json = time(budget, || mcp_envelope::raw::render_validation(&spec_json).unwrap());

    let seed = spec::from_json(r#"{"code":"NOT_FOUND","message":"No invoice with that ID","suggestion":"List invoices first, then retry with a real ID","availableActions":["billing.list_invoices"],"details":{"requestedId":"inv_2026_9999"},"retryAfter":30}"#).unwrap();
    let xml = time(budget, || render_xml(&seed));
    let built = time(budget, || {
        render_xml(
            &ToolError::new("NOT_FOUND", "No invoice with that ID")
                .suggest("List invoices first, then retry with a real ID")
                .actions(["billing.list_invoices"])
                .detail("requestedId", "inv_2026_9999")
                .retry_after(30),
        )
    });

    let per_hundred = |d: Duration| d.as_secs_f64() * 1e6 / 100.0;
    println!("validation formatter, 10,000 issues (median of 15 rounds):");
    println!(
        "  all 10,000 fields listed          {:>9.1} µs   {:>6.2} µs per 100 issues",
        listed.as_secs_f64() * 1e6,
        per_hundred(listed)
    );
    println!(
        "  default cap (20 listed)           {:>9.1} µs",
        capped.as_secs_f64() * 1e6
    );
    println!(
        "  from the spec JSON, all listed    {:>9.1} µs   {:>6.2} µs per 100 issues",
        from_json.as_secs_f64() * 1e6,
        per_hundred(from_json)
    );
    println!("tool_error, the seed's NOT_FOUND envelope:");
    println!(
        "  render_xml                        {:>9.3} µs",
        xml.as_secs_f64() * 1e6
    );
    println!(
        "  build with the builder + render   {:>9.3} µs   ({:.2}x render alone)",
        built.as_secs_f64() * 1e6,
        built.as_secs_f64() / xml.as_secs_f64()
    );
}
