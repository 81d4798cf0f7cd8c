//! One answer graded as a model and a rule-based client meet it, and
//! against a named MCP revision: which channel it came on (and whether that
//! is the channel the revision names for the call), whether it reads as an
//! envelope (or at least states a code, what failed, the next step and
//! whether to retry), whether it leaks a stack trace or secret-looking text,
//! its size, and the branch `decide` (the core's rules) takes on it.

use mcp_envelope::decide::{decide_for, Branch};
use mcp_envelope::{read_envelope, Reading};
use serde_json::{json, Value};

use super::probes::Call;

/// An MCP revision whose rules an audit grades by (docs/audit.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revision {
    V2025_11_25,
    V2026_07_28,
}

impl Revision {
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    pub fn from_wire(wire: &str) -> Option<Revision> {
        [Revision::V2025_11_25, Revision::V2026_07_28]
            .into_iter()
            .find(|r| r.as_str() == wire)
    }
}

/// JSON-RPC's "invalid params": what both revisions answer an unknown tool with.
pub const INVALID_PARAMS: i64 = -32602;

/// What came back for a call.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A `CallToolResult`, as JSON.
    Result(Value),
    /// A JSON-RPC error.
    ProtocolError {
        code: i64,
        message: String,
        data: Option<Value>,
    },
    /// No answer: the connection failed or the call timed out.
    Transport(String),
}

