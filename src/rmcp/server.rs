//! [`EnvelopeServer`]: a `ServerHandler` around any rmcp handler (one written
//! with `#[tool_router]` and `#[tool_handler]`, or by hand) whose tool calls
//! never fail in a way the model cannot read. Everything but `tools/call` is
//! the inner handler's own (handler.rs forwards it).

use std::fmt;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, OnceLock};

use ::rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, PaginatedRequestParams, Tool};
use ::rmcp::service::RequestContext;
use ::rmcp::{ErrorData, RoleServer, ServerHandler};
use futures::future::BoxFuture;
use futures::FutureExt;

use super::answer::{answer_result, internal_error_result, LogLine};
use super::conversation::LedgerRequest;
use super::idempotency::watched;
use super::input_schema::{ArgumentCheck, InputSchemas};
use super::thrown::{within, within_sync, CallScope};
use crate::contract::{diff, read_tools, tools_of};
use crate::delta::ContractDelta;
use crate::error::SpecError;
use crate::handler::{HandlerOutcome, ThrownMessages};
use crate::idempotency::ToolArguments;
use crate::ledger::{Ledger, Replacement};
use crate::locale::Locale;
use crate::read::ResultText;
use crate::recovery::{unknown_tool_answer, UnknownToolAnswer};
use crate::stores::{SharedLedger, StateStore};
use crate::tool_error::render::Format;

/// How many pages of `tools/list` are read to find a tool by name, for a
/// handler without `get_tool`: a bound against a cursor that never ends.
const MAX_TOOL_PAGES: usize = 100;

/// An rmcp `ServerHandler` that answers each failed tool call with an
/// envelope the model can act on:
///
/// - a tool the inner handler does not list: as the MCP specification says
///   (2025-11-25, 2026-07-28), a JSON-RPC error -32602 whose message names
///   the tools it does list and whose `data` is the UNKNOWN_ACTION envelope,
///   in place of rmcp's bare "tool not found"; or, with
///   [`UnknownToolAnswer::ToolResult`], SEP-2145's `isError` result carrying
///   the envelope (`recovery::unknown_tool_answer` decides both);
/// - arguments that fail the tool's published input schema: a
///   `<validation_error>`, before the handler runs (the schema's errors,
///   found by the `jsonschema` crate, worded by the core);
/// - a handler that panics, or returns a JSON-RPC internal error: an
///   INTERNAL_ERROR under a fresh correlation id, the panic or error text
///   going only to the log line (`handler::handler_answer`, as every integration), by default
///   `tracing::error!` with target `mcp_envelope`;
/// - a [`super::ToolCallError`] holding a library's failure (an
///   `std::io::Error`, a `reqwest::Error`): the code its structure tells
///   (NOT_FOUND, CONFLICT, TIMEOUT, RATE_LIMITED, ...), worded by the core,
///   naming the argument its path or URL came from, under a fresh
///   correlation id; the library's text goes to the same log.
///
/// The other failures come back as an `isError` result. A successful call, a
/// tool error the handler returned itself (such as a
/// [`super::ToolCallError`]), and the request's own faults (invalid params or
/// request, which are the client's to fix) pass through untouched.
///
/// ```
/// use mcp_envelope::rmcp::{EnvelopeServer, UnknownToolAnswer};
/// use mcp_envelope::Format;
/// use rmcp::ServerHandler;
///
/// struct Plain;
/// impl ServerHandler for Plain {}
///
/// let server = EnvelopeServer::new(Plain)
///     .format(Format::Text)
///     .unknown_tool(UnknownToolAnswer::ProtocolError)
///     .log_with(|line| eprintln!("{line}"));
/// assert_eq!(server.inner().get_info().capabilities.tools, None);
/// ```
pub struct EnvelopeServer<H> {
    inner: H,
    format: Format,
    locale: Locale,
    unknown_tool: UnknownToolAnswer,
    validate_arguments: bool,
    log: LogLine,
    input_schemas: Arc<InputSchemas>,
    /// The repeat ledger, when one is kept: this process's, one in a store replicas share, or one per conversation.
    ledger: Option<Arc<HeldLedger>>,
    /// The contract a model learned, when a lockfile was given.
    contract: Option<Arc<Contract>>,
}

