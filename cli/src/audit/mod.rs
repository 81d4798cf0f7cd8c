//! `mcp-envelope audit -- COMMAND [ARGS…]` or `audit --url URL…`: a real MCP
//! client (rmcp, over stdio or Streamable HTTP) reaches any server, lists its
//! tools, makes the probe calls and the plan's calls, and grades every answer
//! against a named MCP revision (docs/audit.md). Several URLs are the
//! replicas of one server behind a load balancer: one client each, the calls
//! sent round-robin. The grading rules are `grade` and the core's `decide`;
//! this module only drives the client.

mod built_on;
mod grade;
mod probes;
mod report;

use std::collections::HashMap;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use mcp_envelope::decide::Branch;
use mcp_envelope::stores::CONVERSATION_META_KEY;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ErrorData, GetTaskParams,
    Implementation, JsonObject, ProtocolVersion, RequestMetaObject, TaskStatus,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde::Deserialize;
use serde_json::Value;

pub use grade::{grade, Answer, Grade, Revision};
pub use probes::{Call, Expect};
pub use report::{Report, Row};

/// Where the server is.
pub enum Server {
    /// A command and its arguments, started as a child spoken to over stdio.
    Command(Vec<String>),
    /// Streamable HTTP endpoints (one, or the replicas of one server), and
    /// the headers sent with every request.
    Urls(Vec<String>, Vec<String>),
}

/// What `audit` was asked to do.
pub struct Options {
    pub server: Server,
    pub spec: Revision,
    pub plan: Option<String>,
    pub probes: bool,
    pub timeout: Duration,
    /// The conversation every call names in its `_meta`, when one is given.
    pub conversation: Option<String>,
}

/// A fault plan as written: the calls to make and what each should give.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanInput {
    #[serde(default)]
    calls: Vec<PlanCall>,
    /// Exact strings that must never reach the model (the secret an exception holds).
    #[serde(default)]
    secrets: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanCall {
    name: String,
    tool: String,
    #[serde(default)]
    arguments: Option<JsonObject>,
    expect: PlanExpect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanExpect {
    branch: String,
    code: Option<String>,
}

/// Reads a plan's JSON text: its calls and secrets.
pub fn read_plan(text: &str) -> Result<(Vec<Call>, Vec<String>), String> {
    let plan: PlanInput = serde_json::from_str(text).map_err(|e| format!("the plan: {e}"))?;
    let mut calls = Vec::new();
    for call in plan.calls {
        let branch = Branch::from_wire(&call.expect.branch).ok_or_else(|| {
            format!(
                "the plan: call {:?}: unknown branch {:?}, expected wait-and-retry, fix-and-retry, stop-and-tell or accept",
                call.name, call.expect.branch
            )
        })?;
        calls.push(Call {
            name: call.name,
            tool: call.tool,
            arguments: Value::Object(call.arguments.unwrap_or_default()),
            expect: Expect {
                branch,
                code: call.expect.code,
            },
        });
    }
    Ok((calls, plan.secrets))
}

/// Starts the server, makes the calls, and grades the answers.
pub fn run(options: Options) -> Result<Report, String> {
    let (plan_calls, secrets) = match &options.plan {
        Some(text) => read_plan(text)?,
        None => (Vec::new(), Vec::new()),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("no async runtime: {e}"))?;
    runtime.block_on(audit(options, plan_calls, secrets))
}

/// `Name: value` lines as HTTP headers; a malformed one is refused by name
/// only, since its value may be a secret.
pub fn read_headers(lines: &[String]) -> Result<HashMap<HeaderName, HeaderValue>, String> {
    let mut headers = HashMap::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or_else(|| {
            format!(
                "--header {:?}: expected 'Name: value'",
                line.split(' ').next().unwrap_or("")
            )
        })?;
        let name = name.trim();
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("--header: {name:?} is not an HTTP header name"))?;
        let value = HeaderValue::from_str(value.trim())
            .map_err(|_| format!("--header {name}: the value is not a valid HTTP header value"))?;
        headers.insert(header, value);
    }
    Ok(headers)
}

/// The client's side of the handshake for a revision: 2025-11-25 is asked
/// for with `initialize`; 2026-07-28 with `server/discover` (it has no
/// `initialize`), falling back to `initialize` with 2025-11-25 for a server
/// that does not know it.
fn lifecycle(spec: Revision) -> (ClientConfig, ClientLifecycleMode) {
    // The tasks extension (SEP-2663) declared: a server may then run a call
    // as a task, which the audit follows to its end.
    let info = ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("mcp-envelope-audit", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25);
    let mode = match spec {
        Revision::V2025_11_25 => ClientLifecycleMode::Initialize,
        Revision::V2026_07_28 => ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            legacy_version: Some(ProtocolVersion::V_2025_11_25),
        },
    };
    (info, mode)
}

