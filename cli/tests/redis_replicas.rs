//! Two replicas of one rmcp server, separate processes over Streamable HTTP,
//! sharing one Redis (Debian's redis-server, started here on loopback with an
//! append-only file fsynced on every write): the same idempotency key sent to
//! both at once runs the write once, a replay on either gets the first
//! outcome byte for byte, keys expire as configured, each conversation the
//! client names keeps its own repeat streak across replicas, and a Redis
//! that is down or hangs gets the core's retryable SERVER_BUSY within the
//! store's timeout, with nothing written and nothing acknowledged lost. The
//! replicas are this test binary run again as
//! `redis_replicas replica PORT REDIS_PORT RUN TTL_SECONDS`.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Failed, Trial};
use mcp_envelope::rmcp::{call_tool_result, EnvelopeServer, CONVERSATION_META_KEY};
use mcp_envelope::stores::{RedisStore, SharedBegin, SharedIdempotency, SharedLedger};
use mcp_envelope::{code, Format, ToolError};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, RequestMetaObject};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpClientTransport, StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const CALLS: usize = 20;
/// The replicas' `RedisStore` timeout; their connection manager's own
/// timeouts are longer, so that what bounds a call is the store's.
const STORE_TIMEOUT: Duration = Duration::from_millis(500);
/// What a call over loopback may take beyond the store's timeout.
const MARGIN: Duration = Duration::from_millis(400);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("replica") {
        return replica(&args[2..]);
    }
    // reqwest's rustls leaves the choice of cryptography to the program, as the audit does.
    let _ = rustls::crypto::ring::default_provider().install_default();
    if Command::new("redis-server").arg("--version").output().is_err() {
        eprintln!("redis-server is not installed (scripts/setup-redis installs it); the replica tests are skipped");
        return;
    }
    let trials = vec![
        Trial::test(
            "one key sent to two replicas at once writes once and replays everywhere",
            || one_key_writes_once().map_err(Failed::from),
        ),
        Trial::test(
            "a failure repeated on alternating replicas reaches the ledger's stop",
            || ledger_stop().map_err(Failed::from),
        ),
        Trial::test("each conversation keeps its own streak across replicas", || {
            conversations_apart().map_err(Failed::from)
        }),
        Trial::test("keys expire as configured", || keys_expire().map_err(Failed::from)),
        Trial::test(
            "a Redis that is down never lets a write run and loses nothing acknowledged",
            || redis_down().map_err(Failed::from),
        ),
        Trial::test("a Redis that hangs is answered within the store's timeout", || {
            redis_hangs().map_err(Failed::from)
        }),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

// The replica.

#[derive(Serialize, Deserialize, JsonSchema)]
struct RefundOrder {
    order_id: String,
    amount_cents: i64,
    idempotency_key: String,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct GetInvoice {
    id: String,
}

struct Billing {
    tool_router: ToolRouter<Self>,
    shared: Arc<SharedIdempotency<RedisStore>>,
    redis: redis::aio::ConnectionManager,
    run: String,
    port: String,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[tool_router]
impl Billing {
    #[tool(description = "Refund an order, at most once per idempotency key.")]
    async fn refund_order(&self, Parameters(request): Parameters<RefundOrder>) -> CallToolResult {
        let arguments = mcp_envelope::ToolArguments::from_value(&serde_json::to_value(&request).unwrap_or_default());
        let key = request.idempotency_key.as_str();
        let begun = self
            .shared
            .begin("refund_order", key, &arguments, now_ms(), Format::Xml)
            .await;
        let claim = match begun {
            SharedBegin::Run(claim) => claim,
            SharedBegin::Send(_, result) => return serde_json::from_str(&result).expect("the core's result"),
        };
        let mut redis = self.redis.clone();
        let writes: i64 = redis::cmd("INCR")
            .arg(format!("{}:writes", self.run))
            .query_async(&mut redis)
            .await
            .unwrap_or(-1);
        tokio::time::sleep(Duration::from_millis(300)).await; // concurrent calls meet the write in flight
        let text = format!(
            "Refunded {} cents on order {} (write {writes}, replica {}).",
            request.amount_cents, request.order_id, self.port
        );
        let result = CallToolResult::success(vec![ContentBlock::text(text)]);
        let json = serde_json::to_string(&result).unwrap_or_default();
        let _ = self
            .shared
            .finish("refund_order", key, &claim, Some(&json), now_ms())
            .await;
        result
    }

    /// Its failures go through the server's ledger, the one of the call's conversation.
    #[tool(description = "An invoice by its ID (none exists here).")]
    async fn get_invoice(&self, Parameters(request): Parameters<GetInvoice>) -> CallToolResult {
        let error = ToolError::new(code::NOT_FOUND, format!("No invoice {}", request.id));
        call_tool_result(&error, Format::Xml)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Billing {}

fn replica(args: &[String]) {
    let [port, redis_port, run, ttl] = args else {
        panic!("replica PORT REDIS_PORT RUN TTL_SECONDS")
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let client = redis::Client::open(format!("redis://127.0.0.1:{redis_port}/")).expect("a Redis URL");
        // No reconnection retries: while Redis is down a call fails at once
        // rather than wait out the backoff (the next call reconnects).
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_number_of_retries(0)
            .set_connection_timeout(Some(Duration::from_secs(5)))
            .set_response_timeout(Some(Duration::from_secs(5)));
        let connection = client
            .get_connection_manager_with_config(config)
            .await
            .expect("Redis answers");
        let store = RedisStore::new(connection.clone(), format!("{run}:")).timeout(STORE_TIMEOUT);
        let shared = Arc::new(SharedIdempotency::new(store.clone(), ttl.parse().expect("TTL seconds")));
        let (run, port_text) = (run.clone(), port.clone());
        let service = StreamableHttpService::new(
            move || {
                let store = store.clone();
                let billing = Billing {
                    tool_router: Billing::tool_router(),
                    shared: shared.clone(),
                    redis: connection.clone(),
                    run: run.clone(),
                    port: port_text.clone(),
                };
                // The ledger of the conversation the client names (else its session's).
                Ok(EnvelopeServer::new(billing).ledger_for(move |request| {
                    request
                        .conversation
                        .map(|conversation| SharedLedger::new(store.clone(), conversation, 2))
                }))
            },
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
            .await
            .expect("the port");
        axum::serve(listener, axum::Router::new().nest_service("/mcp", service))
            .await
            .expect("serving");
    });
}

// The tests.

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a port")
        .port()
}

fn listening(port: u16, child: &mut Child) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the process for port {port} exited: {status}"));
        }
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(format!("nothing listened on port {port} within 30 s"))
}

struct RedisServer {
    port: u16,
    folder: std::path::PathBuf,
    child: Option<Child>,
}

impl RedisServer {
    fn new() -> Result<RedisServer, String> {
        let folder = std::env::temp_dir().join(format!("redis-replicas-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
        let mut server = RedisServer {
            port: free_port(),
            folder,
            child: None,
        };
        server.start()?;
        Ok(server)
    }

    fn start(&mut self) -> Result<(), String> {
        let mut child = Command::new("redis-server")
            .args([
                "--port",
                &self.port.to_string(),
                "--bind",
                "127.0.0.1",
                "--appendonly",
                "yes",
            ])
            .args(["--appendfsync", "always", "--save", "", "--dir"])
            .arg(&self.folder)
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        listening(self.port, &mut child)?;
        self.child = Some(child);
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill(); // not a clean shutdown: only what was fsynced survives
            let _ = child.wait();
        }
    }

    /// Sends the process `signal` (`STOP`, `CONT`).
    fn signal(&self, signal: &str) -> Result<(), String> {
        let child = self.child.as_ref().ok_or("redis-server is not running")?;
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .map_err(|e| e.to_string())?;
        status.success().then_some(()).ok_or(format!("kill -{signal} failed"))
    }

    fn get(&self, key: &str) -> Result<Option<String>, String> {
        self.query(redis::cmd("GET").arg(key))
    }

    fn pttl(&self, key: &str) -> Result<i64, String> {
        self.query(redis::cmd("PTTL").arg(key))
    }

    /// One command on a connection of its own (the test's side, apart from the replicas').
    fn query<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> Result<T, String> {
        let client = redis::Client::open(format!("redis://127.0.0.1:{}/", self.port)).map_err(|e| e.to_string())?;
        let mut connection = client.get_connection().map_err(|e| e.to_string())?;
        command.query(&mut connection).map_err(|e| e.to_string())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

struct Cluster {
    redis: RedisServer,
    urls: Vec<String>,
    run: String,
    replicas: Vec<Child>,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for replica in &mut self.replicas {
            let _ = replica.kill();
            let _ = replica.wait();
        }
    }
}

fn cluster(ttl_seconds: u32) -> Result<Cluster, String> {
    let redis = RedisServer::new()?;
    let run = format!("run-{}-{}", std::process::id(), free_port());
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let ports = [free_port(), free_port()];
    let mut replicas = Vec::new();
    for port in ports {
        let child = Command::new(&me)
            .args([
                "replica",
                &port.to_string(),
                &redis.port.to_string(),
                &run,
                &ttl_seconds.to_string(),
            ])
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        replicas.push(child);
    }
    let urls = ports
        .iter()
        .map(|port| format!("http://127.0.0.1:{port}/mcp"))
        .collect();
    let mut cluster = Cluster {
        redis,
        urls,
        run,
        replicas,
    };
    for (i, port) in ports.into_iter().enumerate() {
        listening(port, &mut cluster.replicas[i])?;
    }
    Ok(cluster)
}

/// One call of `refund_order` over Streamable HTTP: the result as JSON text.
async fn call(url: String, order: &str, cents: i64, key: &str) -> Result<String, String> {
    let arguments = serde_json::json!({"order_id": order, "amount_cents": cents, "idempotency_key": key});
    call_tool(url, "refund_order", arguments).await
}

/// One call of `tool` over Streamable HTTP: the result as JSON text.
async fn call_tool(url: String, tool: &'static str, arguments: serde_json::Value) -> Result<String, String> {
    Ok(call_timed(url, tool, arguments, None).await?.0)
}

/// One call of `tool` over Streamable HTTP in `conversation` (the `_meta`
/// key the replicas read), when given: the result as JSON text, and how long
/// the `tools/call` took (the session's start left out).
async fn call_timed(
    url: String,
    tool: &'static str,
    arguments: serde_json::Value,
    conversation: Option<&str>,
) -> Result<(String, Duration), String> {
    let client = ().serve(StreamableHttpClientTransport::from_uri(url.as_str())).await.map_err(|e| e.to_string())?;
    let mut params =
        CallToolRequestParams::new(tool).with_arguments(arguments.as_object().cloned().unwrap_or_default());
    if let Some(conversation) = conversation {
        let mut meta = RequestMetaObject::new();
        meta.insert(CONVERSATION_META_KEY.to_owned(), serde_json::json!(conversation));
        params.meta = Some(meta);
    }
    let started = Instant::now();
    let result = client.call_tool(params).await.map_err(|e| e.to_string())?;
    let took = started.elapsed();
    let _ = client.cancel().await;
    let value = serde_json::json!({"content": result.content, "isError": result.is_error.unwrap_or(false)});
    Ok((value.to_string(), took))
}

/// `get_invoice` of `inv_9` in `conversation` on `url`: the envelope's text.
fn invoice_in(rt: &tokio::runtime::Runtime, url: &str, conversation: Option<&str>) -> Result<String, String> {
    let arguments = serde_json::json!({"id": "inv_9"});
    let (answer, _) = rt.block_on(call_timed(url.to_owned(), "get_invoice", arguments, conversation))?;
    Ok(text(&answer))
}

/// The exact SERVER_BUSY a call with `key` gets while the store is down.
fn server_busy(key: &str) -> String {
    let text = format!(
        "<tool_error code=\"SERVER_BUSY\" severity=\"error\">\n  <message>The server could not use its idempotency store, \
         so this call did not run: nothing was written.</message>\n  <recovery>Wait 5 seconds, then make the same call \
         with the same key.</recovery>\n  <details>\n    <detail key=\"tool\">refund_order</detail>\n    \
         <detail key=\"idempotencyKey\">{key}</detail>\n  </details>\n  <retry_after>5 seconds</retry_after>\n</tool_error>"
    );
    serde_json::json!({"content": [{"type": "text", "text": text}], "isError": true}).to_string()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn text(answer: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(answer).unwrap_or_default();
    value["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

fn writes(cluster: &Cluster) -> Result<Option<String>, String> {
    cluster.redis.get(&format!("{}:writes", cluster.run))
}

fn one_key_writes_once() -> Result<(), String> {
    let cluster = cluster(60)?;
    let rt = runtime();
    let answers = rt.block_on(async {
        let calls = (0..CALLS).map(|i| {
            let url = cluster.urls[i % 2].clone();
            tokio::spawn(async move { call(url, "A-8812", 3200, "refund-A-8812-1").await })
        });
        let mut answers = Vec::new();
        for handle in calls.collect::<Vec<_>>() {
            answers.push(handle.await.map_err(|e| e.to_string())??);
        }
        Ok::<_, String>(answers)
    })?;
    if writes(&cluster)?.as_deref() != Some("1") {
        return Err(format!("writes: {:?}, want 1", writes(&cluster)?));
    }
    let first: Vec<&String> = answers.iter().filter(|a| a.contains(r#""isError":false"#)).collect();
    let busy: Vec<&String> = answers.iter().filter(|a| a.contains(r#""isError":true"#)).collect();
    let Some(outcome) = first.first() else {
        return Err(format!("no call got the outcome: {answers:?}"));
    };
    if first.iter().any(|a| a != outcome) || first.len() + busy.len() != CALLS {
        return Err(format!("the outcomes differ: {answers:?}"));
    }
    for answer in &busy {
        let t = text(answer);
        if !t.starts_with(r#"<tool_error code="CONFLICT""#) || !t.contains("<retry_after>2 seconds</retry_after>") {
            return Err(format!("not the in-progress CONFLICT: {t}"));
        }
    }
    if !text(outcome).starts_with("Refunded 3200 cents on order A-8812 (write 1, replica ") {
        return Err(format!("the outcome: {outcome}"));
    }
    let replays = rt.block_on(async {
        let mut replays = Vec::new();
        for url in &cluster.urls {
            replays.push(call(url.clone(), "A-8812", 3200, "refund-A-8812-1").await?);
        }
        Ok::<_, String>(replays)
    })?;
    if replays.iter().any(|r| r != *outcome) {
        return Err(format!("a replay differs from the first outcome: {replays:?}"));
    }
    let other = rt.block_on(call(cluster.urls[1].clone(), "A-8812", 4500, "refund-A-8812-1"))?;
    if !text(&other).starts_with(r#"<tool_error code="VALIDATION_ERROR""#)
        || !text(&other).contains("different request")
    {
        return Err(format!("other arguments with the key: {other}"));
    }
    if writes(&cluster)?.as_deref() != Some("1") {
        return Err("a replay or a refusal wrote".into());
    }
    eprintln!(
        "{CALLS} concurrent calls: {} answered with the outcome, {} in progress; 1 write",
        first.len(),
        busy.len()
    );
    Ok(())
}

const REPEAT: &str =
    "<message>Nothing has changed since the last attempt: the same failure again (2 in a row).</message>";
const STOP: &str = "<tool_error code=\"NOT_FOUND\" severity=\"critical\">\n  <message>Stop retrying: this call has failed the same way 3 times in a row";

fn ledger_stop() -> Result<(), String> {
    let cluster = cluster(60)?;
    let rt = runtime();
    let mut answers = Vec::new();
    for i in 0..3 {
        answers.push(invoice_in(&rt, &cluster.urls[i % 2], Some("conversation-1"))?);
    }
    if !answers[0].contains("<message>No invoice inv_9</message>")
        || !answers[1].contains(REPEAT)
        || !answers[2].starts_with(STOP)
    {
        return Err(format!("the streak across replicas: {answers:#?}"));
    }
    Ok(())
}

fn conversations_apart() -> Result<(), String> {
    let cluster = cluster(60)?;
    let rt = runtime();
    let [one, other] = [&cluster.urls[0], &cluster.urls[1]];
    // Two conversations interleaved, each on alternating replicas: each its own streak.
    let answers = [
        invoice_in(&rt, one, Some("conversation-a"))?,
        invoice_in(&rt, other, Some("conversation-b"))?,
        invoice_in(&rt, other, Some("conversation-a"))?,
        invoice_in(&rt, one, Some("conversation-b"))?,
        invoice_in(&rt, one, Some("conversation-a"))?,
    ];
    let first = |t: &str| t.contains("<message>No invoice inv_9</message>");
    let expected = first(&answers[0])
        && first(&answers[1])
        && answers[2].contains(REPEAT)
        && answers[3].contains(REPEAT)
        && answers[4].starts_with(STOP);
    if !expected {
        return Err(format!("two conversations' streaks: {answers:#?}"));
    }
    // Without the key each session is its own conversation (every call here opens one): never a repeat.
    for i in 0..3 {
        let answer = invoice_in(&rt, &cluster.urls[i % 2], None)?;
        if !first(&answer) {
            return Err(format!("a call in a session of its own: {answer}"));
        }
    }
    Ok(())
}

fn keys_expire() -> Result<(), String> {
    let cluster = cluster(3)?;
    let rt = runtime();
    rt.block_on(call(cluster.urls[0].clone(), "A-8812", 3200, "refund-A-8812-1"))?;
    let key = format!(
        r#"{}:mcp-envelope/idempotency/["refund_order","refund-A-8812-1"]"#,
        cluster.run
    );
    let ttl = cluster.redis.pttl(&key)?;
    if !(1..=3000).contains(&ttl) {
        return Err(format!("PTTL {ttl}, want 1 to 3000"));
    }
    std::thread::sleep(Duration::from_millis(3200));
    if cluster.redis.get(&key)?.is_some() {
        return Err("the key outlived its TTL".into());
    }
    let again = rt.block_on(call(cluster.urls[1].clone(), "A-8812", 3200, "refund-A-8812-1"))?;
    if !text(&again).contains("(write 2, replica ") {
        return Err(format!("after expiry the call did not run again: {again}"));
    }
    Ok(())
}

fn redis_down() -> Result<(), String> {
    let mut cluster = cluster(60)?;
    let rt = runtime();
    let acknowledged = rt.block_on(call(cluster.urls[0].clone(), "A-8812", 3200, "refund-A-8812-1"))?;
    cluster.redis.stop();
    let arguments =
        serde_json::json!({"order_id": "A-8812", "amount_cents": 3200, "idempotency_key": "refund-A-8812-2"});
    let (down, took) = rt.block_on(call_timed(
        cluster.urls[1].clone(),
        "refund_order",
        arguments,
        Some("c-1"),
    ))?;
    if down != server_busy("refund-A-8812-2") {
        return Err(format!("Redis down: {down}"));
    }
    eprintln!("Redis stopped: SERVER_BUSY in {took:?} (store timeout {STORE_TIMEOUT:?})");
    if took >= STORE_TIMEOUT + MARGIN {
        return Err(format!("Redis stopped: SERVER_BUSY took {took:?}"));
    }
    cluster.redis.start()?;
    if writes(&cluster)?.as_deref() != Some("1") {
        return Err("the refused call wrote".into());
    }
    // The replicas' connections come back by themselves; until then a call is refused, never run unguarded.
    let until_back = |url: String, key: &'static str| -> Result<String, String> {
        for _ in 0..50 {
            let answer = rt.block_on(call(url.clone(), "A-8812", 3200, key))?;
            if !text(&answer).contains("SERVER_BUSY") {
                return Ok(answer);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Err("the store never came back".into())
    };
    let replay = until_back(cluster.urls[1].clone(), "refund-A-8812-1")?;
    if replay != acknowledged {
        return Err(format!("after the restart the replay is {replay}, not {acknowledged}"));
    }
    let retried = until_back(cluster.urls[0].clone(), "refund-A-8812-2")?;
    if !text(&retried).contains("(write 2, replica ") {
        return Err(format!("the refused key did not run once: {retried}"));
    }
    Ok(())
}

fn redis_hangs() -> Result<(), String> {
    let cluster = cluster(60)?;
    let rt = runtime();
    rt.block_on(call(cluster.urls[0].clone(), "A-8812", 3200, "refund-A-8812-1"))?;
    // A stopped process: connections stay open and nothing answers, so only a timeout ends a call.
    cluster.redis.signal("STOP")?;
    let hung = while_hung(&cluster, &rt);
    cluster.redis.signal("CONT")?;
    hung?;
    if writes(&cluster)?.as_deref() != Some("1") {
        return Err("a call refused while Redis hung wrote".into());
    }
    Ok(())
}

/// The calls made while Redis hangs: each store call ends at the store's timeout.
fn while_hung(cluster: &Cluster, rt: &tokio::runtime::Runtime) -> Result<(), String> {
    // The ledger alone asks the store once, and fails open: the failure as itself.
    let arguments = serde_json::json!({"id": "inv_9"});
    let (invoice, took) = rt.block_on(call_timed(
        cluster.urls[1].clone(),
        "get_invoice",
        arguments,
        Some("c-1"),
    ))?;
    eprintln!("Redis hung: the ledger's call answered in {took:?}");
    if !text(&invoice).contains("<message>No invoice inv_9</message>") || took >= STORE_TIMEOUT + MARGIN {
        return Err(format!("Redis hung: get_invoice took {took:?}: {invoice}"));
    }
    // The key's claim asks once, then the result goes through the ledger, which asks once more.
    let arguments =
        serde_json::json!({"order_id": "A-8812", "amount_cents": 3200, "idempotency_key": "refund-A-8812-2"});
    let (busy, took) = rt.block_on(call_timed(
        cluster.urls[0].clone(),
        "refund_order",
        arguments,
        Some("c-1"),
    ))?;
    eprintln!("Redis hung: SERVER_BUSY in {took:?} (store timeout {STORE_TIMEOUT:?})");
    if busy != server_busy("refund-A-8812-2") || took < STORE_TIMEOUT || took >= STORE_TIMEOUT * 2 + MARGIN {
        return Err(format!("Redis hung: refund_order took {took:?}: {busy}"));
    }
    Ok(())
}