/// A lockfile's tools, and the deltas from them to the tools the inner
/// handler lists, computed at the first failed argument check.
struct Contract {
    locked: Vec<crate::contract::Tool>,
    deltas: OnceLock<Vec<ContractDelta>>,
}

impl<H: ServerHandler> EnvelopeServer<H> {
    /// Wraps `inner`: XML envelopes, English words for people, arguments
    /// checked, log lines to `tracing`.
    pub fn new(inner: H) -> Self {
        EnvelopeServer {
            inner,
            format: Format::Xml,
            locale: Locale::En,
            unknown_tool: UnknownToolAnswer::ProtocolError,
            validate_arguments: true,
            log: Arc::new(|line: &str| tracing::error!(target: "mcp_envelope", "{line}")),
            input_schemas: Arc::default(),
            ledger: None,
            contract: None,
        }
    }

    /// The contract the model learned, as a lockfile's text (`mcp-envelope
    /// contract lock`; docs/contract-diff.md): a call whose arguments fail
    /// the schema then hears, in its `<validation_error>`, the BREAKING and
    /// RISKY changes of that tool since the lock (five at most). The deltas
    /// are computed once, from the tools the inner handler lists. A lockfile
    /// the core cannot read is refused here, at start.
    pub fn lockfile(mut self, lockfile: &str) -> Result<Self, SpecError> {
        let locked = read_tools(lockfile, "the lockfile")?;
        self.contract = Some(Arc::new(Contract {
            locked,
            deltas: OnceLock::new(),
        }));
        Ok(self)
    }

    /// Sends every tool result through `ledger`, the repeat ledger of the one
    /// session this server talks to (docs/repeat-ledger.md): an identical
    /// failure comes back shorter, and past its limit as a stop. An unknown
    /// tool's answer stays out of it, as in the JS and Python integrations.
    pub fn ledger(mut self, ledger: Ledger) -> Self {
        self.ledger = Some(Arc::new(HeldLedger::Memory(Mutex::new(ledger))));
        self
    }

