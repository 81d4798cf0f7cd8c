//! The scripted agent of demo/ts/agent.mjs and demo/python/agent.py, in
//! Rust, not a language model: it plays demo/plan.json against a billing
//! server over stdio twice and prints what happened as JSON. Alone, each
//! answer is a model turn and a failed call is sent again as it was, as
//! models do, up to three turns; with the host loop each call goes through
//! `mcp_envelope::rmcp::call_tool_with_recovery` (the core's host-step), and
//! only what the model must fix comes back to it. Each run starts the server
//! afresh. demo/compare.mjs (--agent) scores the three agents' reports alike.
//!
//!   demo-agent --plan demo/plan.json -- COMMAND [ARGS...]

use std::process::{ExitCode, Stdio};

use mcp_envelope::host_loop::Budget;
use mcp_envelope::rmcp::{call_tool_with_recovery, Then};
use mcp_envelope::Format;
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::{json, Value};

const TURNS: usize = 3;

/// One turn: how it ended, and how many calls it made.
async fn turn(
    client: &RunningService<RoleClient, ()>,
    call: &Value,
    tool: Option<&Tool>,
    host_loop: bool,
) -> (String, usize) {
    let mut params = CallToolRequestParams::new(call["tool"].as_str().unwrap_or_default().to_owned());
    if let Some(arguments) = call["arguments"].as_object() {
        params = params.with_arguments(arguments.clone());
    }
    if !host_loop {
        let then = match client.call_tool(params).await {
            Ok(result) if result.is_error != Some(true) => "done",
            _ => "failed",
        };
        return (then.to_owned(), 1);
    }
    match call_tool_with_recovery(
        client.peer(),
        params,
        tool,
        Budget::default(),
        Format::Xml,
        tokio::time::sleep,
    )
    .await
    {
        Ok(recovered) => {
            let then = match recovered.then {
                Then::Done => "done",
                Then::ToModel => "to-model",
                _ => "escalate",
            };
            (then.to_owned(), recovered.tried.len())
        }
        // No answer at all: the model sees a failure.
        Err(_) => ("failed".to_owned(), 1),
    }
}

async fn play(plan: &Value, command: &[String], host_loop: bool) -> Result<Vec<Value>, String> {
    let (program, args) = command.split_first().ok_or("no server command")?;
    let child = tokio::process::Command::new(program).configure(|c| {
        c.args(args);
    });
    let (transport, _stderr) = TokioChildProcess::builder(child)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    let client = ().serve(transport).await.map_err(|e| format!("{program} did not initialize: {e}"))?;
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let mut rows = Vec::new();
    for call in plan["calls"].as_array().ok_or("the plan has no calls")? {
        let tool = tools.iter().find(|t| call["tool"].as_str() == Some(t.name.as_ref()));
        let mut turns = Vec::new();
        while turns.len() < TURNS {
            let (then, calls) = turn(&client, call, tool, host_loop).await;
            let ended = then == "done" || then == "escalate";
            turns.push(json!({"then": then, "calls": calls}));
            // The model has its answer, or the host escalated: the run of this call ends.
            if ended {
                break;
            }
        }
        rows.push(json!({"name": call["name"], "expected": call["expect"]["branch"], "turns": turns}));
    }
    let _ = client.cancel().await;
    Ok(rows)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 || args[0] != "--plan" || args[2] != "--" {
        eprintln!("usage: demo-agent --plan PLAN -- COMMAND [ARGS...]");
        return ExitCode::from(2);
    }
    let plan: Value = match std::fs::read_to_string(&args[1]).map(|text| serde_json::from_str(&text)) {
        Ok(Ok(plan)) => plan,
        _ => {
            eprintln!("demo-agent: cannot read the plan {}", args[1]);
            return ExitCode::from(2);
        }
    };
    let command = &args[3..];
    let runs = async { Ok::<_, String>((play(&plan, command, false).await?, play(&plan, command, true).await?)) };
    match runs.await {
        Ok((alone, host_loop)) => {
            println!(
                "{}",
                json!({"agent": "rust", "command": command, "alone": alone, "hostLoop": host_loop})
            );
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("demo-agent: {why}");
            ExitCode::from(1)
        }
    }
}
