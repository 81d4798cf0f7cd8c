//! The audit's report: a table a person reads in a terminal, or JSON for
//! machines (its shape in docs/audit.md), and the score.

use serde_json::{json, Value};

use super::{Call, Grade};

/// One call and its grade.
pub struct Row {
    pub call: Call,
    pub grade: Grade,
}

/// Everything an audit found.
pub struct Report {
    pub command: Vec<String>,
    /// The server's name and version, as it gave them at initialize.
    pub server: (String, String),
    pub tools: usize,
    pub rows: Vec<Row>,
}

impl Report {
    /// Points won and the most there were: four a call.
    pub fn points(&self) -> (u32, u32) {
        let won = self.rows.iter().map(|r| u32::from(r.grade.points)).sum();
        (won, 4 * self.rows.len() as u32)
    }

    /// The score in percent, rounded down; 100 for no calls.
    pub fn percent(&self) -> u32 {
        match self.points() {
            (_, 0) => 100,
            (won, max) => won * 100 / max,
        }
    }

    /// The report as JSON.
    pub fn to_json(&self) -> Value {
        let (won, max) = self.points();
        let calls: Vec<Value> = self
            .rows
            .iter()
            .map(|Row { call, grade }| {
                let mut expected = json!({ "branch": call.expect.branch.as_str() });
                if let Some(code) = &call.expect.code {
                    expected["code"] = json!(code);
                }
                json!({
                    "name": call.name,
                    "tool": call.tool,
                    "arguments": call.arguments,
                    "channel": grade.channel,
                    "isError": grade.is_error,
                    "envelope": grade.envelope,
                    "code": grade.code,
                    "stated": grade.stated,
                    "leaks": grade.leaks,
                    "bytes": grade.text.len(),
                    "branch": grade.branch.as_str(),
                    "expected": expected,
                    "right": grade.right,
                    "points": grade.points,
                    "text": grade.text,
                })
            })
            .collect();
        json!({
            "command": self.command,
            "server": { "name": self.server.0, "version": self.server.1 },
            "tools": self.tools,
            "calls": calls,
            "score": { "points": won, "max": max, "percent": self.percent() },
        })
    }

    /// The report as a table, one row a call, then the score.
    pub fn to_table(&self) -> String {
        let head = [
            "call", "channel", "isError", "envelope", "code", "stated", "leaks", "bytes", "branch", "expected", "ok",
        ];
        let mut lines: Vec<Vec<String>> = vec![head.iter().map(|h| (*h).to_owned()).collect()];
        for Row { call, grade } in &self.rows {
            let dash = || "-".to_owned();
            lines.push(vec![
                shorten(&call.name, 44),
                grade.channel.to_owned(),
                grade.is_error.map_or_else(dash, |e| e.to_string()),
                grade.envelope.map_or_else(dash, str::to_owned),
                grade.code.clone().unwrap_or_else(dash),
                format!("{}/4", grade.stated),
                if grade.leaks.is_empty() {
                    dash()
                } else {
                    grade.leaks.join(", ")
                },
                grade.text.len().to_string(),
                grade.branch.as_str().to_owned(),
                call.expect.branch.as_str().to_owned(),
                if grade.right { "yes" } else { "NO" }.to_owned(),
            ]);
        }
        let widths: Vec<usize> = (0..head.len())
            .map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0))
            .collect();
        let (won, max) = self.points();
        let (name, version) = &self.server;
        let mut out = format!("{name} {version} ({}), {} tools\n", self.command.join(" "), self.tools);
        for line in &lines {
            let cells: Vec<String> = line.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out.push_str(&format!("score: {won}/{max} points, {}%", self.percent()));
        out
    }
}

fn shorten(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_owned();
    }
    let kept: String = text.chars().take(most - 1).collect();
    format!("{kept}…")
}
