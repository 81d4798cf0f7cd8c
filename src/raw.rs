//! The raw layer: every export of the WIT package (`wit/`) as a Rust function,
//! under the same names: JSON text in, JSON text out, a refusal as the error
//! whose message every host shows. The components (`component/`) and the
//! command (`cli/`) call these; Rust callers that
//! hold typed values call the typed functions of each module instead
//! (`render`, `ledger::Ledger`, `decide::decide`, ...).
//!
//! ```
//! use mcp_envelope::{raw, Format};
//! let text = raw::render(r#"{"code":"NOT_FOUND","message":"No invoice inv_404"}"#, Format::Text).unwrap();
//! assert!(text.starts_with("error_code: NOT_FOUND\nwhat_failed: No invoice inv_404\n"));
//! ```

use crate::error::{ParseError, SpecError};
use crate::tool_error::render::{Format, ProtocolErrorKind};

/// The canonical codes, in a fixed order.
pub fn canonical_codes() -> Vec<String> {
    crate::code::CANONICAL_CODES.iter().map(|c| c.to_string()).collect()
}

/// `{"code", "locale"?}` in; the code's defaults as `code-defaults` gives
/// them, with the recovery hint in that locale, out; `null` for a custom code.
///
/// ```
/// use mcp_envelope::raw;
/// assert_eq!(
///     raw::code_defaults(r#"{"code":"CONFLICT","locale":"pt-BR"}"#).unwrap(),
///     r#"{"category":"business","retryable":false,"recovery":"Leia o estado atual de novo e decida se a alteração ainda se aplica."}"#
/// );
/// assert_eq!(raw::code_defaults(r#"{"code":"ORDER_NOT_FOUND"}"#).unwrap(), "null");
/// ```
pub fn code_defaults(request: &str) -> Result<String, SpecError> {
    crate::code::code_defaults_json(request)
}

/// The limits in force for a partial `limits` object (`null`: the
/// defaults), every key written: what a package shows as its defaults and
/// how it checks a caller's limits before any render.
///
/// ```
/// use mcp_envelope::raw;
/// assert_eq!(
///     raw::limits(r#"{"messageChars":300}"#).unwrap(),
///     r#"{"messageChars":300,"envelopeChars":2000,"actions":10,"details":10}"#
/// );
/// assert_eq!(raw::limits("null").unwrap(), raw::limits("{}").unwrap());
/// ```
pub fn limits(request: &str) -> Result<String, SpecError> {
    crate::tool_error::limits::limits_json(request)
}

/// The envelope of an error spec, in `format`.
pub fn render(spec: &str, format: Format) -> Result<String, SpecError> {
    Ok(crate::render(&crate::tool_error::spec::from_json(spec)?, format))
}

/// The MCP `CallToolResult` JSON carrying the envelope of an error spec.
pub fn call_tool_result(spec: &str, format: Format) -> Result<String, SpecError> {
    Ok(crate::call_tool_result(
        &crate::tool_error::spec::from_json(spec)?,
        format,
    ))
}

/// A JSON-RPC error object; `data`, an error spec, is carried in its JSON form.
pub fn protocol_error(kind: ProtocolErrorKind, message: &str, data: Option<&str>) -> Result<String, SpecError> {
    let data = data.map(crate::tool_error::spec::from_json).transpose()?;
    Ok(crate::protocol_error(kind, message, data.as_ref()))
}

/// `exception-result`: `{"tool", "exception", "correlationId"?, "random"?,
/// "format"?, "locale"?}` to `{"result": CallToolResult, "correlationId",
/// "log"}`. The caller's `correlationId` wins over `random`; one of them is needed.
///
/// ```
/// use mcp_envelope::raw;
/// let out = raw::exception_result(r#"{"tool":"charge","exception":"boom","random":"0123456789abcdef"}"#).unwrap();
/// assert!(out.contains(r#""correlationId":"err_0123456789ab""#));
/// ```
pub fn exception_result(request: &str) -> Result<String, SpecError> {
    crate::recovery::exception_result_json(request)
}

