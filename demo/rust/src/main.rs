//! The demo billing server of demo/billing.md on rmcp, as a Rust server
//! author writes it: `#[tool_router]` tools over `Parameters<T>` with
//! schemars schemas, wrapped in mcp-envelope's `EnvelopeServer` (unknown
//! tools, arguments that fail the schema, panics), the recovery helpers for
//! each fault, the core's idempotency store and in-call backoff. Its
//! TypeScript and Python twins answer every fault with the same bytes.
//! Served over stdio, or with `--http PORT` over MCP Streamable HTTP at
//! `http://127.0.0.1:PORT/mcp`. With `BILLING_REDIS_URL` its state
//! (idempotency keys, the repeat ledger, the books) lives in that Redis,
//! shared by its replicas.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mcp_envelope::backoff::{backoff, Request, Step, DEFAULT_BASE_MS, DEFAULT_MAX_ATTEMPTS};
use mcp_envelope::idempotency::{Begin, Idempotency};
use mcp_envelope::raw;
use mcp_envelope::recovery::{access_error, empty_result, upstream_error, AccessKind, EmptyResult, UpstreamFailure};
use mcp_envelope::rmcp::{call_tool_result, idempotency_answer, result_from_json, EnvelopeServer, UnknownToolAnswer};
use mcp_envelope::stores::{RedisStore, SharedBegin, SharedFinish, SharedIdempotency, SharedLedger};
use mcp_envelope::{code, Category, Format, Ledger, Locale, Severity, ToolArguments, ToolError};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResult, ContentBlock, ProgressNotificationParam, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The backoff's budget inside one call: under a client's usual timeout.
const BACKOFF_DEADLINE_MS: u64 = 2_500;

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Open,
    Paid,
}

#[derive(Deserialize, JsonSchema)]
struct ListInvoices {
    #[schemars(email)]
    customer: String,
    status: Option<Status>,
}

