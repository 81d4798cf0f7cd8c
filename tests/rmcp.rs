//! The `rmcp` feature end to end: a real rmcp server (`#[tool_router]`,
//! `#[tool]` handlers, `Parameters<T>` with schemars-derived schemas) wrapped
//! in `EnvelopeServer`, and a real rmcp client, connected over an in-memory
//! pipe. Each test states the exact text the model reads.

use std::sync::{Arc, Mutex};

use mcp_envelope::rmcp::{EnvelopeServer, UnknownToolAnswer};
use mcp_envelope::stores::{MemoryStore, SharedLedger};
use mcp_envelope::Ledger;
use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{json, Value};

#[allow(dead_code)]
mod rmcp_server;

use rmcp_server::Billing;

/// A client connected to the enveloped billing server, and the server's log lines.
struct Connected {
    client: RunningService<RoleClient, ()>,
    log: Arc<Mutex<Vec<String>>>,
}

async fn connect() -> Connected {
    connect_with(EnvelopeServer::new(Billing::new())).await
}

async fn connect_with(server: EnvelopeServer<Billing>) -> Connected {
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = Arc::clone(&log);
    let server = server.log_with(move |line| lines.lock().unwrap().push(line.to_owned()));
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_end).await.expect("the client connects");
    Connected { client, log }
}

impl Connected {
    async fn call(&self, tool: &str, arguments: Value) -> Result<CallToolResult, ServiceError> {
        let Value::Object(arguments) = arguments else {
            panic!("arguments are an object")
        };
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        self.client.call_tool(params).await
    }

    /// The one text block and `isError` of a call's result.
    async fn text_of(&self, tool: &str, arguments: Value) -> (String, Option<bool>) {
        let result = self
            .call(tool, arguments)
            .await
            .expect("a result, not a JSON-RPC error");
        assert_eq!(result.content.len(), 1, "one content block: {result:?}");
        assert_eq!(result.structured_content, None);
        let text = result.content[0].as_text().expect("a text block").text.clone();
        (text, result.is_error)
    }