/// `upstream-error`: `{"status", "headers"?: {name: value}, "body"?,
/// "now"?, "service"?, "excerptChars"?, "correlationId"?, "locale"?}` to
/// `{"error": <error spec>, "log": {"status", "body", "retryAfterIgnored"?}}`.
/// Header names are case-insensitive; `Retry-After`, `retry-after-ms`,
/// `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and
/// `WWW-Authenticate` are read. The log has `"rateLimit"` (those headers as
/// given) and, for a step-up, `"wwwAuthenticate"`.
///
/// ```
/// use mcp_envelope::raw;
/// let out = raw::upstream_error(r#"{"status":503,"headers":{"retry-after":"120"},"body":"<h1>down</h1>"}"#).unwrap();
/// assert!(out.starts_with(r#"{"error":{"code":"UPSTREAM_UNAVAILABLE","message":"The upstream service failed"#));
/// assert!(out.contains(r#""retryAfter":120,"category":"transient","retryable":true,"#));
/// assert!(out.ends_with(r#""log":{"status":503,"body":"<h1>down</h1>"}}"#));
/// ```
pub fn upstream_error(request: &str) -> Result<String, SpecError> {
    crate::recovery::upstream_error_json(request)
}

/// `access-error`: `{"kind": "forbidden"|"auth-required", "action"?,
/// "resource"?, "correlationId"?, "locale"?}` to the error spec (as
/// `render` and `call-tool-result` take it).
///
/// ```
/// use mcp_envelope::raw;
/// let spec = raw::access_error(r#"{"kind":"forbidden","resource":"order A-8812"}"#).unwrap();
/// assert!(spec.starts_with(
///     r#"{"code":"FORBIDDEN","message":"Not permitted: the caller may not access order A-8812.""#
/// ));
/// ```
pub fn access_error(request: &str) -> Result<String, SpecError> {
    crate::recovery::access_error_json(request)
}

/// `empty-result`: `{"what", "query"?, "suggestion"?, "structuredContent"?,
/// "locale"?, "localizeSteering"?}` to the `CallToolResult` JSON.
///
/// ```
/// use mcp_envelope::raw;
/// let input = r#"{"what":"orders","suggestion":"Ask whether the customer used another email."}"#;
/// let result = raw::empty_result(input).unwrap();
/// assert!(result.contains(r#"Do not repeat the same query.\nNext step: Ask whether"#));
/// ```
pub fn empty_result(request: &str) -> Result<String, SpecError> {
    crate::recovery::empty_result_json(request)
}

/// `unknown-tool`: `{"tool", "tools", "format"?, "answer"?}` to
/// `{"error": <JSON-RPC error>}` (`"answer": "protocol-error"`, the default)
/// or `{"result": <CallToolResult, isError true>}` (`"answer":
/// "tool-result"`; `format` is its envelope's form). `tools` is the server's
/// tool names as its `tools/list` gives them; an empty list is allowed.
///
/// ```
/// use mcp_envelope::raw;
/// let answer = raw::unknown_tool(r#"{"tool":"refund_orders","tools":["list_invoices"],"format":"text","answer":"tool-result"}"#).unwrap();
/// assert!(answer.starts_with(r#"{"result":{"content":[{"type":"text","text":"error_code: UNKNOWN_ACTION\nwhat_failed: No tool named 'refund_orders' on this server."#));
/// ```
pub fn unknown_tool(request: &str) -> Result<String, SpecError> {
    crate::recovery::unknown_tool_json(request)
}

/// `user-error`: `{"message", "format"?}` to the `CallToolResult` JSON
/// (`isError: true`): a TOOL_ERROR envelope stating the message, or the
/// message itself when it already holds an envelope (a broken one is text
/// like any other).
///
/// ```
/// use mcp_envelope::raw;
/// let quoted = raw::user_error(r#"{"message":"Locked by another refund.","format":"text"}"#).unwrap();
/// assert_eq!(quoted, r#"{"content":[{"type":"text","text":"error_code: TOOL_ERROR\nwhat_failed: Locked by another refund.\nretryable: false"}],"isError":true}"#);
/// let envelope = "<tool_error code=\"NOT_FOUND\">\n  <message>No invoice</message>\n</tool_error>";
/// let sent = raw::user_error(&serde_json::json!({ "message": envelope }).to_string()).unwrap();
/// let text = serde_json::to_string(envelope).unwrap();
/// assert_eq!(sent, format!(r#"{{"content":[{{"type":"text","text":{text}}}],"isError":true}}"#));
/// ```
pub fn user_error(request: &str) -> Result<String, SpecError> {
    crate::recovery::user_error_json(request)
}