    /// Sends every tool result through `ledger`, a repeat ledger whose
    /// streaks live in a store the server's replicas share (docs/state.md):
    /// a model repeating a failure on alternating replicas meets the same
    /// stop. A store that cannot answer leaves the result as it is (the
    /// ledger fails open).
    pub fn shared_ledger<S: StateStore + 'static>(mut self, ledger: SharedLedger<S>) -> Self {
        self.ledger = Some(Arc::new(HeldLedger::Shared(Box::new(ledger))));
        self
    }

    /// Sends each tool result through the ledger `choose` picks for the
    /// call's conversation, from what the [`LedgerRequest`] says of it; a call
    /// it gives none (or for which it panics) goes without one. Its
    /// `conversation` is the `_meta` key `mcp-envelope/conversation` the
    /// client sent, else the Streamable HTTP session id: on stateless HTTP the
    /// client names its conversation (docs/state.md). A ledger per
    /// conversation in this process alone is a `SharedLedger` over an
    /// `Arc<MemoryStore>`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_envelope::rmcp::EnvelopeServer;
    /// use mcp_envelope::stores::{MemoryStore, SharedLedger};
    /// # struct Plain;
    /// # impl rmcp::ServerHandler for Plain {}
    ///
    /// let store = Arc::new(MemoryStore::default());
    /// let server = EnvelopeServer::new(Plain).ledger_for(move |request| {
    ///     request.conversation.map(|conversation| SharedLedger::new(store.clone(), conversation, 2))
    /// });
    /// ```
    pub fn ledger_for<S, F>(mut self, choose: F) -> Self
    where
        S: StateStore + 'static,
        F: Fn(&LedgerRequest<'_>) -> Option<SharedLedger<S>> + Send + Sync + 'static,
    {
        let choose: Box<ChooseLedger> =
            Box::new(move |request| choose(request).map(|ledger| Box::new(ledger) as Box<dyn ObserveShared>));
        self.ledger = Some(Arc::new(HeldLedger::PerConversation(choose)));
        self
    }

    /// The form of the envelopes this wrapper writes (unknown tool,
    /// internal error, a library's failure a [`super::ToolCallError`] holds,
    /// unless it sets its own); a `<validation_error>` is always XML.
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// How a call of a tool the inner handler does not list is answered:
    /// [`UnknownToolAnswer::ProtocolError`] (the default, as the
    /// specification says) or [`UnknownToolAnswer::ToolResult`] (SEP-2145's
    /// `isError` result, its envelope in [`Self::format`]).
    pub fn unknown_tool(mut self, answer: UnknownToolAnswer) -> Self {
        self.unknown_tool = answer;
        self
    }

    /// The language of the words for people (the internal error's customer message).
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// Whether arguments are checked against the input schema before the
    /// handler runs (on unless set). Off, a wrong argument reaches rmcp's own
    /// deserialization, which answers with serde's words.
    pub fn validate_arguments(mut self, validate: bool) -> Self {
        self.validate_arguments = validate;
        self
    }

    /// Sends the log lines (`code=INTERNAL_ERROR correlationId="…" tool="…"
    /// exception="…"`, and a library's failure's under its code) to `log`
    /// instead of `tracing`.
    pub fn log_with(mut self, log: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.log = Arc::new(log);
        self
    }

    /// The wrapped handler.
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// The wrapped handler, unwrapped.
    pub fn into_inner(self) -> H {
        self.inner
    }

    pub(super) async fn enveloped_call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let span = tool_call_span(&request.name);
        #[cfg(feature = "opentelemetry")]
        continue_trace(&span, &context.meta.0 .0);
        let answer = tracing::Instrument::instrument(self.answer_call(request, context), span.clone()).await;
        record_answer(&span, &answer);
        answer
    }

    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = match self.inner.get_tool(&request.name) {
            Some(tool) => Some(tool),
            None => match self.listed_tools(&context).await {
                Some(tools) => match tools.iter().find(|t| t.name == request.name) {
                    Some(tool) => Some(tool.clone()),
                    None => {
                        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
                        return self.unknown_tool_answer(&request.name, &names);
                    }
                },
                // A handler that lists no tools: whatever it answers stands.
                None => None,
            },
        };
        let name = request.name.clone();
        // Only a ledger compares arguments.
        let arguments = match (&self.ledger, &request.arguments) {
            (Some(_), Some(given)) => Some(ToolArguments::from_object(given)),
            _ => None,
        };
        // A ledger per conversation is picked before the context goes to the handler.
        let chosen = match self.ledger.as_deref() {
            Some(HeldLedger::PerConversation(choose)) => {
                let request = LedgerRequest::of(&context);
                std::panic::catch_unwind(AssertUnwindSafe(|| choose(&request))).unwrap_or(None)
            }
            _ => None,
        };
        let revision = context.protocol_version();
        let (answer, sent_instead) = watched(self.answer(tool, request, context)).await;
        let answer = for_revision(revision.as_ref(), answer);
        match (answer, &self.ledger) {
            // A store's replay, in-progress CONFLICT or SERVER_BUSY goes through no ledger step.
            (Ok(CallToolResponse::Complete(result)), Some(ledger)) if !sent_instead => Ok(ledger
                .observed(&name, result, arguments.as_ref(), chosen.as_deref())
                .await
                .into()),
            (answer, _) => answer,
        }
    }

    /// The core's answer to a call of `tool`, which the server does not list,
    /// as rmcp's error or result.
    fn unknown_tool_answer(&self, tool: &str, names: &[&str]) -> Result<CallToolResponse, ErrorData> {
        /// What the core writes: `{"error": {..}}` or `{"result": {..}}`.
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        enum Answer {
            Error(ErrorData),
            Result(CallToolResult),
        }
        let json = unknown_tool_answer(tool, names, self.unknown_tool, self.format);
        match serde_json::from_str(&json) {
            Ok(Answer::Error(error)) => Err(error),
            Ok(Answer::Result(result)) => Ok(result.into()),
            // Not reached: the core writes what rmcp reads. Were it refused,
            // the client still hears the call was of no tool.
            Err(_) => Err(ErrorData::invalid_params(format!("Unknown tool: {tool}"), None)),
        }
    }

    /// The argument check, then the handler, its panics and internal errors answered.
    async fn answer(
        &self,
        tool: Option<Tool>,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let (Some(tool), true) = (&tool, self.validate_arguments) {
            match self.input_schemas.check(tool, request.arguments.as_ref()) {
                ArgumentCheck::Valid => {}
                ArgumentCheck::Invalid(failure) => {
                    // The deltas are looked up for failed calls only.
                    let deltas = match &self.contract {
                        Some(contract) => self.contract_deltas(contract, &context).await,
                        None => &[],
                    };
                    match failure.result(deltas) {
                        Ok(result) => return Ok(result.into()),
                        Err(why) => tracing::warn!(target: "mcp_envelope", "{why}"),
                    }
                }
                ArgumentCheck::Unchecked(why) => tracing::warn!(target: "mcp_envelope", "{why}"),
            }
        }
        let name = request.name.clone();
        // The call a `ToolCallError` holding a library's failure is answered
        // for, when rmcp turns it into the result inside the handler.
        let scope = Arc::new(CallScope {
            tool: name.to_string(),
            arguments: request.arguments.clone(),
            format: self.format,
            locale: self.locale,
            log: Arc::clone(&self.log),
        });
        // A handler may panic before its future exists, or while it runs.
        let call = std::panic::catch_unwind(AssertUnwindSafe(|| {
            within_sync(Arc::clone(&scope), || self.inner.call_tool(request, context))
        }));
        let outcome = match call {
            Ok(future) => within(scope, AssertUnwindSafe(future).catch_unwind()).await,
            Err(panic) => Err(panic),
        };
        match outcome {
            Ok(Err(error)) if error.code == ErrorCode::INTERNAL_ERROR => Ok(self.internal_error(&name, &error)),
            // Any other error the handler returned for the client is the tool's
            // failure, answered by the core (docs/thrown-errors.md); a URL
            // elicitation is a request to the client, not a failure.
            Ok(Err(error)) if error.code.0 != URL_ELICITATION_REQUIRED => {
                let outcome = HandlerOutcome::RpcError {
                    code: error.code.0.into(),
                    message: &error.message,
                    shown: ThrownMessages::Shown,
                };
                Ok(answer_result(&name, outcome, self.format, self.locale, self.log.as_ref()).into())
            }
            Ok(answer) => answer,
            Err(panic) => Ok(self.internal_error(&name, &PanicText(panic_text(panic.as_ref())))),
        }
    }

    /// The deltas from the lockfile to the tools listed now, computed once;
    /// none while the tools cannot be listed.
    async fn contract_deltas<'c>(
        &self,
        contract: &'c Contract,
        context: &RequestContext<RoleServer>,
    ) -> &'c [ContractDelta] {
        if contract.deltas.get().is_none() {
            let listed = self.listed_tools(context).await.unwrap_or_default();
            let current = serde_json::to_value(&listed).map_err(|e| SpecError::invalid(e.to_string()));
            match current.and_then(|tools| tools_of(tools, "the listed tools")) {
                Ok(current) => {
                    let _ = contract.deltas.set(diff(&contract.locked, &current));
                }
                Err(why) => tracing::warn!(target: "mcp_envelope", "no contract deltas: {why}"),
            }
        }
        contract.deltas.get().map_or(&[], Vec::as_slice)
    }

    /// Every tool the inner handler lists, or `None` when it lists none.
    async fn listed_tools(&self, context: &RequestContext<RoleServer>) -> Option<Vec<Tool>> {
        let mut tools = Vec::new();
        let mut cursor = None;
        for _ in 0..MAX_TOOL_PAGES {
            let page = PaginatedRequestParams::default().with_cursor(cursor);
            let listed = self.inner.list_tools(Some(page), context.clone()).await.ok()?;
            tools.extend(listed.tools);
            cursor = listed.next_cursor;
            if cursor.is_none() {
                break;
            }
        }
        Some(tools)
    }

    /// INTERNAL_ERROR under a fresh correlation id; `failure` goes to the log only.
    fn internal_error(&self, tool: &str, failure: &dyn fmt::Display) -> CallToolResponse {
        internal_error_result(tool, &failure.to_string(), self.format, self.locale, self.log.as_ref()).into()
    }
}

