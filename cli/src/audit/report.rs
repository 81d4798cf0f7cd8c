//! The audit's report: a table a person reads in a terminal, or JSON for
//! machines (its shape in docs/audit.md), and the score.

use serde_json::{json, Value};

use super::built_on::BuiltOn;
use super::grade::Conformance;
use super::{Call, Grade, Revision};

/// One call and its grade.
pub struct Row {
    pub call: Call,
    pub grade: Grade,
    /// Which URL's client made the call (from 0); always 0 for one server.
    pub replica: usize,
}

/// Where the audited server was: its command, or its URLs, one or one per
/// replica (the headers sent to them are never in the report).
pub enum ServerAt {
    Command(Vec<String>),
    Urls(Vec<String>),
}

impl ServerAt {
    /// Whether the calls went round-robin over several replicas, so that
    /// each row says which one answered.
    fn replicated(&self) -> bool {
        matches!(self, ServerAt::Urls(urls) if urls.len() > 1)
    }
}

/// Everything an audit found.
pub struct Report {
    pub server_at: ServerAt,
    /// The revision the answers were graded by.
    pub spec: Revision,
    /// The protocol version the handshake settled on.
    pub protocol: String,
    /// The server's name and version, as it gave them at initialize.
    pub server: (String, String),
    /// The MCP API the server's source is built on, when it can be told.
    pub built_on: Option<BuiltOn>,
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
            .map(|Row { call, grade, replica }| {
                let mut expected = json!({ "branch": call.expect.branch.as_str() });
                if let Some(code) = &call.expect.code {
                    expected["code"] = json!(code);
                }
                let mut row = json!({
                    "name": call.name,
                    "tool": call.tool,
                    "arguments": call.arguments,
                    "channel": grade.channel,
                    "isError": grade.is_error,
                    "error": grade.error,
                    "envelope": grade.envelope,
                    "code": grade.code,
                    "stated": grade.stated,
                    "leaks": grade.leaks,
                    "bytes": grade.text.len(),
                    "branch": grade.branch.as_str(),
                    "expected": expected,
                    "right": grade.right,
                    "spec": {
                        "follows": grade.spec == Conformance::Follows,
                        "option": match &grade.spec { Conformance::Option(option) => json!(option), _ => Value::Null },
                        "why": self.why(grade),
                    },
                    "points": grade.points,
                    "text": grade.text,
                });
                if self.server_at.replicated() {
                    row["replica"] = json!(replica);
                }
                row
            })
            .collect();
        let mut report = match &self.server_at {
            ServerAt::Command(command) => json!({ "command": command }),
            ServerAt::Urls(urls) if urls.len() == 1 => json!({ "url": urls[0] }),
            ServerAt::Urls(urls) => json!({ "urls": urls }),
        };
        report["spec"] = json!(self.spec.as_str());
        report["server"] = json!({ "name": self.server.0, "version": self.server.1, "protocolVersion": self.protocol });
        report["builtOn"] = self.built_on.as_ref().map_or(Value::Null, |b| {
            json!({ "api": b.api.name(), "file": b.file, "guess": b.guess, "oneLine": b.api.one_line(), "module": b.api.module() })
        });
        report["tools"] = json!(self.tools);
        report["calls"] = Value::Array(calls);
        report["score"] = json!({ "points": won, "max": max, "percent": self.percent() });
        report
    }

    /// Why an answer is not the one the revision asks for; `None` when it is.
    fn why(&self, grade: &Grade) -> Option<String> {
        match &grade.spec {
            Conformance::Follows => None,
            Conformance::Option(option) => Some(format!(
                "an isError UNKNOWN_ACTION result: {option}'s answer (the tool-result option), not {}'s JSON-RPC error -32602",
                self.spec.as_str()
            )),
            Conformance::Departs(why) => Some(why.clone()),
        }
    }

    /// What the server is built on and the line that wraps it, or `unknown`.
    fn built_on_line(&self) -> String {
        match &self.built_on {
            None => "built on: unknown".to_owned(),
            Some(BuiltOn { api, file, guess }) => format!(
                "built on: {}, {} {file}; the one line ({}): {}",
                api.name(),
                if *guess {
                    "a guess from the bytes rmcp in"
                } else {
                    "imported in"
                },
                api.module(),
                api.one_line()
            ),
        }
    }

    /// The report as a table, one row a call, then the score.
    pub fn to_table(&self) -> String {
        let replicated = self.server_at.replicated();
        let mut head = vec!["call"];
        if replicated {
            head.push("replica");
        }
        head.extend([
            "channel", "isError", "envelope", "code", "stated", "leaks", "bytes", "branch", "expected", "ok", "spec",
        ]);
        let mut lines: Vec<Vec<String>> = vec![head.iter().map(|h| (*h).to_owned()).collect()];
        for Row { call, grade, replica } in &self.rows {
            let dash = || "-".to_owned();
            let mut line = vec![shorten(&call.name, 44)];
            if replicated {
                line.push(replica.to_string());
            }
            line.extend([
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
                match &grade.spec {
                    Conformance::Follows => "yes".to_owned(),
                    Conformance::Option(option) => format!("NO ({option})"),
                    Conformance::Departs(_) => "NO".to_owned(),
                },
            ]);
            lines.push(line);
        }
        let widths: Vec<usize> = (0..head.len())
            .map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0))
            .collect();
        let (won, max) = self.points();
        let (name, version) = &self.server;
        let at = match &self.server_at {
            ServerAt::Command(command) => command.join(" "),
            ServerAt::Urls(urls) if urls.len() == 1 => urls[0].clone(),
            ServerAt::Urls(urls) => {
                let each: Vec<String> = urls
                    .iter()
                    .enumerate()
                    .map(|(i, url)| format!("replica {i} {url}"))
                    .collect();
                format!("{}; calls round-robin", each.join(", "))
            }
        };
        let mut out = format!(
            "{name} {version} ({at}), {} tools, protocol {}; graded by MCP {}\n",
            self.tools,
            self.protocol,
            self.spec.as_str()
        );
        out.push_str(&self.built_on_line());
        out.push('\n');
        for line in &lines {
            let cells: Vec<String> = line.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        for Row { call, grade, .. } in &self.rows {
            if let Some(why) = self.why(grade) {
                out.push_str(&format!("{}: {why}\n", shorten(&call.name, 44)));
            }
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