/// `handler-result`: `{"tool", "outcome", "format"?, "locale"?,
/// "correlationId"?, "random"?}` to `{"result", "ledger": "failure" |
/// "observe", "correlationId"?, "log"?}`. `outcome` is one of `{"error":
/// <error spec>}`, `{"validation": <validation spec>}`, `{"userError":
/// <text>}`, `{"envelope": <text>}`, `{"result": <CallToolResult>}` or
/// `{"exception": <text>}`; an INTERNAL_ERROR quotes `correlationId`, or a
/// fresh id from `random` (host randomness in hex).
///
/// ```
/// use mcp_envelope::raw;
/// let out = raw::handler_result(r#"{"tool":"get_invoice","outcome":{"error":{"code":"NOT_FOUND","message":"No invoice inv_9"}},"format":"text"}"#).unwrap();
/// assert_eq!(out, r#"{"result":{"content":[{"type":"text","text":"error_code: NOT_FOUND\nwhat_failed: No invoice inv_9\nnext_action: Check the identifier: look the item up or list the available ones, then call again with a real one.\nretryable: false"}],"isError":true},"ledger":"failure"}"#);
/// ```
pub fn handler_result(request: &str) -> Result<String, SpecError> {
    crate::handler::handler_result_json(request)
}

/// The argument a write's idempotency key comes in when the server names no other.
pub fn idempotency_key_argument() -> String {
    crate::handler::IDEMPOTENCY_KEY_ARGUMENT.to_owned()
}

/// The export `render-partial`: a partial-result spec (JSON) in, the envelope
/// text out, in the spec's `format` (`xml` unless given).
pub fn render_partial(request: &str) -> Result<String, SpecError> {
    crate::partial::render_partial_json(request)
}

/// The export `partial-result`: a partial-result spec (JSON) in, the
/// `CallToolResult` JSON out; the spec's `structuredContent`, when given
/// (any JSON value), goes beside the envelope, between `content` and
/// `isError`.
///
/// ```
/// use mcp_envelope::raw;
/// let result = raw::partial_result(r#"{"obtained":[],"failed":[{"item":"Company C","code":"TIMEOUT"}],"format":"json"}"#).unwrap();
/// assert!(result.starts_with(r#"{"content":[{"type":"text","text":"{\"kind\":\"partial_result\",\"severity\":\"error\""#));
/// assert!(result.ends_with(r#""isError":true}"#));
/// ```
pub fn partial_result(request: &str) -> Result<String, SpecError> {
    crate::partial::partial_result_json(request)
}

/// The proposed export `partial-limits`: the limits in force for a partial
/// `limits` object of a partial-result spec (`null`: the defaults), every key
/// written, or the refusal.
///
/// ```
/// use mcp_envelope::raw;
/// assert_eq!(
///     raw::partial_limits(r#"{"items":5}"#).unwrap(),
///     r#"{"messageChars":500,"envelopeChars":2000,"items":5}"#
/// );
/// assert_eq!(raw::partial_limits("null").unwrap(), raw::partial_limits("{}").unwrap());
/// ```
pub fn partial_limits(request: &str) -> Result<String, SpecError> {
    crate::partial::partial_limits_json(request)
}

/// Renders the envelope for a JSON validation spec.
pub fn render_validation(request: &str) -> Result<String, SpecError> {
    crate::validation::render_validation_spec_json(request)
}

/// The `CallToolResult` JSON (`isError: true`) of a validation spec.
pub fn validation_result(spec: &str) -> Result<String, SpecError> {
    Ok(crate::validation::validation_result(
        &crate::validation::validation_from_json(spec)?,
    ))
}

/// Reads the earliest envelope in a text or `CallToolResult` JSON: the reading as JSON.
pub fn read_envelope(text: &str) -> Result<String, ParseError> {
    crate::read_envelope(text).map(|reading| reading.to_json())
}