/// The `tools/call` span, with OpenTelemetry's names (`otel.name`,
/// `otel.kind`, which `tracing-opentelemetry` maps) and the MCP semantic
/// conventions' attributes; the error attributes are recorded once the
/// answer is known (docs/telemetry.md).
fn tool_call_span(tool: &str) -> tracing::Span {
    tracing::info_span!(
        target: "mcp_envelope",
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %tool,
        error.type = tracing::field::Empty,
        mcp_envelope.error.code = tracing::field::Empty,
        mcp_envelope.error.category = tracing::field::Empty,
        mcp_envelope.error.retryable = tracing::field::Empty,
        mcp_envelope.error.correlation_id = tracing::field::Empty,
    )
}

/// Makes the trace context a client sent in the request's `_meta`
/// (`traceparent`, `tracestate`: the MCP semantic conventions, SEP-414) the
/// span's parent, read by the application's registered propagator
/// (`opentelemetry::global::set_text_map_propagator`). A request without a
/// `traceparent` keeps the parent the span already has.
#[cfg(feature = "opentelemetry")]
fn continue_trace(span: &tracing::Span, meta: &::rmcp::model::JsonObject) {
    use opentelemetry::propagation::Extractor;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    /// `_meta`'s string values as a carrier; any other value is not a header.
    struct Meta<'a>(&'a ::rmcp::model::JsonObject);
    impl Extractor for Meta<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(serde_json::Value::as_str)
        }
        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(String::as_str).collect()
        }
    }

    if span.is_disabled() || !meta.contains_key("traceparent") {
        return;
    }
    let parent = opentelemetry::global::get_text_map_propagator(|propagator| propagator.extract(&Meta(meta)));
    // An error here means no OpenTelemetry layer holds the span: nothing to continue.
    let _ = span.set_parent(parent);
}