/// Which client makes the `index`-th call (from 0, probes and plan calls
/// counted alike) of `replicas`: round-robin, as a load balancer in front of
/// them would, so consecutive calls land on different replicas.
pub fn replica_of(index: usize, replicas: usize) -> usize {
    index % replicas.max(1)
}

/// Starts or reaches the server and completes the handshake: one client, or
/// one per URL in the order given.
async fn connect(options: &Options) -> Result<Vec<RunningService<RoleClient, ClientConfig>>, String> {
    let (info, mode) = lifecycle(options.spec);
    let seconds = options.timeout.as_secs();
    match &options.server {
        Server::Command(command) => {
            let (program, args) = command.split_first().ok_or("no server command: give it after `--`")?;
            let child = tokio::process::Command::new(program).configure(|c| {
                c.args(args);
            });
            let (transport, _stderr) = TokioChildProcess::builder(child)
                // The server's log is its own; the report is what the model sees.
                .stderr(std::process::Stdio::null())
                .spawn()
                .map_err(|e| format!("could not start {program}: {e}"))?;
            let client = tokio::time::timeout(options.timeout, info.serve_with_lifecycle(transport, mode))
                .await
                .map_err(|_| format!("{program} did not answer initialize within {seconds} s"))?
                .map_err(|e| format!("{program} did not initialize: {e}"))?;
            Ok(vec![client])
        }
        Server::Urls(urls, header_lines) => {
            // Every URL is checked before any is reached.
            if let Some(url) = urls
                .iter()
                .find(|url| !(url.starts_with("http://") || url.starts_with("https://")))
            {
                return Err(format!("--url {url:?}: expected an http:// or https:// URL"));
            }
            let headers = read_headers(header_lines)?;
            // reqwest's rustls leaves the choice of cryptography to the
            // program; installing it twice is harmless (the first stays).
            let _ = rustls::crypto::ring::default_provider().install_default();
            let mut clients = Vec::with_capacity(urls.len());
            for url in urls {
                let config =
                    StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(headers.clone());
                let transport = StreamableHttpClientTransport::from_config(config);
                let client = tokio::time::timeout(
                    options.timeout,
                    info.clone().serve_with_lifecycle(transport, mode.clone()),
                )
                .await
                .map_err(|_| format!("{url} did not answer initialize within {seconds} s"))?
                .map_err(|e| format!("{url} did not initialize: {e}"))?;
                clients.push(client);
            }
            Ok(clients)
        }
    }
}

/// How often a task is polled when it names no interval of its own.
const TASK_POLL: Duration = Duration::from_millis(200);

/// The answer to one `tools/call`, as a model's host ends up with it: a
/// result (a 2026-07-28 `input_required` result too, graded as it came), a
/// JSON-RPC error, or, for a call the server runs as a task (SEP-2663), the
/// task followed to its end with `tasks/get`: a `completed` task's result
/// (a tool failure ends there, `isError` true), a `failed` task's JSON-RPC
/// error, else the task's last state. The caller bounds it with the call's
/// timeout.
async fn answer_of(client: &RunningService<RoleClient, ClientConfig>, params: CallToolRequestParams) -> Answer {
    let protocol_error = |e: ErrorData| Answer::ProtocolError {
        code: i64::from(e.code.0),
        message: e.message.to_string(),
        data: e.data,
    };
    let task = match client.call_tool_once(params).await {
        Ok(CallToolResponse::Complete(result)) => return Answer::Result(json_of(&result)),
        Ok(CallToolResponse::InputRequired(result)) => return Answer::Result(json_of(&result)),
        Ok(CallToolResponse::Task(created)) => created.task,
        Ok(_) => return Answer::Transport("an answer to tools/call of a kind this client does not know".into()),
        Err(ServiceError::McpError(e)) => return protocol_error(e),
        Err(e) => return Answer::Transport(e.to_string()),
    };
    let mut wait = task.poll_interval_ms.map_or(TASK_POLL, Duration::from_millis);
    loop {
        tokio::time::sleep(wait).await;
        let state = match client.get_task(GetTaskParams::new(task.task_id.clone())).await {
            Ok(state) => state,
            Err(ServiceError::McpError(e)) => return protocol_error(e),
            Err(e) => return Answer::Transport(format!("tasks/get {}: {e}", task.task_id)),
        };
        let state_json = json_of(&state);
        match state.task.status() {
            TaskStatus::Completed => return Answer::Result(state_json.get("result").cloned().unwrap_or(Value::Null)),
            TaskStatus::Failed => {
                return match serde_json::from_value::<ErrorData>(
                    state_json.get("error").cloned().unwrap_or(Value::Null),
                ) {
                    Ok(e) => protocol_error(e),
                    Err(_) => Answer::Transport(format!("task {} failed without a JSON-RPC error", task.task_id)),
                }
            }
            TaskStatus::Working => {}
            // Input required, or cancelled: the task's state is the answer.
            _ => return Answer::Result(state_json),
        }
        wait = state
            .task
            .task
            .poll_interval_ms
            .map_or(TASK_POLL, Duration::from_millis);
    }
}