    fn log_lines(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

#[tokio::test]
async fn a_success_passes_through_untouched() {
    let server = connect().await;
    let (text, is_error) = server.text_of("get_invoice", json!({"id": "inv_1"})).await;
    assert_eq!(text, "inv_1: 120.00 EUR, paid");
    assert_eq!(is_error, Some(false));
    let (text, _) = server
        .text_of("list_invoices", json!({"status": "paid", "limit": 5}))
        .await;
    assert_eq!(text, "no paid invoices (limit 5)");
    assert_eq!(server.log_lines(), Vec::<String>::new());
}

#[tokio::test]
async fn a_tool_error_propagated_with_question_mark_is_its_envelope() {
    let server = connect().await;
    let (text, is_error) = server.text_of("get_invoice", json!({"id": "inv_404"})).await;
    assert_eq!(
        text,
        "\
<tool_error code=\"NOT_FOUND\" severity=\"error\">
  <message>No invoice with that ID</message>
  <recovery>List invoices first, then retry with a real ID</recovery>
  <available_actions>
    <action>list_invoices</action>
  </available_actions>
  <details>
    <detail key=\"requestedId\">inv_404</detail>
  </details>
</tool_error>"
    );
    assert_eq!(is_error, Some(true));
}

/// By default as the specification says: a JSON-RPC -32602 naming the
/// tools, the UNKNOWN_ACTION envelope's JSON form as its `data`.
#[tokio::test]
async fn an_unknown_tool_is_a_json_rpc_error_naming_the_tools() {
    let server = connect().await;
    let error = match server.call("refund_orders", json!({})).await {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("a JSON-RPC error, not {other:?}"),
    };
    // Compared by meaning: rmcp holds `data` as a serde_json `Value`, whose
    // keys go out in the order the build's serde_json keeps (sorted unless
    // `preserve_order` is on); the core's own text keeps them as written.
    let value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        value(&format!(
            r#"{{"code":-32602,"message":"{}","data":{}}}"#,
            rmcp_server::UNKNOWN_REFUND_ORDERS_MESSAGE,
            UNKNOWN_REFUND_ORDERS_DATA
        ))
    );
    // What the core gives every language.
    let core = mcp_envelope::raw::unknown_tool(
        r#"{"tool":"refund_orders","tools":["create_invoice","get_invoice","list_invoices","refund","void_invoice"]}"#,
    )
    .unwrap();
    assert_eq!(value(&core), json!({ "error": error }));
}

/// The envelope a -32602 for `refund_orders` carries as `data`.
const UNKNOWN_REFUND_ORDERS_DATA: &str = concat!(
    r#"{"code":"UNKNOWN_ACTION","severity":"error","errorCategory":"validation","isRetryable":true,"#,
    r#""reason":"No tool named 'refund_orders' on this server.","#,
    r#""recovery":"Call one of the available tools instead, with the arguments its input schema asks for.","#,
    r#""availableActions":["create_invoice","get_invoice","list_invoices","refund","void_invoice"]}"#
);

/// With the tool-result option, SEP-2145's answer: an `isError` result
/// carrying the envelope, in the server's format.
#[tokio::test]
async fn with_the_tool_result_option_an_unknown_tool_is_a_result_listing_the_tools() {
    let server = connect_with(EnvelopeServer::new(Billing::new()).unknown_tool(UnknownToolAnswer::ToolResult)).await;
    let (text, is_error) = server.text_of("refund_orders", json!({})).await;
    assert_eq!(text, rmcp_server::UNKNOWN_REFUND_ORDERS);
    assert_eq!(is_error, Some(true));
}

#[tokio::test]
async fn a_wrong_type_is_a_validation_error() {
    let server = connect().await;
    let (text, is_error) = server.text_of("get_invoice", json!({"id": 42})).await;
    assert_eq!(
        text,
        "\
<validation_error action=\"get_invoice\">
  <field name=\"id\">Wrong type. You sent: 42. Expected a string.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>"
    );
    assert_eq!(is_error, Some(true));
}

// The fields come in the order of the tool's input schema as rmcp holds it:
// schemars writes `properties` as a serde_json map, sorted by name unless the
// build enables serde_json's `preserve_order` (this crate does not).
#[tokio::test]
async fn a_missing_required_field_is_a_validation_error() {
    let server = connect().await;
    let (text, _) = server.text_of("refund", json!({})).await;
    // amount_cents's schema carries schemars' `format: "int64"`, a storage
    // width the core does not read as a format: the type is what is expected.
    assert_eq!(
        text,
        "\
<validation_error action=\"refund\">
  <field name=\"amount_cents\">Missing required field. You sent: nothing. Expected an integer.</field>
  <field name=\"invoice_id\">Missing required field. You sent: nothing. Expected a string.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>"
    );
    // The handler never ran: no panic, no log line.
    assert_eq!(server.log_lines(), Vec::<String>::new());
}

#[tokio::test]
async fn an_enum_miss_is_a_validation_error_listing_the_values() {
    let server = connect().await;
    let (text, _) = server
        .text_of("list_invoices", json!({"status": "overdue", "limit": -1}))
        .await;
    assert_eq!(
        text,
        "\
<validation_error action=\"list_invoices\">
  <field name=\"limit\">Too small. You sent: -1. Expected at least 0.</field>
  <field name=\"status\">Not one of the allowed values. You sent: 'overdue'. Expected one of: 'open', 'paid', 'void'.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>"
    );
}

#[tokio::test]
async fn formats_patterns_nested_items_and_extra_keys_are_validation_errors() {
    let server = connect().await;
    let arguments = json!({
        "colour": "red",
        "customer_email": "jo-at-example",
        "currency": "euro",
        "lines": [{"sku": "A-1", "quantity": 2}, {"sku": 7, "quantity": 0}],
    });
    let (text, _) = server.text_of("create_invoice", arguments).await;
    assert_eq!(
        text,
        "\
<validation_error action=\"create_invoice\">
  <field name=\"currency\">Does not match the required pattern. You sent: 'euro'. Expected text matching the pattern '^[A-Z]{3}$'.</field>
  <field name=\"customer_email\">Invalid email format. You sent: 'jo-at-example'. Expected a valid email address.</field>
  <field name=\"lines[1].quantity\">Too small. You sent: 0. Expected at least 1.</field>
  <field name=\"lines[1].sku\">Wrong type. You sent: 7. Expected a string.</field>
  <field name=\"(arguments)\">Unrecognized key 'colour'. You sent: 'colour'. Expected only the declared keys; remove it.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>"
    );
    let (text, _) = server
        .text_of(
            "create_invoice",
            json!({"customer_email": "jo@example.com", "currency": "EUR", "lines": [{"sku": "A-1", "quantity": 2}]}),
        )
        .await;
    assert_eq!(text, "created for jo@example.com in EUR: 2 units of [A-1]");
}

#[tokio::test]
async fn a_wrong_optional_field_is_worded_from_its_one_branch() {
    let server = connect().await;
    let arguments = json!({
        "customer_email": "jo@example.com",
        "currency": "EUR",
        "lines": [],
        "shipping": {"city": 5},
        "note": 7,
    });
    let (text, _) = server.text_of("create_invoice", arguments).await;
    assert_eq!(
        text,
        "\
<validation_error action=\"create_invoice\">
  <field name=\"note\">Wrong type. You sent: 7. Expected a string.</field>
  <field name=\"shipping.city\">Wrong type. You sent: 5. Expected a string.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>"
    );
    let arguments = json!({
        "customer_email": "jo@example.com",
        "currency": "EUR",
        "lines": [],
        "shipping": {"city": "Porto"},
        "note": null,
    });
    let (text, _) = server.text_of("create_invoice", arguments).await;
    assert_eq!(
        text,
        "created for jo@example.com in EUR: 0 units of [], shipped to Porto"
    );
}

#[tokio::test]
async fn with_a_lockfile_a_validation_error_tells_what_changed_in_the_tool() {
    // Yesterday's contract, as a lockfile: the server's list today, with
    // `refund` then taking no `amount_cents` and an `invoice_id` of at most 8 characters.
    let today = connect().await.client.list_all_tools().await.expect("tools/list");
    let mut yesterday = serde_json::to_value(&today).unwrap();
    let refund = yesterday
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == "refund")
        .unwrap();
    let schema = &mut refund["inputSchema"];
    schema["properties"].as_object_mut().unwrap().remove("amount_cents");
    schema["required"] = json!(["invoice_id"]);
    schema["properties"]["invoice_id"]["maxLength"] = json!(8);
    let lockfile = mcp_envelope::raw::contract_lock(&yesterday.to_string()).unwrap();