/// Records on `span` the core's attributes for a result
/// (`telemetry::span_attributes`), or a JSON-RPC error's code as `error.type`.
fn record_answer(span: &tracing::Span, answer: &Result<CallToolResponse, ErrorData>) {
    // No subscriber wants the span: the result is not read again on the call path.
    if span.is_disabled() {
        return;
    }
    let attributes = match answer {
        Ok(CallToolResponse::Complete(result)) => serde_json::to_string(result)
            .ok()
            .and_then(|json| crate::telemetry::span_attributes(&json).ok())
            .unwrap_or_default(),
        Err(error) => {
            span.record("error.type", error.code.0.to_string());
            span.record("otel.status_code", "ERROR");
            return;
        }
        Ok(_) => return,
    };
    for (name, value) in &attributes {
        match serde_json::from_str::<serde_json::Value>(value) {
            Ok(serde_json::Value::String(text)) => span.record(*name, text.as_str()),
            Ok(serde_json::Value::Bool(flag)) => span.record(*name, flag),
            _ => span.record(*name, value.as_str()),
        };
    }
    if !attributes.is_empty() {
        span.record("otel.status_code", "ERROR");
    }
}

/// A JSON-RPC error, or an `input_required` result, as the request's protocol
/// revision wants it sent (`revision::answer_for_revision_json`,
/// docs/revisions.md): on 2026-07-28 a URL elicitation error becomes an
/// `input_required` result, on 2025-11-25 an `input_required` result the
/// error -32042. Any other answer, or one the core cannot read, goes as it came.
fn for_revision(
    revision: Option<&::rmcp::model::ProtocolVersion>,
    answer: Result<CallToolResponse, ErrorData>,
) -> Result<CallToolResponse, ErrorData> {
    let Some(revision) = revision else { return answer };
    let given = match &answer {
        Err(error) => serde_json::json!({ "error": error }),
        Ok(CallToolResponse::InputRequired(asked)) => serde_json::json!({ "result": asked }),
        Ok(_) => return answer,
    };
    let request = serde_json::json!({ "revision": revision.as_str(), "answer": given }).to_string();
    /// What the core writes: `{"error": {..}}` or `{"result": {..}}`.
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Sent {
        Error(ErrorData),
        Result(serde_json::Value),
    }
    let sent = crate::revision::answer_for_revision_json(&request)
        .ok()
        .and_then(|json| serde_json::from_str::<Sent>(&json).ok());
    match sent {
        Some(Sent::Error(error)) => Err(error),
        Some(Sent::Result(result)) if result.get("resultType") == Some(&serde_json::json!("input_required")) => {
            serde_json::from_value(result).map_or(answer, |asked| Ok(CallToolResponse::InputRequired(asked)))
        }
        Some(Sent::Result(result)) => serde_json::from_value::<CallToolResult>(result).map_or(answer, |r| Ok(r.into())),
        None => answer,
    }
}