/// Whether an answer follows the named revision, and if not, why.
#[derive(Debug, Clone, PartialEq)]
pub enum Conformance {
    Follows,
    /// Another answer than the revision's, which an option of ours gives:
    /// SEP-2145's `isError` result for an unknown tool.
    Option(&'static str),
    Departs(String),
}

/// The grade of one answer.
#[derive(Debug, Clone)]
pub struct Grade {
    pub channel: &'static str,
    pub is_error: Option<bool>,
    /// A JSON-RPC error as it came: `{"code", "message", "data"?}`.
    pub error: Option<Value>,
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
    /// Whether the answer is the one the named revision asks for.
    pub spec: Conformance,
    /// Out of four: the revision's channel, a readable answer, no leak, the right branch.
    pub points: u8,
}

/// Grades the answer to `call` against what it should be, by the rules of
/// `spec`; `tools` are the names the server lists, `listing` the called
/// tool's `tools/list` entry (JSON; its annotations decide whether a retry is
/// safe, SEP-3313), `secrets` exact strings the plan says must never reach
/// the model.
pub fn grade(
    answer: &Answer,
    call: &Call,
    tools: &[String],
    listing: Option<&str>,
    spec: Revision,
    secrets: &[String],
) -> Grade {
    let expect = &call.expect;
    let (channel, is_error, text, error) = match answer {
        Answer::Result(result) => (
            "result",
            Some(result.get("isError") == Some(&Value::Bool(true))),
            text_of(result),
            None,
        ),
        Answer::ProtocolError { code, message, data } => {
            let mut error = json!({ "code": code, "message": message });
            if let Some(data) = data {
                error["data"] = data.clone();
            }
            (
                "jsonrpc-error",
                None,
                format!("MCP error {code}: {message}"),
                Some(error),
            )
        }
        Answer::Transport(why) => ("no-answer", None, why.clone(), None),
    };
    // A protocol error's envelope, when it carries one, is its `data`.
    let envelope_text = match answer {
        Answer::ProtocolError { data: Some(data), .. } => data.to_string(),
        _ => text.clone(),
    };
    let (envelope, code, stated) = match read_envelope(&envelope_text) {
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
        // `Reading` may grow a kind: one this auditor does not know grades as none.
        Ok(_) => (None, None, 0),
        Err(_) => (Some("malformed"), None, 0),
    };
    // Errors in finding the tool are the protocol's; any other the tool's.
    let unknown = !tools.contains(&call.tool);
    let names_tools = match answer {
        Answer::ProtocolError { code, message, .. } => *code == INVALID_PARAMS && names_the_tools(message, tools),
        _ => false,
    };
    // A JSON-RPC error is decided by the envelope in its `data`, when it
    // carries one; without, the model has at most a bare message.
    // A request to the client (2025-11-25's URL elicitation, -32042) says
    // what the host must do without an envelope.
    let decided = match (answer, &error) {
        (Answer::Result(result), _) => decide_for(&result.to_string(), listing).ok().map(|d| d.branch),
        (Answer::ProtocolError { .. }, Some(error)) if envelope.is_some() || asks_the_client(answer) => {
            decide_for(&error.to_string(), listing).ok().map(|d| d.branch)
        }
        _ => None,
    };
    // An unknown tool's error that names the tools gives the model its next
    // call, whether or not `data` says more; any other answer `decide`
    // cannot act on leaves the model nothing but to stop.
    let branch = if unknown && names_tools {
        Branch::FixAndRetry
    } else {
        decided.unwrap_or(Branch::StopAndTell)
    };
    let code_right = expect.code.as_ref().is_none_or(|want| code.as_ref() == Some(want));
    let right = branch == expect.branch && code_right;
    let accept = expect.branch == Branch::Accept;
    let spec_verdict = conformance(answer, unknown, names_tools, accept, code.as_deref(), spec);
    // A request to the client is for the host, not the model: the right
    // channel is the one the revision sends it on, and there is nothing
    // more for the model to read.
    let for_the_host = asks_the_client(answer);
    let channel_right = match (unknown, answer) {
        (true, Answer::ProtocolError { code, .. }) => *code == INVALID_PARAMS,
        (true, _) => false,
        (false, _) if for_the_host => spec_verdict == Conformance::Follows,
        (false, _) => channel == "result" && is_error == Some(!accept),
    };
    let readable = if unknown && channel == "jsonrpc-error" {
        names_tools
    } else if for_the_host {
        channel_right
    } else if accept {
        channel == "result"
    } else {
        stated == 4
    };
    let leaks = leaks(&format!("{text}\n{envelope_text}"), secrets);
    let points = [channel_right, readable, leaks.is_empty(), right]
        .iter()
        .filter(|p| **p)
        .count() as u8;
    Grade {
        channel,
        is_error,
        error,
        envelope,
        code,
        stated,
        leaks,
        text,
        branch,
        right,
        spec: spec_verdict,
        points,
    }
}

/// Whether the answer is the one `spec` asks for. Both revisions say the
/// same here (docs/audit.md cites them): errors in finding the tool are a
/// JSON-RPC error (the example: -32602, "Unknown tool: NAME"); errors that
/// originate from the tool, input validation errors included, an `isError`
/// result.
fn conformance(
    answer: &Answer,
    unknown: bool,
    names_tools: bool,
    accept: bool,
    code: Option<&str>,
    spec: Revision,
) -> Conformance {
    let revision = spec.as_str();
    if !unknown && asks_the_client(answer) {
        return match sent_under(answer, revision) {
            None => Conformance::Follows,
            Some(sent) => Conformance::Departs(format!("{revision} sends this request to the client as {sent}")),
        };
    }
    match (unknown, answer) {
        (true, Answer::ProtocolError { code, .. }) if *code != INVALID_PARAMS => Conformance::Departs(format!(
            "an unknown tool is a JSON-RPC error -32602 in {revision}, not {code}"
        )),
        (true, Answer::ProtocolError { .. }) if !names_tools => Conformance::Departs(format!(
            "{revision}'s -32602 for an unknown tool, but its message names none of the server's tools: the model has nothing to recover with"
        )),
        (true, Answer::ProtocolError { .. }) => Conformance::Follows,
        (true, Answer::Result(result)) if result.get("isError") == Some(&Value::Bool(true)) && code == Some("UNKNOWN_ACTION") => {
            Conformance::Option("SEP-2145")
        }
        (true, Answer::Result(_)) => Conformance::Departs(format!(
            "an unknown tool is a JSON-RPC error -32602 in {revision}, not a result"
        )),
        (false, Answer::ProtocolError { code, .. }) => Conformance::Departs(format!(
            "a failure of a listed tool (its arguments included) is an isError result in {revision}, not a JSON-RPC error {code}"
        )),
        (false, Answer::Result(result)) if !accept && result.get("isError") != Some(&Value::Bool(true)) => {
            Conformance::Departs(format!("a failure of a listed tool is an isError result in {revision}, not a success"))
        }
        (_, Answer::Transport(_)) => Conformance::Departs("no answer".to_owned()),
        _ => Conformance::Follows,
    }
}

/// Whether the answer asks the client itself for input: a 2026-07-28
/// `input_required` result, or 2025-11-25's URL elicitation error -32042.
fn asks_the_client(answer: &Answer) -> bool {
    match answer {
        Answer::Result(result) => result.get("resultType") == Some(&Value::from("input_required")),
        Answer::ProtocolError { code, .. } => *code == mcp_envelope::revision::URL_ELICITATION_REQUIRED,
        Answer::Transport(_) => false,
    }
}

/// `None` when `revision` sends the answer as it came (the core's
/// `answer_for_revision`, docs/revisions.md); else what it sends instead,
/// in a few words.
fn sent_under(answer: &Answer, revision: &str) -> Option<String> {
    let given = match answer {
        Answer::Result(result) => serde_json::json!({ "result": result }),
        Answer::ProtocolError { code, message, data } => {
            let mut error = serde_json::json!({ "code": code, "message": message });
            if let Some(data) = data {
                error["data"] = data.clone();
            }
            serde_json::json!({ "error": error })
        }
        Answer::Transport(_) => return None,
    };
    let request = serde_json::json!({ "revision": revision, "answer": given }).to_string();
    let sent: Value = mcp_envelope::raw::answer_for_revision(&request)
        .ok()
        .and_then(|json| serde_json::from_str(&json).ok())?;
    if sent == given {
        return None;
    }
    Some(match (sent.get("error"), sent.get("result")) {
        (Some(error), _) => format!("the JSON-RPC error {}", error["code"]),
        (_, Some(result)) => format!("a result, resultType {}", result["resultType"]),
        _ => sent.to_string(),
    })
}

/// Whether a message names the server's tools: every one it lists, or ten
/// when it lists more (as the core's message does), each as a whole word.
/// A server that lists none has nothing to name.
fn names_the_tools(message: &str, tools: &[String]) -> bool {
    let named = tools.iter().filter(|t| names(message, t)).count();
    named >= tools.len().min(10)
}

/// `tool` in `message`, not as part of a longer name (a full stop after it
/// ends the sentence unless a name goes on past it).
fn names(message: &str, tool: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    message.match_indices(tool).any(|(at, _)| {
        let before = message[..at].chars().next_back();
        let rest = &message[at + tool.len()..];
        let mut after = rest.chars();
        let starts_clean = !before.is_some_and(|c| word(c) || c == '.' || c == '/');
        let ends_clean = match after.next() {
            None => true,
            Some('.' | '/') => !after.next().is_some_and(word),
            Some(c) => !word(c),
        };
        starts_clean && ends_clean && !tool.is_empty()
    })
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
    use crate::audit::probes::Expect;

    const TOOLS: [&str; 3] = ["list_invoices", "get_invoice", "refund_order"];

    fn tools() -> Vec<String> {
        TOOLS.iter().map(|t| (*t).to_owned()).collect()
    }

    fn call(tool: &str) -> Call {
        Call {
            name: "a call".into(),
            tool: tool.into(),
            arguments: json!({}),
            expect: Expect {
                branch: Branch::FixAndRetry,
                code: None,
            },
        }
    }

    fn unknown(code: i64, message: &str) -> Grade {
        let answer = Answer::ProtocolError {
            code,
            message: message.into(),
            data: None,
        };
        grade(
            &answer,
            &call("refund_orders"),
            &tools(),
            None,
            Revision::V2025_11_25,
            &[],
        )
    }

    #[test]
    fn an_envelope_on_the_result_channel_earns_every_point() {
        let text =
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n  <message>No invoice inv_9</message>\n</tool_error>";
        let g = grade(
            &Answer::Result(json!({"content": [{"type": "text", "text": text}], "isError": true})),
            &call("get_invoice"),
            &tools(),
            None,
            Revision::V2025_11_25,
            &[],
        );
        assert_eq!(
            (g.channel, g.envelope, g.code.as_deref(), g.stated, g.spec, g.points),
            (
                "result",
                Some("tool_error"),
                Some("NOT_FOUND"),
                4,
                Conformance::Follows,
                4
            )
        );
    }

    #[test]
    fn an_unknown_tool_s_32602_naming_the_tools_follows_both_revisions() {
        let g = unknown(
            -32602,
            "Unknown tool: refund_orders. This server's tools: list_invoices, get_invoice, refund_order.",
        );
        assert_eq!(
            (g.channel, g.branch, g.right, g.spec, g.points),
            ("jsonrpc-error", Branch::FixAndRetry, true, Conformance::Follows, 4)
        );
        assert_eq!(
            g.error,
            Some(
                json!({"code": -32602, "message": "Unknown tool: refund_orders. This server's tools: list_invoices, get_invoice, refund_order."})
            )
        );
    }

    #[test]
    fn an_unknown_tool_s_32602_saying_only_not_found_gives_the_model_nothing() {
        let g = unknown(-32602, "Tool refund_orders not found");
        assert_eq!((g.branch, g.right, g.points), (Branch::StopAndTell, false, 2));
        assert_eq!(g.text, "MCP error -32602: Tool refund_orders not found");
        assert!(matches!(g.spec, Conformance::Departs(ref why) if why.contains("names none of the server's tools")));
        // A longer name holding a tool's is not that tool.
        assert_eq!(
            unknown(-32602, "Unknown tool. Try list_invoices_v2, get_invoice, refund_order.").points,
            2
        );
        assert!(matches!(
            unknown(-32601, "Unknown tool: x").spec,
            Conformance::Departs(_)
        ));
    }

    #[test]
    fn sep_2145_s_result_for_an_unknown_tool_is_an_option_not_the_revision() {
        let text = "<tool_error code=\"UNKNOWN_ACTION\" severity=\"error\">\n  <message>No tool named 'refund_orders' on this server.</message>\n  <recovery>Call one of the available tools instead.</recovery>\n</tool_error>";
        let result = json!({"content": [{"type": "text", "text": text}], "isError": true});
        let g = grade(
            &Answer::Result(result),
            &call("refund_orders"),
            &tools(),
            None,
            Revision::V2026_07_28,
            &[],
        );
        assert_eq!(
            (g.branch, g.right, g.spec, g.points),
            (Branch::FixAndRetry, true, Conformance::Option("SEP-2145"), 3)
        );
    }

    #[test]
    fn a_listed_tool_s_failure_as_a_protocol_error_departs_from_the_revision() {
        let answer = Answer::ProtocolError {
            code: -32602,
            message: "Invalid arguments: id is required".into(),
            data: None,
        };
        let g = grade(
            &answer,
            &call("get_invoice"),
            &tools(),
            None,
            Revision::V2025_11_25,
            &[],
        );
        assert_eq!((g.branch, g.right, g.points), (Branch::StopAndTell, false, 1));
        assert_eq!(
            g.spec,
            Conformance::Departs(
                "a failure of a listed tool (its arguments included) is an isError result in 2025-11-25, not a JSON-RPC error -32602".into()
            )
        );
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

    #[test]
    fn a_retryable_failure_is_graded_with_the_tool_s_annotations() {
        let text = "<tool_error code=\"TIMEOUT\" severity=\"error\">\n  <message>The bank did not answer.</message>\n</tool_error>";
        let answer = Answer::Result(json!({"content": [{"type": "text", "text": text}], "isError": true}));
        let graded = |listing: &str| {
            grade(
                &answer,
                &call("refund_order"),
                &tools(),
                Some(listing),
                Revision::V2025_11_25,
                &[],
            )
            .branch
        };
        // SEP-3313: no automatic retry of a write that is neither read-only nor idempotent.
        assert_eq!(graded(r#"{"name":"refund_order"}"#), Branch::VerifyBeforeRetry);
        assert_eq!(
            graded(r#"{"name":"refund_order","annotations":{"idempotentHint":true}}"#),
            Branch::WaitAndRetry
        );
    }
}
