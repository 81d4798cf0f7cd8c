//! `mcp-envelope audit -- COMMAND [ARGS…]`: a real MCP client (rmcp, over
//! stdio) starts any server, lists its tools, makes the probe calls and the
//! plan's calls, and grades every answer (docs/audit.md). The grading rules
//! are `grade` and the core's `decide`; this module only drives the client.

mod grade;
mod probes;
mod report;

use std::time::Duration;

use mcp_envelope::decide::Branch;
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::ServiceError;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use serde::Deserialize;
use serde_json::Value;

pub use grade::{grade, Answer, Grade};
pub use probes::{Call, Expect};
pub use report::{Report, Row};

/// What `audit` was asked to do.
pub struct Options {
    pub command: Vec<String>,
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

async fn audit(options: Options, plan_calls: Vec<Call>, secrets: Vec<String>) -> Result<Report, String> {
    let (program, args) = options
        .command
        .split_first()
        .ok_or("no server command: give it after `--`")?;
    let command = tokio::process::Command::new(program).configure(|c| {
        c.args(args);
    });
    let (transport, _stderr) = TokioChildProcess::builder(command)
        // The server's log is its own; the report is what the model sees.
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    let client = tokio::time::timeout(options.timeout, ().serve(transport))
        .await
        .map_err(|_| {
            format!(
                "{program} did not answer initialize within {} s",
                options.timeout.as_secs()
            )
        })?
        .map_err(|e| format!("{program} did not initialize: {e}"))?;
    let (name, version) = client
        .peer_info()
        .and_then(|info| info.server_info.as_ref().map(|s| (s.name.clone(), s.version.clone())))
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
            Ok(Err(ServiceError::McpError(e))) => Answer::ProtocolError(i64::from(e.code.0), e.message.to_string()),
            Ok(Err(e)) => Answer::Transport(e.to_string()),
        };
        let graded = grade(&answer, &call.expect, &secrets);
        rows.push(Row { call, grade: graded });
    }
    let _ = client.cancel().await;
    Ok(Report {
        command: options.command,
        server: (name, version),
        tools: described.len(),
        rows,
    })
}
