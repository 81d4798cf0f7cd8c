//! A `ServerHandler` written by hand, as a low-level server is in the other
//! SDKs: its own `list_tools`, its own `call_tool` answering failures with
//! JSON-RPC errors. Behind `EnvelopeServer` each error reaches the model as
//! the core's `rpcError` outcome says, byte for byte the result the shared
//! vectors pin for every language (vectors/thrown-errors.json), and an
//! argument that fails the listed schema never reaches the handler.

use std::sync::{Arc, Mutex};

use mcp_envelope::rmcp::EnvelopeServer;
use mcp_envelope::Format;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};

/// Tools whose handler answers with the JSON-RPC errors the vectors hold.
#[derive(Clone, Default)]
struct HandWritten {
    calls: Arc<Mutex<Vec<String>>>,
}

impl ServerHandler for HandWritten {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = |value: Value| value.as_object().cloned().unwrap_or_default();
        let query =
            schema(json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}));
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("brave_web_search", "Refuses its arguments itself.", query),
            Tool::new(
                "query",
                "Names a tool it does not know.",
                schema(json!({"type": "object"})),
            ),
            Tool::new(
                "search_repositories",
                "Fails upstream.",
                schema(json!({"type": "object"})),
            ),
            Tool::new("lock", "Crashes.", schema(json!({"type": "object"}))),
            Tool::new("get_time", "Works.", schema(json!({"type": "object"}))),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.calls.lock().unwrap().push(request.name.to_string());
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        match request.name.as_ref() {
            "brave_web_search" => Err(ErrorData::invalid_params(
                "Invalid arguments for brave_web_search",
                None,
            )),
            "query" => Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "Unknown tool: nope", None)),
            "search_repositories" => Err(ErrorData::new(
                ErrorCode(-32000),
                format!("GitHub API Error: Bad credentials for token {token}"),
                Some(json!({"token": token})),
            )),
            "lock" => Err(ErrorData::internal_error("database is locked", None)),
            _ => Ok(CallToolResult::success(vec![ContentBlock::text("12:00")]).into()),
        }
    }
}

struct Connected {
    client: RunningService<RoleClient, ()>,
    log: Arc<Mutex<Vec<String>>>,
    calls: Arc<Mutex<Vec<String>>>,
}

async fn connect(format: Format) -> Connected {
    let handler = HandWritten::default();
    let calls = handler.calls.clone();
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = log.clone();
    let server = EnvelopeServer::new(handler)
        .format(format)
        .log_with(move |line| lines.lock().unwrap().push(line.to_owned()));
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_end).await.expect("the client connects");
    Connected { client, log, calls }
}

impl Connected {
    async fn call(&self, tool: &str, arguments: Value) -> Value {
        let Value::Object(arguments) = arguments else {
            panic!("arguments are an object")
        };
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let result = self
            .client
            .call_tool(params)
            .await
            .expect("a result, not a JSON-RPC error");
        serde_json::to_value(result).unwrap()
    }
}

/// The result vectors/thrown-errors.json pins for the case `description`.
fn pinned(description: &str) -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/thrown-errors.json");
    let groups: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = groups
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|group| group["cases"].as_array().unwrap())
        .find(|case| case["description"].as_str().unwrap().starts_with(description))
        .unwrap_or_else(|| panic!("no vector {description}"));
    case["output"]["result"].clone()
}

#[tokio::test]
async fn a_handlers_json_rpc_errors_reach_the_model_as_the_vectors_pin() {
    let server = connect(Format::Xml).await;
    assert_eq!(
        server.call("brave_web_search", json!({"query": "rust"})).await,
        pinned("a JSON-RPC error for invalid params")
    );
    assert_eq!(
        server.call("query", json!({})).await,
        pinned("method not found becomes UNKNOWN_ACTION")
    );

    let json_server = connect(Format::Json).await;
    let told = json_server.call("search_repositories", json!({})).await;
    assert_eq!(told, pinned("any other JSON-RPC error reads as a plain Error's words"));
    assert!(!told.to_string().contains("ghp_"), "{told}");
}

#[tokio::test]
async fn an_internal_error_is_a_crash_its_text_in_the_log_only() {
    let server = connect(Format::Xml).await;
    let told = server.call("lock", json!({})).await;
    let text = told["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n  <message>lock failed with an internal error.</message>"), "{text}");
    assert!(!text.contains("locked"), "{text}");
    let log = server.log.lock().unwrap().clone();
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(
        log[0].starts_with("code=INTERNAL_ERROR correlationId=\"err_") && log[0].contains("database is locked"),
        "{log:?}"
    );
}

#[tokio::test]
async fn arguments_failing_the_listed_schema_never_reach_the_handler_and_successes_pass() {
    let server = connect(Format::Xml).await;
    let told = server.call("brave_web_search", json!({"query": 7})).await;
    assert_eq!(
        told["content"][0]["text"],
        "<validation_error action=\"brave_web_search\">\n  <field name=\"query\">Wrong type. You sent: 7. Expected a string.</field>\n  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
    );
    assert_eq!(
        server.call("get_time", json!({})).await,
        json!({"content": [{"type": "text", "text": "12:00"}], "isError": false})
    );
    assert_eq!(*server.calls.lock().unwrap(), vec!["get_time"]);
}
