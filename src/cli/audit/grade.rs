//! One answer graded as a model and a rule-based client meet it: which
//! channel it came on, whether it reads as an envelope (or at least states a
//! code, what failed, the next step and whether to retry), whether it leaks
//! a stack trace or secret-looking text, its size, and the branch
//! `decide` (the core's rules) takes on it.

use mcp_envelope::decide::{decide, Branch};
use mcp_envelope::{read_envelope, Reading};
use serde_json::Value;

use super::probes::Expect;

/// What came back for a call.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A `CallToolResult`, as JSON.
    Result(Value),
    /// A JSON-RPC error: its code and message.
    ProtocolError(i64, String),
    /// No answer: the connection failed or the call timed out.
    Transport(String),
}

/// The grade of one answer.
#[derive(Debug, Clone)]
pub struct Grade {
    pub channel: &'static str,
    pub is_error: Option<bool>,
    /// `tool_error`, `validation_error`, `partial_result`, `malformed`, or none.
    pub envelope: Option<&'static str>,
    pub code: Option<String>,
    /// Of code, what failed, next step, whether to retry: how many it states.
    pub stated: u8,
    pub leaks: Vec<String>,
    /// The text the model reads (the result's text blocks; a protocol error's message).
    pub text: String,
    pub branch: Branch,
    pub right: bool,
    /// Out of four: the channel, a readable answer, no leak, the right branch.
    pub points: u8,
}

/// Grades an answer against what it should be; `secrets` are exact strings
/// the plan says must never reach the model.
pub fn grade(answer: &Answer, expect: &Expect, secrets: &[String]) -> Grade {
    let (channel, is_error, text) = match answer {
        Answer::Result(result) => (
            "result",
            Some(result.get("isError") == Some(&Value::Bool(true))),
            text_of(result),
        ),
        Answer::ProtocolError(code, message) => ("jsonrpc-error", None, format!("MCP error {code}: {message}")),
        Answer::Transport(why) => ("no-answer", None, why.clone()),
    };
    let (envelope, code, stated) = match read_envelope(&text) {
        Ok(Reading::ToolError(e)) => {
            let retry_known = e.retryable.is_some() || mcp_envelope::code::defaults(&e.code).is_some();
            let facts = [
                !e.code.is_empty(),
                !e.message.is_empty(),
                e.recovery().is_some(),
                retry_known,
            ];
            (
                Some("tool_error"),
                Some(e.code.clone()),
                facts.iter().filter(|f| **f).count() as u8,
            )
        }
        Ok(Reading::ValidationError(_)) => (Some("validation_error"), Some("VALIDATION_ERROR".to_owned()), 4),
        Ok(Reading::PartialResult(_)) => (Some("partial_result"), Some("PARTIAL_RESULT".to_owned()), 4),
        Ok(Reading::None) => (None, None, 0),
        Err(_) => (Some("malformed"), None, 0),
    };
    let decision = match answer {
        Answer::Result(result) => decide(&result.to_string()).ok(),
        _ => None,
    };
    // A protocol error or no answer: the model gets no result to act on.
    let branch = decision.as_ref().map_or(Branch::StopAndTell, |d| d.branch);
    let code_right = expect.code.as_ref().is_none_or(|want| code.as_ref() == Some(want));
    let right = branch == expect.branch && code_right;
    let accept = expect.branch == Branch::Accept;
    let channel_right = channel == "result" && is_error == Some(!accept);
    let readable = if accept { channel == "result" } else { stated == 4 };
    let leaks = leaks(&text, secrets);
    let points = [channel_right, readable, leaks.is_empty(), right]
        .iter()
        .filter(|p| **p)
        .count() as u8;
    Grade {
        channel,
        is_error,
        envelope,
        code,
        stated,
        leaks,
        text,
        branch,
        right,
        points,
    }
}

/// The text blocks of a result, joined with a newline (what the model reads).
fn text_of(result: &Value) -> String {
    let blocks = result
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}

/// What a model-facing text must not hold: stack traces, secret-looking
/// assignments and key shapes, and the plan's own secrets.
pub fn leaks(text: &str, secrets: &[String]) -> Vec<String> {
    let lower = text.to_ascii_lowercase();
    let mut found = Vec::new();
    let stack = [
        "traceback (most recent call last)",
        "panicked at",
        "stack backtrace",
        "\n    at ",
        "node:internal",
    ];
    if stack.iter().any(|s| lower.contains(s)) || has_source_line(text) {
        found.push("stack trace".to_owned());
    }
    let assignments = [
        "password=",
        "password:",
        "passwd=",
        "secret=",
        "api_key=",
        "apikey=",
        "token=",
        "bearer ",
    ];
    if let Some(hit) = assignments.iter().find(|a| lower.contains(**a)) {
        found.push(format!("secret-looking text ({})", hit.trim_end()));
    }
    if text.contains("-----BEGIN") || text.contains("AKIA") && text.split("AKIA").skip(1).any(|t| t.len() >= 16) {
        found.push("key material".to_owned());
    }
    for secret in secrets.iter().filter(|s| !s.is_empty() && text.contains(s.as_str())) {
        found.push(format!("the plan's secret {secret:?}"));
    }
    found
}

/// A `file.py:12` / `index.js:40:7` / `lib.rs:9` source position, as stack traces print them.
fn has_source_line(text: &str) -> bool {
    [".py\", line ", ".js:", ".ts:", ".mjs:", ".rs:"].iter().any(|ext| {
        text.match_indices(ext)
            .any(|(at, m)| text[at + m.len()..].starts_with(|c: char| c.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fix() -> Expect {
        Expect {
            branch: Branch::FixAndRetry,
            code: None,
        }
    }

    #[test]
    fn an_envelope_on_the_result_channel_earns_every_point() {
        let text =
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n  <message>No invoice inv_9</message>\n</tool_error>";
        let g = grade(
            &Answer::Result(json!({"content": [{"type": "text", "text": text}], "isError": true})),
            &fix(),
            &[],
        );
        assert_eq!(
            (g.channel, g.envelope, g.code.as_deref(), g.stated, g.points),
            ("result", Some("tool_error"), Some("NOT_FOUND"), 4, 4)
        );
    }

    #[test]
    fn a_protocol_error_is_stop_and_tell_and_reads_as_nothing() {
        let g = grade(&Answer::ProtocolError(-32602, "Tool x not found".into()), &fix(), &[]);
        assert_eq!(
            (g.channel, g.is_error, g.branch, g.right, g.points),
            ("jsonrpc-error", None, Branch::StopAndTell, false, 1)
        );
        assert_eq!(g.text, "MCP error -32602: Tool x not found");
    }

    #[test]
    fn stack_traces_and_secrets_are_found() {
        let python = "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>";
        assert_eq!(leaks(python, &[]), ["stack trace"]);
        assert_eq!(
            leaks("Error: boom\n    at Object.<anonymous> (/srv/index.js:4:9)", &[]),
            ["stack trace"]
        );
        assert_eq!(
            leaks("db connect failed: password=hunter2", &[]),
            ["secret-looking text (password=)"]
        );
        assert_eq!(
            leaks("failed with hunter2", &["hunter2".into()]),
            ["the plan's secret \"hunter2\""]
        );
        assert_eq!(
            leaks("No invoice inv_9. Retry in 30 seconds.", &[]),
            Vec::<String>::new()
        );
    }
}