fn json_of<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The server's name, version and protocol version as a client's handshake settled them.
fn handshake(client: &RunningService<RoleClient, ClientConfig>) -> ((String, String), String) {
    let info = client.peer_info();
    let server = info
        .as_ref()
        .and_then(|info| info.server_info.as_ref().map(|s| (s.name.clone(), s.version.clone())))
        .unwrap_or_default();
    let protocol = info
        .as_ref()
        .map(|i| i.protocol_version.to_string())
        .unwrap_or_default();
    (server, protocol)
}

async fn audit(options: Options, plan_calls: Vec<Call>, secrets: Vec<String>) -> Result<Report, String> {
    // A server at a URL has no source here to read.
    let built_on = match &options.server {
        Server::Command(command) => built_on::of_command(command),
        Server::Urls(..) => None,
    };
    let clients = connect(&options).await?;
    let (server, protocol) = handshake(&clients[0]);
    // The report names one server: replicas that are not the same one (a
    // deploy half done) would be graded as if they were.
    if let Server::Urls(urls, _) = &options.server {
        for (replica, client) in clients.iter().enumerate().skip(1) {
            let (other, other_protocol) = handshake(client);
            if (&other, &other_protocol) != (&server, &protocol) {
                return Err(format!(
                    "the replicas differ: {} is {} {}, protocol {}; {} is {} {}, protocol {}",
                    urls[0], server.0, server.1, protocol, urls[replica], other.0, other.1, other_protocol
                ));
            }
        }
    }
    let tools = tokio::time::timeout(options.timeout, clients[0].list_all_tools())
        .await
        .map_err(|_| "tools/list timed out".to_owned())?
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let described: Vec<(String, Value, bool)> = tools
        .iter()
        .map(|t| {
            let read_only = t.annotations.as_ref().and_then(|a| a.read_only_hint).unwrap_or(false);
            (t.name.to_string(), Value::Object((*t.input_schema).clone()), read_only)
        })
        .collect();
    let names: Vec<String> = described.iter().map(|(name, _, _)| name.clone()).collect();
    // Each tool's entry as listed, for `decide`: its annotations say whether a retry is safe.
    let listings: std::collections::HashMap<String, String> = tools
        .iter()
        .map(|t| (t.name.to_string(), serde_json::to_string(t).unwrap_or_default()))
        .collect();
    let mut calls = if options.probes {
        probes::probes(&described)
    } else {
        Vec::new()
    };
    calls.extend(plan_calls);
    let mut rows = Vec::new();
    for (index, call) in calls.into_iter().enumerate() {
        let replica = replica_of(index, clients.len());
        let mut params = CallToolRequestParams::new(call.tool.clone());
        if let Value::Object(arguments) = &call.arguments {
            params = params.with_arguments(arguments.clone());
        }
        if let Some(conversation) = &options.conversation {
            let mut meta = RequestMetaObject::new();
            meta.insert(CONVERSATION_META_KEY.to_owned(), Value::String(conversation.clone()));
            params.meta = Some(meta);
        }
        let answer = match tokio::time::timeout(options.timeout, answer_of(&clients[replica], params)).await {
            Err(_) => Answer::Transport(format!("no answer within {} s", options.timeout.as_secs())),
            Ok(answer) => answer,
        };
        let listing = listings.get(&call.tool).map(String::as_str).filter(|l| !l.is_empty());
        let graded = grade(&answer, &call, &names, listing, options.spec, &secrets);
        rows.push(Row {
            call,
            grade: graded,
            replica,
        });
    }
    for client in clients {
        let _ = client.cancel().await;
    }
    Ok(Report {
        server_at: match options.server {
            Server::Command(command) => report::ServerAt::Command(command),
            Server::Urls(urls, _) => report::ServerAt::Urls(urls),
        },
        spec: options.spec,
        protocol,
        server,
        built_on,
        tools: described.len(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::replica_of;

    /// Round-robin: with two replicas consecutive calls always alternate,
    /// whatever number of probes went before them.
    #[test]
    fn calls_go_round_robin() {
        let two: Vec<usize> = (0..6).map(|i| replica_of(i, 2)).collect();
        let three: Vec<usize> = (0..7).map(|i| replica_of(i, 3)).collect();
        let one: Vec<usize> = (0..3).map(|i| replica_of(i, 1)).collect();
        assert_eq!(
            (two, three, one),
            (vec![0, 1, 0, 1, 0, 1], vec![0, 1, 2, 0, 1, 2, 0], vec![0, 0, 0])
        );
    }
}
