//! Tool calls run as tasks on rmcp (the tasks extension, SEP-2663): a tool
//! failure ends the task `completed` with the envelope and `isError: true`,
//! as the extension says, when the task's operation goes through
//! `enveloped_task`; without it rmcp ends the task `failed`, the failure's
//! text (a secret here) in a JSON-RPC error.

use std::time::Duration;

use mcp_envelope::rmcp::EnvelopeServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, GetTaskParams, Implementation,
};
use rmcp::ServiceExt;
use serde_json::{json, Value};

#[allow(dead_code)]
mod rmcp_server;
use rmcp_server::Exports;

/// The state `tasks/get` reports once the task of `export_invoices` for `year` has ended, as JSON.
async fn ended_task(enveloped: bool, year: i64) -> Value {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let server = EnvelopeServer::new(Exports::new(enveloped));
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    // A client that declares the tasks extension: rmcp answers a task to no other.
    let capabilities = ClientCapabilities::builder().enable_tasks().build();
    let client = ClientConfig::new(capabilities, Implementation::new("tasks-test", "1.0.0"))
        .serve(client_end)
        .await
        .expect("the client connects");
    let params = CallToolRequestParams::new("export_invoices")
        .with_arguments(json!({ "year": year }).as_object().unwrap().clone());
    let task = match client.call_tool_once(params).await.expect("an answer") {
        CallToolResponse::Task(created) => created.task,
        other => panic!("a task, not {other:?}"),
    };
    for _ in 0..250 {
        let state = client
            .get_task(GetTaskParams::new(task.task_id.clone()))
            .await
            .expect("tasks/get");
        if state.task.status().is_terminal() {
            return serde_json::to_value(&state).unwrap();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the task did not end within 5 s")
}

fn envelope_text(state: &Value) -> &str {
    state["result"]["content"][0]["text"]
        .as_str()
        .expect("the result's text")
}

#[tokio::test]
async fn a_panic_in_a_task_ends_it_completed_with_the_internal_error_envelope() {
    let state = ended_task(true, 2013).await;
    assert_eq!(
        (&state["status"], &state["result"]["isError"]),
        (&json!("completed"), &json!(true))
    );
    let text = envelope_text(&state);
    assert!(
        text.starts_with("<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n  <message>export_invoices failed with an internal error.</message>"),
        "{text}"
    );
    assert!(!state.to_string().contains("hunter2"), "{state}");
}

#[tokio::test]
async fn an_internal_error_in_a_task_ends_it_completed_with_the_envelope_not_failed() {
    let state = ended_task(true, 2014).await;
    assert_eq!(
        (&state["status"], &state["result"]["isError"]),
        (&json!("completed"), &json!(true))
    );
    assert!(envelope_text(&state).contains("<correlation_id>err_"), "{state}");
    assert!(!state.to_string().contains("hunter2"), "{state}");
}

#[tokio::test]
async fn without_enveloped_task_rmcp_ends_it_failed_with_the_secret_in_its_error() {
    let state = ended_task(false, 2014).await;
    assert_eq!(state["status"], json!("failed"));
    assert_eq!(state["error"]["message"], json!("db connect failed: password=hunter2"));
}

#[tokio::test]
async fn a_tool_error_and_a_success_in_a_task_are_their_results_as_they_came() {
    let failed = ended_task(true, 2015).await;
    assert_eq!(
        (&failed["status"], &failed["result"]["isError"]),
        (&json!("completed"), &json!(true))
    );
    assert_eq!(
        envelope_text(&failed),
        "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n  <message>No invoices in 2015.</message>\n  <recovery>Export 2016 or later.</recovery>\n</tool_error>"
    );
    let done = ended_task(true, 2016).await;
    assert_eq!(done["status"], json!("completed"));
    assert_eq!(
        done["result"]["content"][0]["text"],
        json!("Exported the invoices of 2016.")
    );
}

/// A library's failure in a task's operation is answered for the task's
/// tool, in its form: the code its kind tells, no path, the same log.
#[tokio::test]
async fn an_io_error_in_a_task_ends_it_completed_with_its_code() {
    let state = ended_task(true, 2012).await;
    assert_eq!(
        (&state["status"], &state["result"]["isError"]),
        (&json!("completed"), &json!(true))
    );
    let text = envelope_text(&state);
    assert!(
        text.starts_with("<tool_error code=\"NOT_FOUND\" severity=\"error\">\n  <message>A file or folder this call needs does not exist.</message>"),
        "{text}"
    );
    assert!(!state.to_string().contains("hunter2"), "{state}");
}
