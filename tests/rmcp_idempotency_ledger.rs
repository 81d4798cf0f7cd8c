//! The repeat ledger and the idempotency store together on rmcp: a real
//! rmcp server wrapped in `EnvelopeServer` with a ledger, and a real rmcp
//! client over an in-memory pipe. A client that retries exactly as the
//! in-progress CONFLICT says (the same call, the same key, while the first
//! call still runs) is never told to stop by the ledger, the write runs
//! once, and the stored outcome replays byte for byte in the same session.
//! The in-memory store and ledger and the shared ones give the same bytes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_envelope::idempotency::{Begin, Idempotency, ToolArguments};
use mcp_envelope::rmcp::{call_tool_result, idempotency_answer, EnvelopeServer};
use mcp_envelope::stores::{MemoryStore, SharedBegin, SharedIdempotency, SharedLedger};
use mcp_envelope::{code, Category, Format, Ledger, ToolError};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{tool, tool_handler, tool_router, RoleClient, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::Notify;

const IN_PROGRESS: &str = concat!(
    "<tool_error code=\"CONFLICT\" severity=\"error\">\n",
    "  <message>The first call with this idempotency key is still in progress, so this call did not run.</message>\n",
    "  <recovery>Wait 2 seconds, then make the same call with the same key: it will return the first call's outcome.</recovery>\n",
    "  <details>\n",
    "    <detail key=\"tool\">refund_order</detail>\n",
    "    <detail key=\"idempotencyKey\">refund-A-8812-1</detail>\n",
    "  </details>\n",
    "  <retry_after>2 seconds</retry_after>\n",
    "  <category>transient</category>\n",
    "  <retryable>true</retryable>\n",
    "</tool_error>"
);

/// The write's outcome: a business refusal, not retryable, so it is stored and replayed.
const REFUSED: &str = concat!(
    "<tool_error code=\"REFUND_WINDOW_CLOSED\" severity=\"error\">\n",
    "  <message>Order A-8812 was paid 120 days ago; refunds close after 90.</message>\n",
    "  <category>business</category>\n",
    "  <retryable>false</retryable>\n",
    "</tool_error>"
);

const STOP: &str = concat!(
    "<tool_error code=\"NOT_FOUND\" severity=\"critical\">\n",
    "  <message>Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.</message>\n",
    "  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n",
    "</tool_error>"
);

#[derive(Serialize, Deserialize, JsonSchema)]
struct RefundOrder {
    order_id: String,
    amount_cents: i64,
    idempotency_key: String,
}

#[derive(Deserialize, JsonSchema)]
struct GetInvoice {
    id: String,
}

/// Where the keys live: this process's store, or one replicas share.
enum Keys {
    Memory(Mutex<Idempotency>),
    Shared(SharedIdempotency<Arc<MemoryStore>>),
}

#[derive(Clone)]
struct Refunds {
    keys: Arc<Keys>,
    writes: Arc<AtomicUsize>,
    /// Holds the write until the test lets it finish.
    gate: Arc<Notify>,
    tool_router: ToolRouter<Self>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[tool_router]
impl Refunds {
    fn new(keys: Keys) -> Self {
        Refunds {
            keys: Arc::new(keys),
            writes: Arc::default(),
            gate: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Refunds an order, once per idempotency key.")]
    async fn refund_order(&self, Parameters(request): Parameters<RefundOrder>) -> CallToolResult {
        let arguments = ToolArguments::from_value(&serde_json::to_value(&request).unwrap());
        let key = request.idempotency_key.as_str();
        let claim = match self.keys.as_ref() {
            Keys::Memory(store) => {
                let begun = store
                    .lock()
                    .unwrap()
                    .begin("refund_order", key, &arguments, now_ms(), Format::Xml);
                if !matches!(begun, Begin::Run(_)) {
                    return idempotency_answer(begun.outcome(), begun.result().unwrap()).unwrap();
                }
                None
            }
            Keys::Shared(store) => match store
                .begin("refund_order", key, &arguments, now_ms(), Format::Xml)
                .await
            {
                SharedBegin::Run(claim) => Some(claim),
                SharedBegin::Send(outcome, result) => return idempotency_answer(outcome, &result).unwrap(),
            },
        };
        self.writes.fetch_add(1, Ordering::SeqCst);
        self.gate.notified().await;
        let refused = ToolError::new(
            "REFUND_WINDOW_CLOSED",
            format!(
                "Order {} was paid 120 days ago; refunds close after 90.",
                request.order_id
            ),
        )
        .category(Category::Business)
        .retryable(false);
        let result = call_tool_result(&refused, Format::Xml);
        let json = serde_json::to_string(&result).unwrap();
        match (self.keys.as_ref(), claim) {
            (Keys::Memory(store), _) => {
                store
                    .lock()
                    .unwrap()
                    .finish("refund_order", key, Some(&json), now_ms())
                    .unwrap();
            }
            (Keys::Shared(store), Some(claim)) => {
                store
                    .finish("refund_order", key, &claim, Some(&json), now_ms())
                    .await
                    .unwrap();
            }
            (Keys::Shared(_), None) => unreachable!("a shared begin that runs gives its claim"),
        }
        result
    }

    #[tool(description = "One invoice by ID.")]
    async fn get_invoice(&self, Parameters(request): Parameters<GetInvoice>) -> CallToolResult {
        call_tool_result(
            &ToolError::new(code::NOT_FOUND, format!("No invoice {}", request.id)),
            Format::Xml,
        )
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Refunds {}

async fn connect(server: EnvelopeServer<Refunds>) -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_end).await.expect("the client connects")
}

async fn call(client: &rmcp::Peer<RoleClient>, tool: &str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    client.call_tool(params).await.expect("a result, not a JSON-RPC error")
}

/// The one text block and `isError` of a result.
fn said(result: &CallToolResult) -> (&str, Option<bool>) {
    assert_eq!(result.content.len(), 1, "one content block: {result:?}");
    (
        result.content[0].as_text().expect("a text block").text.as_str(),
        result.is_error,
    )
}

async fn retrying_as_the_conflict_says(keys: Keys, server: impl FnOnce(Refunds) -> EnvelopeServer<Refunds>) {
    let refunds = Refunds::new(keys);
    let (writes, gate) = (Arc::clone(&refunds.writes), Arc::clone(&refunds.gate));
    let client = connect(server(refunds)).await;
    let peer = client.peer().clone();

    // The ledger is on: the third identical failure of a call is told to stop.
    for _ in 0..2 {
        call(&peer, "get_invoice", json!({"id": "inv_9"})).await;
    }
    assert_eq!(
        said(&call(&peer, "get_invoice", json!({"id": "inv_9"})).await),
        (STOP, Some(true))
    );

    let args = json!({"order_id": "A-8812", "amount_cents": 3200, "idempotency_key": "refund-A-8812-1"});
    let first = tokio::spawn({
        let (peer, args) = (peer.clone(), args.clone());
        async move { call(&peer, "refund_order", args).await }
    });
    while writes.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // While the first call runs: five retries, each the same CONFLICT, none told to stop.
    for retry in 1..=5 {
        let answer = call(&peer, "refund_order", args.clone()).await;
        assert_eq!(said(&answer), (IN_PROGRESS, Some(true)), "retry {retry}");
    }
    gate.notify_one();
    let outcome = first.await.unwrap();
    assert_eq!(said(&outcome), (REFUSED, Some(true)));
    // The stored outcome, replayed: the first call's bytes each time, never "Nothing has changed".
    for replay in 1..=3 {
        let again = call(&peer, "refund_order", args.clone()).await;
        assert_eq!(
            serde_json::to_string(&again).unwrap(),
            serde_json::to_string(&outcome).unwrap(),
            "replay {replay}"
        );
    }
    assert_eq!(writes.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn in_memory_retrying_as_the_conflict_says_never_meets_the_stop() {
    let keys = Keys::Memory(Mutex::new(Idempotency::default()));
    retrying_as_the_conflict_says(keys, |refunds| EnvelopeServer::new(refunds).ledger(Ledger::new(2))).await;
}

#[tokio::test]
async fn shared_retrying_as_the_conflict_says_never_meets_the_stop() {
    let store = Arc::new(MemoryStore::default());
    let keys = Keys::Shared(SharedIdempotency::new(Arc::clone(&store), 86_400));
    retrying_as_the_conflict_says(keys, move |refunds| {
        EnvelopeServer::new(refunds).shared_ledger(SharedLedger::new(store, "conversation-1", 2))
    })
    .await;
}