/// `contract-lock`: a `tools/list` result (or its tools array, or a
/// lockfile) to the lockfile's text (docs/contract-diff.md).
pub fn contract_lock(request: &str) -> Result<String, SpecError> {
    crate::contract::lock_json(request)
}

/// `contract-diff`: `{"lock": <lockfile, tools/list result or tools array>,
/// "tools": <today's, in any of those forms>}` to the deltas, a JSON array.
///
/// ```
/// use mcp_envelope::raw;
/// let deltas = raw::contract_diff(r#"{"lock":[{"name":"a","inputSchema":{"type":"object"}}],"tools":[]}"#).unwrap();
/// assert_eq!(deltas, r#"[{"severity":"BREAKING","action":"a","field":"(tool)","description":"the tool a was removed"}]"#);
/// ```
pub fn contract_diff(request: &str) -> Result<String, SpecError> {
    crate::contract::diff_json(request)
}

/// `decide` as JSON: `{"result", "tool"?}` (the result, and the tool's
/// `tools/list` entry) to `{"branch", "code"?, "waitSeconds"?, "scopes"?, "why"}`.
///
/// ```
/// let d = mcp_envelope::raw::decide(r#"{"result":{"content":[{"type":"text","text":"ENOENT: no such file"}],"isError":true}}"#).unwrap();
/// assert_eq!(d, r#"{"branch":"stop-and-tell","why":"no envelope: nothing says whether a retry or another input can help"}"#);
/// ```
pub fn decide(request: &str) -> Result<String, SpecError> {
    crate::decide::decide_json(request)
}

/// `answer-for-revision`: `{"revision", "answer": {"result": …} or {"error":
/// …}}` to the answer to send, in the same shape (a result may become an
/// error and an error a result).
///
/// ```
/// use mcp_envelope::raw;
/// let sent = raw::answer_for_revision(
///     r#"{"revision":"2026-07-28","answer":{"result":{"content":[],"isError":true}}}"#,
/// ).unwrap();
/// assert_eq!(sent, r#"{"result":{"content":[],"isError":true,"resultType":"complete"}}"#);
/// ```
pub fn answer_for_revision(request: &str) -> Result<String, SpecError> {
    crate::revision::answer_for_revision_json(request)
}

/// `host-step`: `{"name", "result", "tool"?, "tried"?, "budget"?:
/// {"maxAttempts"?, "maxWaitMs"?}, "format"?}`, where `result` is the
/// answer as `decide` takes it (a `CallToolResult`, or a JSON-RPC error) and
/// `tool` the tool's `tools/list` entry, to `{"then": "retry",
/// "waitMs", "tried"}`, `{"then": "done", "tried"}`, `{"then": "to-model",
/// "tried"}` or `{"then": "escalate", "result": <CallToolResult of the
/// record>, "tried"}`.
///
/// ```
/// use mcp_envelope::raw;
/// use mcp_envelope::{call_tool_result, Format, ToolError};
/// let limited = call_tool_result(&ToolError::new("RATE_LIMITED", "Slow down.").retry_after(2), Format::Xml);
/// let step = raw::host_step(&format!(r#"{{"name":"get_invoice","result":{limited}}}"#)).unwrap();
/// assert_eq!(step, r#"{"then":"retry","waitMs":2000,"tried":[{"code":"RATE_LIMITED","branch":"wait-and-retry","waitedMs":2000}]}"#);
/// ```
pub fn host_step(request: &str) -> Result<String, SpecError> {
    crate::host_loop::host_step_json(request)
}

/// `span-attributes`: a `CallToolResult` JSON to the attributes for its
/// call's span, as one JSON object (`{}` for a result that is not an error).
pub fn span_attributes(request: &str) -> Result<String, SpecError> {
    crate::telemetry::span_attributes_json(request)
}

/// What a client throws for a `CallToolResult` JSON: `None` unless `isError` is true.
pub fn error_of_result(tool_result: &str) -> Result<Option<String>, SpecError> {
    crate::error_of_result(tool_result).map(|outcome| outcome.map(|o| o.to_json()))
}

