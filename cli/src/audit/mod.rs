//! `mcp-envelope audit -- COMMAND [ARGS…]` or `audit --url URL`: a real MCP
//! client (rmcp, over stdio or Streamable HTTP) reaches any server, lists its
//! tools, makes the probe calls and the plan's calls, and grades every answer
//! against a named MCP revision (docs/audit.md). The grading rules are
//! `grade` and the core's `decide`; this module only drives the client.

mod grade;
mod probes;
mod report;

use std::collections::HashMap;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use mcp_envelope::decide::Branch;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, JsonObject, ProtocolVersion,
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
    /// A Streamable HTTP endpoint, and the headers sent with every request.
    Url(String, Vec<String>),
}

/// What `audit` was asked to do.
pub struct Options {
    pub server: Server,
    pub spec: Revision,
    pub plan: Option<String>,
    pub probes: bool,
    pub timeout: Duration,
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
    let info = ClientConfig::new(
        ClientCapabilities::default(),
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

/// Starts or reaches the server and completes the handshake; also the name the errors give it.
async fn connect(options: &Options) -> Result<(RunningService<RoleClient, ClientConfig>, String), String> {
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
            Ok((client, program.clone()))
        }
        Server::Url(url, header_lines) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!("--url {url:?}: expected an http:// or https:// URL"));
            }
            let headers = read_headers(header_lines)?;
            // reqwest's rustls leaves the choice of cryptography to the
            // program; installing it twice is harmless (the first stays).
            let _ = rustls::crypto::ring::default_provider().install_default();
            let config = StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(headers);
            let transport = StreamableHttpClientTransport::from_config(config);
            let client = tokio::time::timeout(options.timeout, info.serve_with_lifecycle(transport, mode))
                .await
                .map_err(|_| format!("{url} did not answer initialize within {seconds} s"))?
                .map_err(|e| format!("{url} did not initialize: {e}"))?;
            Ok((client, url.clone()))
        }
    }
}

async fn audit(options: Options, plan_calls: Vec<Call>, secrets: Vec<String>) -> Result<Report, String> {
    let (client, _) = connect(&options).await?;
    let info = client.peer_info();
    let (name, version) = info
        .as_ref()
        .and_then(|info| info.server_info.as_ref().map(|s| (s.name.clone(), s.version.clone())))
        .unwrap_or_default();
    let protocol = info
        .as_ref()
        .map(|i| i.protocol_version.to_string())
        .unwrap_or_default();
    let tools = tokio::time::timeout(options.timeout, client.list_all_tools())
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
    let mut calls = if options.probes {
        probes::probes(&described)
    } else {
        Vec::new()
    };
    calls.extend(plan_calls);
    let mut rows = Vec::new();
    for call in calls {
        let mut params = CallToolRequestParams::new(call.tool.clone());
        if let Value::Object(arguments) = &call.arguments {
            params = params.with_arguments(arguments.clone());
        }
        let answer = match tokio::time::timeout(options.timeout, client.call_tool(params)).await {
            Err(_) => Answer::Transport(format!("no answer within {} s", options.timeout.as_secs())),
            Ok(Ok(result)) => Answer::Result(serde_json::to_value(&result).unwrap_or(Value::Null)),
            Ok(Err(ServiceError::McpError(e))) => Answer::ProtocolError {
                code: i64::from(e.code.0),
                message: e.message.to_string(),
                data: e.data,
            },
            Ok(Err(e)) => Answer::Transport(e.to_string()),
        };
        let graded = grade(&answer, &call, &names, options.spec, &secrets);
        rows.push(Row { call, grade: graded });
    }
    let _ = client.cancel().await;
    Ok(Report {
        server_at: match options.server {
            Server::Command(command) => report::ServerAt::Command(command),
            Server::Url(url, _) => report::ServerAt::Url(url),
        },
        spec: options.spec,
        protocol,
        server: (name, version),
        tools: described.len(),
        rows,
    })
}