/// The JSON-RPC error a tool raises when it needs the user to open a URL
/// (`UrlElicitationRequired`): a request to the client, answered as the
/// request's revision wants it (`for_revision`), never an envelope.
const URL_ELICITATION_REQUIRED: i32 = -32042;

/// The repeat ledger an [`EnvelopeServer`] sends results through.
enum HeldLedger {
    /// This process's ledger (one stdio client: one session).
    Memory(Mutex<Ledger>),
    /// A ledger whose streaks a store holds, behind a trait object so the
    /// server's type does not name the store.
    Shared(Box<dyn ObserveShared>),
    /// The ledger of each call's conversation, picked from its request.
    PerConversation(Box<ChooseLedger>),
}

/// [`EnvelopeServer::ledger_for`]'s function, its ledgers behind a trait object.
type ChooseLedger = dyn Fn(&LedgerRequest<'_>) -> Option<Box<dyn ObserveShared>> + Send + Sync;

/// [`SharedLedger::observe`] for any store.
trait ObserveShared: Send + Sync {
    fn observe<'a>(
        &'a self,
        tool: &'a str,
        result: &'a ResultText,
        arguments: Option<&'a ToolArguments>,
    ) -> BoxFuture<'a, Option<Replacement>>;
}

impl<S: StateStore + 'static> ObserveShared for SharedLedger<S> {
    fn observe<'a>(
        &'a self,
        tool: &'a str,
        result: &'a ResultText,
        arguments: Option<&'a ToolArguments>,
    ) -> BoxFuture<'a, Option<Replacement>> {
        Box::pin(SharedLedger::observe(self, tool, result, arguments))
    }
}

impl HeldLedger {
    /// A result as the ledger answers it: a repeated failure replaced, in
    /// the result's own form; anything else sent as it is (a success ends
    /// the streak), through `chosen` for a ledger per conversation.
    async fn observed(
        &self,
        tool: &str,
        result: CallToolResult,
        arguments: Option<&ToolArguments>,
        chosen: Option<&dyn ObserveShared>,
    ) -> CallToolResult {
        let read = super::result_text(&result);
        let replaced = match (self, chosen) {
            (HeldLedger::Memory(ledger), _) => {
                // A poisoned lock only means another call panicked while holding it; the ledger's state is still whole.
                let mut ledger = ledger.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                ledger.observe(tool, &read, arguments)
            }
            (HeldLedger::Shared(ledger), _) => ledger.observe(tool, &read, arguments).await,
            (HeldLedger::PerConversation(_), Some(ledger)) => ledger.observe(tool, &read, arguments).await,
            (HeldLedger::PerConversation(_), None) => None,
        };
        match replaced {
            Some(replaced) => super::call_tool_result(&replaced.error, replaced.format),
            None => result,
        }
    }
}

impl<H: Clone> Clone for EnvelopeServer<H> {
    fn clone(&self) -> Self {
        EnvelopeServer {
            inner: self.inner.clone(),
            format: self.format,
            locale: self.locale,
            unknown_tool: self.unknown_tool,
            validate_arguments: self.validate_arguments,
            log: Arc::clone(&self.log),
            input_schemas: Arc::clone(&self.input_schemas),
            // One ledger for the clones: they serve the same session.
            ledger: self.ledger.clone(),
            contract: self.contract.clone(),
        }
    }
}

impl<H: fmt::Debug> fmt::Debug for EnvelopeServer<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvelopeServer")
            .field("inner", &self.inner)
            .field("format", &self.format)
            .field("locale", &self.locale)
            .field("unknown_tool", &self.unknown_tool)
            .field("validate_arguments", &self.validate_arguments)
            .field("ledger", &self.ledger.is_some())
            .field("lockfile", &self.contract.is_some())
            .finish_non_exhaustive()
    }
}

/// A panic's message as the log line's exception.
struct PanicText(String);

impl fmt::Display for PanicText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "panic: {}", self.0)
    }
}

/// The text a panic carries (`panic!("…")` gives a `&str` or a `String`).
pub(super) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => (*text).to_owned(),
        (None, Some(text)) => text.clone(),
        (None, None) => "a panic without a text payload".to_owned(),
    }
}