/// `backoff`: the request as JSON (`{"attempt", "elapsedMs", "deadlineMs",
/// "failure", "baseMs"?, "maxAttempts"?, "random"?}`) to [`crate::backoff::Step::to_json`];
/// a spec failure's envelopes are XML (a handler's result keeps its form).
/// Read member by member: a derived reader would cost the component more
/// than these seven keys are worth.
pub fn backoff(request: &str) -> Result<String, SpecError> {
    crate::backoff::backoff_json(request)
}

/// `ledger-key`: `{"scope", "tool"}` to the store key (plain text, not JSON).
pub fn ledger_key(request: &str) -> Result<String, SpecError> {
    crate::ledger::ledger_key_json(request)
}

/// `ledger-failure`: `{"spec", "streak"?, "arguments"?, "stopAfter"?, "format"?}`
/// to `{"result": <CallToolResult>, "streak"?: <record> | null, "ttlMs"?}`: the result
/// to send and what to store under the tool's [`ledger_key`] (a record, or
/// `null` to remove it; no `streak` member leaves the store as it is).
///
/// ```
/// use mcp_envelope::raw;
/// let first = raw::ledger_failure(r#"{"spec":{"code":"NOT_FOUND","message":"No invoice inv_9"},"format":"text"}"#).unwrap();
/// assert_eq!(first, r#"{"result":{"content":[{"type":"text","text":"error_code: NOT_FOUND\nwhat_failed: No invoice inv_9\nnext_action: Check the identifier: look the item up or list the available ones, then call again with a real one.\nretryable: false"}],"isError":true},"streak":"{\"code\":\"NOT_FOUND\",\"arguments\":null,\"count\":1}","ttlMs":3600000}"#);
/// ```
pub fn ledger_failure(request: &str) -> Result<String, SpecError> {
    crate::ledger::ledger_failure_json(request)
}

/// `ledger-observe`: `{"result", "streak"?, "arguments"?, "stopAfter"?}` to
/// `{"result"?: <CallToolResult to send instead>, "streak"?: <record> | null, "ttlMs"?}`.
///
/// ```
/// use mcp_envelope::raw;
/// let ok = r#"{"content":[{"type":"text","text":"Paid"}],"isError":false}"#;
/// assert_eq!(raw::ledger_observe(&format!(r#"{{"result":{ok}}}"#)).unwrap(), r#"{"streak":null}"#);
/// ```
pub fn ledger_observe(request: &str) -> Result<String, SpecError> {
    crate::ledger::ledger_observe_json(request)
}

/// The conditional write a shared store runs as one step (a Lua script for Redis).
pub fn compare_and_set_script() -> String {
    crate::stores::COMPARE_AND_SET_SCRIPT.to_owned()
}

/// `idempotency-key`: `{"tool", "key"}` to the store key (plain text, not JSON).
pub fn idempotency_key(request: &str) -> Result<String, SpecError> {
    crate::idempotency::idempotency_key_json(request)
}

/// `idempotency-begin`: `{"tool", "key", "arguments" (or "argumentsText", the
/// text a host holds), "nowMs", "stored"?, "ttlSeconds"?, "format"?, "storeFailed"?}` to `{"outcome": "run",
/// "record", "ttlMs"}` (store the record under [`idempotency_key`] if the key
/// still holds `stored`, then run the write) or `{"outcome", "result"}` (send
/// the result instead: `replay`, `reused`, `in-progress`, `invalid-key`, or
/// `unavailable` when `storeFailed` is true).
///
/// ```
/// use mcp_envelope::raw;
/// let run = raw::idempotency_begin(r#"{"tool":"refund","key":"k-1","arguments":{"cents":500},"nowMs":0,"ttlSeconds":60}"#).unwrap();
/// assert_eq!(run, r#"{"outcome":"run","record":"{\"arguments\":\"bb185f9448bf07202ca794fb2d89004a\",\"expiresAtMs\":60000}","ttlMs":60000}"#);
/// ```
pub fn idempotency_begin(request: &str) -> Result<String, SpecError> {
    crate::idempotency::idempotency_begin_json(request)
}

