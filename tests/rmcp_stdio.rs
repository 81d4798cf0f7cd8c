//! The `rmcp` feature over a real stdio transport: this test binary runs
//! itself as the MCP server child process (stdout the protocol, stderr the
//! log, as an stdio server is deployed) and talks to it with rmcp's
//! `TokioChildProcess` client. Its own `main` (no libtest), since libtest
//! would print on the stdout the protocol needs.

use std::process::ExitCode;

use mcp_envelope::rmcp::EnvelopeServer;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use tokio::io::AsyncReadExt;

// The billing server; this test calls only part of it.
#[allow(dead_code)]
mod rmcp_server;

/// Set in the child: serve instead of testing.
const SERVE: &str = "MCP_ENVELOPE_TEST_SERVE_STDIO";

#[tokio::main]
async fn main() -> ExitCode {
    if std::env::var_os(SERVE).is_some() {
        return serve().await;
    }
    println!("\nrunning 1 test");
    match unknown_tool_and_panic_over_stdio().await {
        Ok(()) => {
            println!("test unknown_tool_and_panic_over_stdio ... ok\n\ntest result: ok. 1 passed");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            println!("test unknown_tool_and_panic_over_stdio ... FAILED\n\n{failure}");
            ExitCode::FAILURE
        }
    }
}

/// The child: the billing server on stdin/stdout, its log lines on stderr.
async fn serve() -> ExitCode {
    let server = EnvelopeServer::new(rmcp_server::Billing::new()).log_with(|line| eprintln!("{line}"));
    match server.serve(rmcp::transport::stdio()).await {
        Ok(running) => {
            let _ = running.waiting().await;
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("the server did not start: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn unknown_tool_and_panic_over_stdio() -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let command = tokio::process::Command::new(exe).configure(|command| {
        command.env(SERVE, "1").env("RUST_BACKTRACE", "0");
    });
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawning the server: {e}"))?;
    let mut stderr = stderr.ok_or("no stderr pipe")?;
    let client = ().serve(transport).await.map_err(|e| format!("connecting: {e}"))?;

    let unknown = match client.call_tool(CallToolRequestParams::new("refund_orders")).await {
        Err(rmcp::ServiceError::McpError(error)) => error,
        other => return Err(format!("calling refund_orders: not a JSON-RPC error: {other:?}")),
    };
    check(
        unknown.code.0 == -32602 && unknown.message == rmcp_server::UNKNOWN_REFUND_ORDERS_MESSAGE,
        "the unknown-tool error",
        &format!("{unknown:?}"),
    )?;

    let arguments = serde_json::json!({"invoice_id": "inv_1", "amount_cents": 500});
    let serde_json::Value::Object(arguments) = arguments else {
        return Err("arguments are an object".into());
    };
    let crashed = client
        .call_tool(CallToolRequestParams::new("refund").with_arguments(arguments))
        .await
        .map_err(|e| format!("calling refund: {e}"))?;
    let text = first_text(&crashed)?;
    let start = "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n  <message>refund failed with an internal error.</message>";
    check(
        text.starts_with(start) && !text.contains("password"),
        "the internal-error result",
        text,
    )?;
    let id_at = text.find("<correlation_id>").ok_or("no correlation id")? + "<correlation_id>".len();
    let id = text.get(id_at..id_at + 16).ok_or("a short correlation id")?.to_owned();

    client.cancel().await.map_err(|e| format!("closing: {e}"))?;
    let mut log = String::new();
    stderr
        .read_to_string(&mut log)
        .await
        .map_err(|e| format!("reading the server's stderr: {e}"))?;
    let line = format!(
        "code=INTERNAL_ERROR correlationId=\"{id}\" tool=\"refund\" exception=\"panic: db password rejected refunding 500 of inv_1\""
    );
    check(log.lines().any(|l| l == line), "the server's log", &log)
}

fn first_text(result: &rmcp::model::CallToolResult) -> Result<&str, String> {
    match result.content.as_slice() {
        [one] => one
            .as_text()
            .map(|t| t.text.as_str())
            .ok_or_else(|| format!("not text: {result:?}")),
        _ => Err(format!("not one content block: {result:?}")),
    }
}

fn check(holds: bool, what: &str, got: &str) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(format!("{what} is not as expected:\n{got}"))
    }
}