    let server = connect_with(EnvelopeServer::new(Billing::new()).lockfile(&lockfile).unwrap()).await;
    let (text, is_error) = server.text_of("refund", json!({"invoice_id": 7})).await;
    assert_eq!(
        text,
        "\
<validation_error action=\"refund\">
  <field name=\"amount_cents\">Missing required field. You sent: nothing. Expected an integer.</field>
  <field name=\"invoice_id\">Wrong type. You sent: 7. Expected a string.</field>
  <contract_awareness>
    <delta severity=\"BREAKING\" action=\"refund\" field=\"amount_cents\">amount_cents is a new required field</delta>
  </contract_awareness>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>"
    );
    assert_eq!(is_error, Some(true));
    // The SAFE loosening (invoice_id's maximum length gone) is not the model's to hear.
    let deltas = mcp_envelope::contract::diff(
        &mcp_envelope::contract::read_tools(&lockfile, "the lock").unwrap(),
        &mcp_envelope::contract::tools_of(serde_json::to_value(&today).unwrap(), "today").unwrap(),
    );
    let severities: Vec<&str> = deltas.iter().map(|d| d.severity.as_str()).collect();
    assert_eq!(severities, ["SAFE", "BREAKING"]);
}

#[test]
fn a_lockfile_the_core_cannot_read_is_refused_at_start() {
    let Err(refused) = EnvelopeServer::new(Billing::new()).lockfile("{\"tools\": 3}") else {
        panic!("a lockfile without tools is refused")
    };
    assert_eq!(
        refused.to_string(),
        "the lockfile has no \"tools\" array: give a tools/list result, its tools array or a lockfile"
    );
}

#[tokio::test]
async fn a_panicking_handler_is_an_internal_error_under_a_correlation_id() {
    let server = connect().await;
    let (text, is_error) = server
        .text_of("refund", json!({"invoice_id": "inv_1", "amount_cents": 500}))
        .await;
    assert_eq!(is_error, Some(true));
    let id = correlation_id_in(&text);
    assert_eq!(
        text,
        format!(
            "\
<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">
  <message>refund failed with an internal error.</message>
  <recovery>Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.</recovery>
  <customer_message>Something went wrong on our side. It was recorded under the reference {id}.</customer_message>
  <correlation_id>{id}</correlation_id>
</tool_error>"
        )
    );
    assert!(!text.contains("password"));
    assert_eq!(
        server.log_lines(),
        [format!(
            "code=INTERNAL_ERROR correlationId=\"{id}\" tool=\"refund\" exception=\"panic: db password rejected refunding 500 of inv_1\""
        )]
    );
}