/// `idempotency-finish`: `{"tool", "key", "claim", "result", "nowMs",
/// "ttlSeconds"?}` (`result` `null` when the handler threw) to
/// `{"finished": "stored", "record", "ttlMs"}` (put the record in the
/// claim's place) or `{"finished": "released"}` (remove the claim: a retry
/// with the key runs).
pub fn idempotency_finish(request: &str) -> Result<String, SpecError> {
    crate::idempotency::idempotency_finish_json(request)
}

/// `after-trap`: `{"call", "trap", "random", "format"?, "locale"?, "tool"?,
/// "key"?}` to `{"then":"answer","answer":<text>,"log"}` or
/// `{"then":"call-again","again":<words>,"log"}`.
///
/// ```
/// use mcp_envelope::raw;
/// let out = raw::after_trap(r#"{"call":"ledger-observe","trap":"unreachable","random":"0123456789abcdef"}"#).unwrap();
/// assert_eq!(out, r#"{"then":"answer","answer":"{}","log":"code=TRAPPED call=\"ledger-observe\" then=\"send-as-is\" trap=\"unreachable\""}"#);
/// ```
pub fn after_trap(request: &str) -> Result<String, SpecError> {
    crate::recovery::after_trap_json(request)
}

/// An export that takes one JSON request.
type RequestExport = fn(&str) -> Result<String, SpecError>;

/// The exports above that take one JSON request, by their WIT name, in the
/// WIT's order: what [`call`] finds.
const REQUEST_EXPORTS: &[(&str, RequestExport)] = &[
    ("code-defaults", code_defaults),
    ("limits", limits),
    ("render-partial", render_partial),
    ("partial-result", partial_result),
    ("partial-limits", partial_limits),
    ("render-validation", render_validation),
    ("validation-result", validation_result),
    ("after-trap", after_trap),
    ("exception-result", exception_result),
    ("upstream-error", upstream_error),
    ("access-error", access_error),
    ("empty-result", empty_result),
    ("unknown-tool", unknown_tool),
    ("user-error", user_error),
    ("handler-result", handler_result),
    ("answer-for-revision", answer_for_revision),
    ("backoff", backoff),
    ("ledger-key", ledger_key),
    ("ledger-failure", ledger_failure),
    ("ledger-observe", ledger_observe),
    ("idempotency-key", idempotency_key),
    ("idempotency-begin", idempotency_begin),
    ("idempotency-finish", idempotency_finish),
    ("decide", decide),
    ("host-step", host_step),
    ("span-attributes", span_attributes),
    ("contract-lock", contract_lock),
    ("contract-diff", contract_diff),
];

/// Calls the export named `export` (its WIT name, `"decide"`,
/// `"ledger-failure"`) with one JSON request: `None` when no export of one
/// request has that name. `mcp-envelope call` and the vector runners find
/// exports this way, so a new export is one row here.
///
/// ```
/// use mcp_envelope::raw;
/// let out = raw::call("code-defaults", r#"{"code":"TIMEOUT"}"#).unwrap().unwrap();
/// assert!(out.starts_with(r#"{"category":"transient","retryable":true,"#));
/// assert!(raw::call("no-such-export", "{}").is_none());
/// ```
pub fn call(export: &str, request: &str) -> Option<Result<String, SpecError>> {
    REQUEST_EXPORTS
        .iter()
        .find(|(name, _)| *name == export)
        .map(|(_, function)| function(request))
}

/// The names [`call`] knows, in the WIT's order.
pub fn request_exports() -> impl Iterator<Item = &'static str> {
    REQUEST_EXPORTS.iter().map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn call_knows_every_export_of_one_request_in_the_wit_order() {
        // `read-envelope` refuses with a ParseError (no envelope, or a broken
        // one), which `call`'s one error type does not say.
        let wit = [
            include_str!("../wit/envelope.wit"),
            include_str!("../wit/server.wit"),
            include_str!("../wit/agent.wit"),
            include_str!("../wit/contract.wit"),
        ];
        let wit: Vec<&str> = wit
            .iter()
            .flat_map(|interface| interface.lines())
            .filter_map(|line| line.trim().strip_suffix(": string) -> result<string, string>;"))
            .filter_map(|head| head.split_once(": func(").map(|(name, _)| name))
            .filter(|name| *name != "read-envelope")
            .collect();
        assert_eq!(super::request_exports().collect::<Vec<_>>(), wit);
    }
}