#[derive(Deserialize, JsonSchema)]
struct GetInvoice {
    #[schemars(email)]
    customer: String,
    #[schemars(regex(pattern = r"^inv_[a-z0-9]+$"))]
    invoice_id: String,
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct RefundOrder {
    #[schemars(regex(pattern = r"^inv_[a-z0-9]+$"))]
    invoice_id: String,
    #[schemars(range(max = 10000), extend("exclusiveMinimum" = 0))]
    amount: f64,
    #[schemars(length(min = 8))]
    idempotency_key: String,
}

struct Invoice {
    id: &'static str,
    cents: i64,
    status: Status,
    /// Before any refund.
    refundable: i64,
}

/// jo@example.com's invoices, in listing order.
const INVOICES: [Invoice; 2] = [
    Invoice {
        id: "inv_1",
        cents: 12_000,
        status: Status::Paid,
        refundable: 12_000,
    },
    Invoice {
        id: "inv_2",
        cents: 7_550,
        status: Status::Open,
        refundable: 0,
    },
];

/// What a refund writes and later calls read, in this process: the cents
/// refunded per invoice and the refunds made.
#[derive(Default)]
struct MemoryBooks {
    refunded: HashMap<&'static str, i64>,
    refunds: i64,
}

/// A refund as the books took it.
enum Booked {
    /// Refunded: the N-th refund ("rf_N").
    Refund(i64),
    /// Refused, nothing written: the cents still refundable.
    Refused(i64),
}

/// The refund on the books in Redis, the script every one of the five demo
/// servers runs: the check and the write are one step on the Redis server.
const BOOKS_SCRIPT: &str = include_str!("../../books.lua");

/// Where the state lives.
#[derive(Clone)]
enum State {
    /// This process's: one stdio client, or every session of the HTTP server.
    Memory {
        books: Arc<Mutex<MemoryBooks>>,
        idempotency: Arc<Mutex<Idempotency>>,
    },
    /// A Redis every replica shares (`BILLING_REDIS_URL`): a refund's key
    /// replays the first outcome on any replica, and the repeat ledger of
    /// each call's conversation sees a failure repeated across them.
    Redis {
        connection: ConnectionManager,
        store: RedisStore,
        idempotency: Arc<SharedIdempotency<RedisStore>>,
        books: redis::Script,
    },
}

#[derive(Clone)]
struct Billing {
    state: State,
    tool_router: ToolRouter<Self>,
}

fn money(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

fn line(invoice: &Invoice) -> String {
    let status = if invoice.status == Status::Paid { "paid" } else { "open" };
    format!("{}: {} EUR, {status}", invoice.id, money(invoice.cents))
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A result the core wrote as JSON, as rmcp's type.
fn from_core(json: Result<String, mcp_envelope::SpecError>) -> CallToolResult {
    match json.and_then(|json| result_from_json(&json)) {
        Ok(result) => result,
        // The core's helpers are given fixed inputs here: a refusal is this server's bug.
        Err(refused) => panic!("the demo server built a spec the core refuses: {refused}"),
    }
}

/// The idempotency store's answer instead of the write, as the repeat ledger must see it.
fn store_answer(outcome: &str, result: &str) -> CallToolResult {
    match idempotency_answer(outcome, result) {
        Ok(result) => result,
        Err(refused) => panic!("the core refused its own store's answer: {refused}"),
    }
}

fn error_result(error: &ToolError) -> CallToolResult {
    call_tool_result(error, Format::Xml)
}

fn forbidden(customer: &str) -> Option<CallToolResult> {
    (customer == "blocked@example.com").then(|| {
        let resource = format!("the invoices of {customer}");
        error_result(&access_error(
            AccessKind::Forbidden,
            Some("read"),
            Some(&resource),
            Locale::En,
        ))
    })
}

fn nothing_found(customer: &str) -> CallToolResult {
    let query = format!("for {customer}");
    from_core(empty_result(&EmptyResult {
        what: "invoices",
        query: Some(&query),
        ..Default::default()
    }))
}

/// The upstream billing API's answer to one attempt: its HTTP status and Retry-After, if it failed.
fn upstream_error_spec(status: u16, retry_after: Option<&str>) -> ToolError {
    let failure = UpstreamFailure {
        status,
        retry_after,
        service: Some("billing-api"),
        ..Default::default()
    };
    match upstream_error(&failure) {
        Ok(report) => report.error,
        Err(refused) => panic!("the demo server built an upstream failure the core refuses: {refused}"),
    }
}

fn not_found(message: String, invoice_id: Option<&str>) -> CallToolResult {
    let mut error = ToolError::new(code::NOT_FOUND, message).actions(["list_invoices"]);
    if let Some(id) = invoice_id {
        error = error.detail("invoiceId", id);
    }
    error_result(&error)
}

#[tool_router]
impl Billing {
    fn new(state: State) -> Self {
        Billing {
            state,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "List a customer's invoices.", annotations(read_only_hint = true))]
    async fn list_invoices(&self, Parameters(request): Parameters<ListInvoices>) -> CallToolResult {
        let customer = request.customer.as_str();
        if let Some(denied) = forbidden(customer) {
            return denied;
        }
        match customer {
            "partial@example.com" => from_core(raw::partial_result(
                r#"{"task":"invoices for partial@example.com","obtained":["inv_7: 10.00 EUR, open"],"failed":[{"item":"the 2025 archive","code":"TIMEOUT","message":"The archive did not answer in time."}]}"#,
            )),
            "flaky@example.com" => error_result(&upstream_error_spec(503, None)),
            "jo@example.com" => {
                let lines: Vec<String> = INVOICES
                    .iter()
                    .filter(|i| request.status.is_none_or(|s| s == i.status))
                    .map(line)
                    .collect();
                CallToolResult::success(vec![ContentBlock::text(lines.join("\n"))])
            }
            _ => nothing_found(customer),
        }
    }

    #[tool(description = "Get one invoice of a customer.", annotations(read_only_hint = true))]
    async fn get_invoice(
        &self,
        Parameters(request): Parameters<GetInvoice>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let (customer, id) = (request.customer.as_str(), request.invoice_id.as_str());
        if let Some(denied) = forbidden(customer) {
            return denied;
        }
        match id {
            "inv_404" => not_found(format!("No invoice inv_404 for {customer}."), Some("inv_404")),
            "inv_500" => panic!("db connect failed: password=hunter2"),
            "inv_504" => error_result(&upstream_error_spec(504, None)),
            "inv_429" | "inv_430" => self.with_backoff(id, &context).await,
            "inv_old" => error_result(
                &ToolError::new(
                    code::DEPRECATED,
                    "inv_old is an archived invoice id; use inv_1 instead.",
                )
                .suggest("Use invoice_id inv_1 from now on.")
                .severity(Severity::Warning),
            ),
            _ => match INVOICES.iter().find(|i| i.id == id && customer == "jo@example.com") {
                Some(invoice) => CallToolResult::success(vec![ContentBlock::text(line(invoice))]),
                None => not_found(format!("No invoice {id} for {customer}."), Some(id)),
            },
        }
    }

    /// The rate-limited upstream, retried inside the call as the core's backoff says.
    async fn with_backoff(&self, id: &str, context: &RequestContext<RoleServer>) -> CallToolResult {
        let started = Instant::now();
        let token = context.meta.get_progress_token();
        for attempt in 1.. {
            // inv_429 is rate limited on the first attempt only; inv_430 always.
            if id == "inv_429" && attempt > 1 {
                return CallToolResult::success(vec![ContentBlock::text("inv_1: 120.00 EUR, paid")]);
            }
            let failure = mcp_envelope::spec::to_json(&upstream_error_spec(429, Some("1")));
            let request = Request {
                attempt,
                elapsed_ms: started.elapsed().as_millis() as u64,
                deadline_ms: BACKOFF_DEADLINE_MS,
                failure,
                base_ms: DEFAULT_BASE_MS,
                max_attempts: DEFAULT_MAX_ATTEMPTS,
                random: None,
                format: Format::Xml,
            };
            match backoff(&request) {
                Ok(Step::Wait { wait_ms, progress }) => {
                    if let Some(token) = &token {
                        let note = ProgressNotificationParam::new(token.clone(), f64::from(progress.progress))
                            .with_total(f64::from(progress.total))
                            .with_message(progress.message);
                        let _ = context.peer.notify_progress(note).await;
                    }
                    tokio::time::sleep(Duration::from_millis(wait_ms)).await;
                }
                Ok(Step::Result(json)) => return from_core(Ok(json)),
                Err(refused) => panic!("the backoff refused its request: {refused}"),
            }
        }
        unreachable!("the backoff ends the loop")
    }

    #[tool(
        description = "Refund part or all of an invoice.",
        annotations(idempotent_hint = true)
    )]
    async fn refund_order(&self, Parameters(request): Parameters<RefundOrder>) -> CallToolResult {
        let arguments = ToolArguments::from_value(&serde_json::to_value(&request).unwrap_or_default());
        let key = request.idempotency_key.as_str();
        match &self.state {
            State::Memory { idempotency, .. } => {
                let begun = {
                    let mut store = idempotency.lock().unwrap_or_else(|p| p.into_inner());
                    store.begin("refund_order", key, &arguments, now_ms(), Format::Xml)
                };
                if !matches!(begun, Begin::Run(_)) {
                    // Through idempotency_answer: a replay or an in-progress CONFLICT takes no ledger step.
                    return store_answer(begun.outcome(), begun.result().unwrap_or_default());
                }
                let result = self.refund(&request).await;
                let json = serde_json::to_string(&result).unwrap_or_default();
                let mut store = idempotency.lock().unwrap_or_else(|p| p.into_inner());
                if let Err(refused) = store.finish("refund_order", key, Some(&json), now_ms()) {
                    eprintln!("billing: the outcome of refund key {key} was refused: {refused}");
                }
                result
            }
            State::Redis { idempotency, .. } => {
                let claim = match idempotency
                    .begin("refund_order", key, &arguments, now_ms(), Format::Xml)
                    .await
                {
                    SharedBegin::Run(claim) => claim,
                    SharedBegin::Send(outcome, result) => return store_answer(outcome, &result),
                };
                let result = self.refund(&request).await;
                let json = serde_json::to_string(&result).unwrap_or_default();
                match idempotency
                    .finish("refund_order", key, &claim, Some(&json), now_ms())
                    .await
                {
                    Ok(SharedFinish::Stored | SharedFinish::Released) => {}
                    // The claim stays until it expires: the key answers in-progress, the refund never runs twice.
                    Ok(SharedFinish::Unstored) => eprintln!("billing: the outcome of refund key {key} was not stored"),
                    Ok(SharedFinish::Absent) => {
                        eprintln!("billing: refund key {key} was claimed again before its outcome")
                    }
                    Err(refused) => eprintln!("billing: the outcome of refund key {key} was refused: {refused}"),
                }
                result
            }
        }
    }

    /// The write itself: at most once per idempotency key.
    async fn refund(&self, request: &RefundOrder) -> CallToolResult {
        let cents = (request.amount * 100.0).round() as i64;
        let id = request.invoice_id.as_str();
        let Some(invoice) = INVOICES.iter().find(|i| i.id == id) else {
            return not_found(format!("No invoice {id}."), None);
        };
        let booked = match self.book(invoice, cents).await {
            Ok(booked) => booked,
            // As any exception in a tool: EnvelopeServer answers INTERNAL_ERROR, the text in its log line only.
            Err(e) => panic!("the books could not be written: {e}"),
        };
        let number = match booked {
            Booked::Refund(number) => number,
            Booked::Refused(left) => {
                let refundable = money(left);
                return error_result(
                    &ToolError::new(
                        "REFUND_LIMIT_EXCEEDED",
                        format!(
                            "Refund of {} exceeds the refundable {refundable} on {id}.",
                            money(cents)
                        ),
                    )
                    .category(Category::Business)
                    .retryable(false)
                    .suggest("Tell the user the most that can be refunded; do not retry with a larger amount.")
                    .customer_message(format!("We can refund at most {refundable} EUR on this invoice.")),
                );
            }
        };
        let text = format!("Refunded {} EUR on {id} (refund rf_{number}).", money(cents));
        CallToolResult::success(vec![ContentBlock::text(text)])
    }

    /// Refunds `cents` on `invoice` if its balance allows: checked and
    /// written in one step, under the lock or by the books' script in Redis.
    async fn book(&self, invoice: &Invoice, cents: i64) -> Result<Booked, redis::RedisError> {
        match &self.state {
            State::Memory { books, .. } => {
                let mut books = books.lock().unwrap_or_else(|p| p.into_inner());
                let refundable = invoice.refundable - books.refunded.get(invoice.id).copied().unwrap_or(0);
                if cents > refundable {
                    return Ok(Booked::Refused(refundable));
                }
                *books.refunded.entry(invoice.id).or_default() += cents;
                books.refunds += 1;
                Ok(Booked::Refund(books.refunds))
            }
            State::Redis { connection, books, .. } => {
                let mut connection = connection.clone();
                let (refunded, value): (i64, i64) = books
                    .key(format!("{{billing-demo}}:refunded:{}", invoice.id))
                    .key("{billing-demo}:refunds")
                    .arg(invoice.refundable)
                    .arg(cents)
                    .invoke_async(&mut connection)
                    .await?;
                Ok(if refunded == 1 {
                    Booked::Refund(value)
                } else {
                    Booked::Refused(value)
                })
            }
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Billing {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info.name = "billing".into();
        info.server_info.version = "1.0.0".into();
        info
    }
}

/// How an unknown tool is answered: `BILLING_UNKNOWN_TOOL` is `protocol-error`
/// (the default, as the specification says) or `tool-result` (SEP-2145's
/// result), as the demo's other servers read it.
fn unknown_tool_answer() -> Result<UnknownToolAnswer, String> {
    match std::env::var("BILLING_UNKNOWN_TOOL").as_deref() {
        Err(_) | Ok("protocol-error") => Ok(UnknownToolAnswer::ProtocolError),
        Ok("tool-result") => Ok(UnknownToolAnswer::ToolResult),
        Ok(other) => Err(format!(
            "BILLING_UNKNOWN_TOOL is {other:?}: expected protocol-error or tool-result"
        )),
    }
}

/// Where the server is served: stdio (the default), or MCP Streamable HTTP on loopback.
enum Transport {
    Stdio,
    Http(u16),
}

/// Reads the command line: nothing (stdio) or `--http PORT`.
fn transport() -> Result<Transport, String> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.as_slice() {
        [] => Ok(Transport::Stdio),
        [flag, port] if flag == "--http" => port
            .parse()
            .map(Transport::Http)
            .map_err(|_| format!("--http takes a port, not {port:?}")),
        _ => Err("usage: demo-billing [--http PORT]".to_owned()),
    }
}

/// The server one client talks to: the billing tools (their books shared by
/// every client) wrapped in mcp-envelope's `EnvelopeServer`, with a repeat
/// ledger of its own, or in Redis the ledger of each call's conversation
/// (the `_meta` key `mcp-envelope/conversation`, else its session): the
/// audit names one conversation, whichever replica answers.
fn with_envelopes(billing: Billing, answer: UnknownToolAnswer) -> EnvelopeServer<Billing> {
    let ledger_store = match &billing.state {
        State::Memory { .. } => None,
        State::Redis { store, .. } => Some(store.clone()),
    };
    let server = EnvelopeServer::new(billing);
    let server = match ledger_store {
        None => server.ledger(Ledger::new(2)),
        Some(store) => server.ledger_for(move |request| {
            request
                .conversation
                .map(|conversation| SharedLedger::new(store.clone(), conversation, 2))
        }),
    };
    server.unknown_tool(answer).log_with(|line| eprintln!("{line}"))
}

/// The state in this process, or with `BILLING_REDIS_URL` (`redis://HOST:PORT`)
/// in that Redis, connected here so that a Redis that cannot be reached stops
/// the server at start.
async fn state() -> Result<State, String> {
    let Ok(url) = std::env::var("BILLING_REDIS_URL") else {
        return Ok(State::Memory {
            books: Arc::default(),
            idempotency: Arc::default(),
        });
    };
    let client = redis::Client::open(url.as_str()).map_err(|e| format!("BILLING_REDIS_URL {url}: {e}"))?;
    // A Redis that is down fails at once (no reconnection backoff to wait
    // out: the next call reconnects); one that hangs is cut at the store's
    // timeout (2 s). Either way the refund is answered SERVER_BUSY, not left
    // waiting.
    let config = ConnectionManagerConfig::new()
        .set_number_of_retries(0)
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(Duration::from_secs(1)));
    let connection = client
        .get_connection_manager_with_config(config)
        .await
        .map_err(|e| format!("cannot reach BILLING_REDIS_URL {url}: {e}"))?;
    let store = RedisStore::new(connection.clone(), "").timeout(RedisStore::DEFAULT_TIMEOUT);
    Ok(State::Redis {
        connection,
        idempotency: Arc::new(SharedIdempotency::new(store.clone(), 86_400)),
        store,
        books: redis::Script::new(BOOKS_SCRIPT),
    })
}

/// Serves one client over stdio, or over Streamable HTTP one server per
/// session (`session` builds it), behind rmcp's default check that the
/// `Host` header names loopback (against DNS rebinding).
async fn serve<S: ServerHandler>(
    transport: Transport,
    session: impl Fn() -> S + Send + Sync + 'static,
) -> Result<(), String> {
    match transport {
        Transport::Stdio => {
            let running = session()
                .serve(rmcp::transport::stdio())
                .await
                .map_err(|e| format!("the server did not start: {e}"))?;
            let _ = running.waiting().await;
            Ok(())
        }
        Transport::Http(port) => {
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
                .await
                .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
            let service = StreamableHttpService::new(
                move || Ok(session()),
                std::sync::Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            eprintln!("billing: serving MCP Streamable HTTP at http://127.0.0.1:{port}/mcp");
            axum::serve(listener, axum::Router::new().nest_service("/mcp", service))
                .await
                .map_err(|e| format!("the HTTP server stopped: {e}"))
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let (answer, transport) = match unknown_tool_answer().and_then(|answer| Ok((answer, transport()?))) {
        Ok(chosen) => chosen,
        Err(why) => {
            eprintln!("billing: {why}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let billing = match state().await {
        Ok(state) => Billing::new(state),
        Err(why) => {
            eprintln!("billing: {why}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // BILLING_ENVELOPE=off serves the same tools without EnvelopeServer: the
    // conformance suite's plain run, to show the wrapper costs no check.
    // Their failures are then rmcp's alone (a panic, a raw envelope).
    let served = if std::env::var("BILLING_ENVELOPE").as_deref() == Ok("off") {
        serve(transport, move || billing.clone()).await
    } else {
        serve(transport, move || with_envelopes(billing.clone(), answer)).await
    };
    match served {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("billing: {why}");
            std::process::ExitCode::FAILURE
        }
    }
}