#[tokio::test]
async fn a_handler_internal_error_is_an_internal_error_result() {
    let server = connect().await;
    let (text, is_error) = server.text_of("void_invoice", json!({"id": "inv_1"})).await;
    assert_eq!(is_error, Some(true));
    let id = correlation_id_in(&text);
    assert!(text.starts_with(
        "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n  <message>void_invoice failed with an internal error.</message>"
    ));
    assert!(!text.contains("10.0.0.7"));
    assert_eq!(
        server.log_lines(),
        [format!(
            "code=INTERNAL_ERROR correlationId=\"{id}\" tool=\"void_invoice\" exception=\"-32603: ledger at 10.0.0.7 unreachable voiding inv_1\""
        )]
    );
    // Each failure gets its own id.
    let (again, _) = server.text_of("void_invoice", json!({"id": "inv_1"})).await;
    assert_ne!(correlation_id_in(&again), id);
}

#[tokio::test]
async fn the_request_s_own_fault_stays_a_json_rpc_error() {
    let server = connect().await;
    // Not a tools/call at all: the inner handler's answer, unchanged.
    let error = server
        .client
        .get_prompt(rmcp::model::GetPromptRequestParams::new("summary"))
        .await
        .unwrap_err();
    match error {
        ServiceError::McpError(data) => assert_eq!(data.code, ErrorCode::METHOD_NOT_FOUND),
        other => panic!("a JSON-RPC error, not {other:?}"),
    }
}

/// The `err_` id the envelope carries: `err_` and 12 lower-case hex digits.
fn correlation_id_in(text: &str) -> String {
    let start = text.find("<correlation_id>").expect("a correlation id") + "<correlation_id>".len();
    let id = &text[start..start + 16];
    assert!(id.starts_with("err_"), "{id}");
    assert!(
        id[4..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{id}"
    );
    id.to_owned()
}

#[tokio::test]
async fn with_a_ledger_a_repeated_failure_comes_back_shorter_then_as_a_stop() {
    let server = connect_with(EnvelopeServer::new(Billing::new()).ledger(Ledger::new(2))).await;
    let missing = json!({"id": "inv_404"});
    let mut sent = Vec::new();
    for _ in 0..3 {
        sent.push(server.text_of("get_invoice", missing.clone()).await);
    }
    assert_eq!(sent, repeated_failure_answers());
}

#[tokio::test]
async fn a_shared_ledger_counts_one_streak_across_replicas() {
    // Two servers (two replicas) whose ledgers share one store: the model
    // repeating a failure on alternating replicas meets the same stop.
    let store = Arc::new(MemoryStore::default());
    let replica = || {
        EnvelopeServer::new(Billing::new()).shared_ledger(SharedLedger::new(Arc::clone(&store), "conversation-1", 2))
    };
    let replicas = [connect_with(replica()).await, connect_with(replica()).await];
    let missing = json!({"id": "inv_404"});
    let mut sent = Vec::new();
    for turn in 0..3 {
        sent.push(replicas[turn % 2].text_of("get_invoice", missing.clone()).await);
    }
    assert_eq!(sent, repeated_failure_answers());
    // A success ends the streak: the same failure is worded in full again.
    replicas[1].text_of("get_invoice", json!({"id": "inv_1"})).await;
    assert_eq!(
        replicas[0].text_of("get_invoice", missing).await,
        repeated_failure_answers()[0]
    );
}

/// A missing invoice asked for three times under a ledger that stops after 2.
fn repeated_failure_answers() -> Vec<(String, Option<bool>)> {
    vec![
        (concat!(
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n",
            "  <message>No invoice with that ID</message>\n",
            "  <recovery>List invoices first, then retry with a real ID</recovery>\n",
            "  <available_actions>\n",
            "    <action>list_invoices</action>\n",
            "  </available_actions>\n",
            "  <details>\n",
            "    <detail key=\"requestedId\">inv_404</detail>\n",
            "  </details>\n",
            "</tool_error>"
        ).to_owned(), Some(true)),
        (concat!(
            "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n",
            "  <message>Nothing has changed since the last attempt: the same failure again (2 in a row).</message>\n",
            "  <recovery>List invoices first, then retry with a real ID</recovery>\n",
            "</tool_error>"
        ).to_owned(), Some(true)),
        (concat!(
            "<tool_error code=\"NOT_FOUND\" severity=\"critical\">\n",
            "  <message>Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.</message>\n",
            "  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n",
            "</tool_error>"
        ).to_owned(), Some(true)),
    ]
}
