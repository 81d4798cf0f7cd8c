//! `contract diff --format text`: the deltas for people reading a CI log,
//! one line each, most severe first, then a count.

use mcp_envelope::delta::{ContractDelta, DeltaSeverity};

/// `BREAKING  refund_order  amount: amount must now be at most 5000 (was at most 10000)`
/// lines, BREAKING first, and a last line counting each severity.
pub fn deltas_text(deltas: &[ContractDelta]) -> String {
    let order = [
        DeltaSeverity::Breaking,
        DeltaSeverity::Risky,
        DeltaSeverity::Safe,
        DeltaSeverity::Cosmetic,
    ];
    let mut lines = Vec::new();
    for severity in order {
        for d in deltas.iter().filter(|d| d.severity == severity) {
            let mut line = format!(
                "{:<9} {}  {}: {}",
                severity.as_str(),
                d.action.as_deref().unwrap_or("-"),
                d.field,
                d.description
            );
            // The description states the new form; the old one is what it does not say.
            if let Some(before) = &d.before {
                line.push_str(&format!(" (was {before})"));
            }
            lines.push(line);
        }
    }
    let count = |s: DeltaSeverity| deltas.iter().filter(|d| d.severity == s).count();
    let counts: Vec<String> = order.iter().map(|s| format!("{} {}", count(*s), s.as_str())).collect();
    let noun = if deltas.len() == 1 { "change" } else { "changes" };
    lines.push(format!("{} {noun}: {}", deltas.len(), counts.join(", ")));
    lines.join("\n")
}
