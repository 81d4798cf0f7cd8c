//! The agent host's side on rmcp's client (docs/host-loop.md):
//! `call_tool_with_recovery` against an rmcp server whose tools fail as
//! upstreams do, over an in-memory pipe. The waits are recorded instead of
//! slept; the escalation record is the bytes the JS and Python tests expect.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_envelope::host_loop::{Attempt, Budget};
use mcp_envelope::rmcp::{call_tool_result, call_tool_with_recovery, EnvelopeServer, Recovered, Then};
use mcp_envelope::{Format, ToolError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

const RECORD: &str = r#"<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call list_invoices: gave up after 3 calls, the most the budget allows</task>
  <failed>
    <failure item="list_invoices" code="RATE_LIMITED" category="transient" retryable="true" retry_after="1 second"/>
  </failed>
  <tried>
    <attempt>call 1: RATE_LIMITED (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 2: RATE_LIMITED (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 3: RATE_LIMITED (wait-and-retry)</attempt>
  </tried>
  <recovery>The failure is transient, but the retries the host allows are spent: try again later, or tell the user.</recovery>
</partial_result>"#;

/// Tools that fail as upstreams do, counting their calls.
#[derive(Clone, Default)]
struct Flaky {
    calls: Arc<AtomicU32>,
}

impl ServerHandler for Flaky {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let empty = || json!({"type": "object"}).as_object().cloned().unwrap_or_default();
        let read_only = ToolAnnotations::new().read_only(true);
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("get_invoice", "Two timeouts, then the invoice.", empty()).annotate(read_only.clone()),
            Tool::new("list_invoices", "Rate limited every time.", empty()).annotate(read_only),
            Tool::new("refund_order", "A write that times out.", empty()),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        let timeout = ToolError::new("TIMEOUT", "The billing API did not answer within 10 s.");
        let result = match request.name.as_ref() {
            "get_invoice" if n > 2 => CallToolResult::success(vec![ContentBlock::text("inv_1: 120.00 EUR, paid")]),
            "list_invoices" => call_tool_result(
                &ToolError::new("RATE_LIMITED", "Too many lookups.").retry_after(1),
                Format::Xml,
            ),
            _ => call_tool_result(&timeout, Format::Xml),
        };
        Ok(result.into())
    }
}

/// The call of `tool` through the host loop, its waits, and how many calls the server saw.
async fn recovered(tool: &str, listed: bool) -> (Recovered, Vec<u64>, u32) {
    let server = Flaky::default();
    let calls = server.calls.clone();
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = EnvelopeServer::new(server)
            .serve(server_end)
            .await
            .expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_end).await.expect("the client connects");
    let tools = client.list_all_tools().await.expect("tools/list");
    let listing = tools.iter().find(|t| t.name == tool).filter(|_| listed);
    let waits = Arc::new(Mutex::new(Vec::new()));
    let recorded = waits.clone();
    let sleep = move |wait: Duration| {
        recorded.lock().unwrap().push(u64::try_from(wait.as_millis()).unwrap());
        std::future::ready(())
    };
    let params = CallToolRequestParams::new(tool.to_owned());
    let outcome = call_tool_with_recovery(client.peer(), params, listing, Budget::default(), Format::Xml, sleep)
        .await
        .expect("an answer");
    let waits = waits.lock().unwrap().clone();
    (outcome, waits, calls.load(Ordering::SeqCst))
}

fn attempt(code: Option<&str>, branch: &str, waited_ms: Option<u64>) -> Attempt {
    serde_json::from_value(json!({"code": code, "branch": branch, "waitedMs": waited_ms})).unwrap()
}

#[tokio::test]
async fn a_transient_failure_is_absorbed_without_a_model_turn() {
    let (outcome, waits, calls) = recovered("get_invoice", true).await;
    assert_eq!((&outcome.then, waits, calls), (&Then::Done, vec![500, 1000], 3));
    assert_eq!(
        outcome.result["content"],
        json!([{"type": "text", "text": "inv_1: 120.00 EUR, paid"}])
    );
    assert_eq!(
        outcome.tried,
        vec![
            attempt(Some("TIMEOUT"), "wait-and-retry", Some(500)),
            attempt(Some("TIMEOUT"), "wait-and-retry", Some(1000)),
            attempt(None, "accept", None),
        ]
    );
}

#[tokio::test]
async fn a_failure_that_lasts_is_escalated_with_the_record_the_core_writes() {
    let (outcome, waits, calls) = recovered("list_invoices", true).await;
    assert_eq!((&outcome.then, waits, calls), (&Then::Escalate, vec![1000, 1000], 3));
    assert_eq!(outcome.result["isError"], json!(true));
    assert_eq!(outcome.result["content"][0]["text"], json!(RECORD));
}

#[tokio::test]
async fn a_write_neither_read_only_nor_idempotent_is_never_retried_blindly() {
    let (outcome, waits, calls) = recovered("refund_order", true).await;
    assert_eq!((&outcome.then, waits, calls), (&Then::Escalate, vec![], 1));
    assert_eq!(
        outcome.tried,
        vec![attempt(Some("TIMEOUT"), "verify-before-retry", None)]
    );
    // Without the listing the answer alone decides: a retryable timeout is retried.
    let (unlisted, waits, calls) = recovered("refund_order", false).await;
    assert_eq!((&unlisted.then, waits, calls), (&Then::Escalate, vec![500, 1000], 3));
}

#[tokio::test]
async fn an_unknown_tool_is_the_json_rpc_error_for_the_model() {
    let (outcome, waits, calls) = recovered("refund_orders", true).await;
    assert_eq!((&outcome.then, waits, calls), (&Then::ToModel, vec![], 0));
    assert_eq!(outcome.result["code"], json!(-32602));
}
