//! The billing server the rmcp tests run: tools as an rmcp user writes them
//! (`#[tool_router]`, `#[tool]`, `Parameters<T>` with schemars-derived
//! schemas), each one a way a tool call can go.

use mcp_envelope::rmcp::ToolCallError;
use mcp_envelope::{code, ToolError};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct GetInvoice {
    /// The invoice's ID, such as `inv_1`.
    id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Open,
    Paid,
    Void,
}

#[derive(Deserialize, JsonSchema)]
struct ListInvoices {
    status: Status,
    /// How many invoices at most.
    limit: u32,
}

#[derive(Deserialize, JsonSchema)]
struct Refund {
    invoice_id: String,
    amount_cents: i64,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CreateInvoice {
    #[schemars(email)]
    customer_email: String,
    #[schemars(regex(pattern = r"^[A-Z]{3}$"))]
    currency: String,
    lines: Vec<InvoiceLine>,
    /// Where the goods go, when they are shipped.
    shipping: Option<Address>,
    note: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Address {
    city: String,
}

#[derive(Deserialize, JsonSchema)]
struct InvoiceLine {
    sku: String,
    #[schemars(range(min = 1))]
    quantity: u32,
}

/// The JSON-RPC error's message for a call of `refund_orders` (no such tool)
/// on the wrapped server, by default.
pub const UNKNOWN_REFUND_ORDERS_MESSAGE: &str =
    "Unknown tool: refund_orders. This server's tools: create_invoice, get_invoice, list_invoices, refund, void_invoice.";

/// The same call's `isError` result's text, with the tool-result option.
pub const UNKNOWN_REFUND_ORDERS: &str = "\
<tool_error code=\"UNKNOWN_ACTION\" severity=\"error\">
  <message>No tool named 'refund_orders' on this server.</message>
  <recovery>Call one of the available tools instead, with the arguments its input schema asks for.</recovery>
  <available_actions>
    <action>create_invoice</action>
    <action>get_invoice</action>
    <action>list_invoices</action>
    <action>refund</action>
    <action>void_invoice</action>
  </available_actions>
</tool_error>";

/// A billing server as an rmcp user writes it.
#[derive(Clone)]
pub struct Billing {
    tool_router: ToolRouter<Self>,
}

/// The lookup a handler calls; its ToolError crosses the handler with `?`.
// A bare ToolError is large for a Result (ToolCallError boxes it); here it
// stands for the core's API a user's own code may return.
#[allow(clippy::result_large_err)]
fn find_invoice(id: &str) -> Result<&'static str, ToolError> {
    match id {
        "inv_1" => Ok("inv_1: 120.00 EUR, paid"),
        _ => Err(ToolError::new(code::NOT_FOUND, "No invoice with that ID")
            .suggest("List invoices first, then retry with a real ID")
            .actions(["list_invoices"])
            .detail("requestedId", id)),
    }
}

#[tool_router]
impl Billing {
    pub fn new() -> Self {
        Billing {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "One invoice by ID.")]
    async fn get_invoice(&self, Parameters(request): Parameters<GetInvoice>) -> Result<String, ToolCallError> {
        Ok(find_invoice(&request.id)?.to_owned())
    }

    #[tool(description = "Invoices with a status.")]
    async fn list_invoices(&self, Parameters(request): Parameters<ListInvoices>) -> String {
        let status = match request.status {
            Status::Open => "open",
            Status::Paid => "paid",
            Status::Void => "void",
        };
        format!("no {status} invoices (limit {})", request.limit)
    }

    #[tool(description = "Refunds part of an invoice.")]
    async fn refund(&self, Parameters(request): Parameters<Refund>) -> String {
        panic!(
            "db password rejected refunding {} of {}",
            request.amount_cents, request.invoice_id
        )
    }

    #[tool(description = "Creates an invoice.")]
    async fn create_invoice(&self, Parameters(request): Parameters<CreateInvoice>) -> String {
        let skus: Vec<&str> = request.lines.iter().map(|line| line.sku.as_str()).collect();
        let units: u32 = request.lines.iter().map(|line| line.quantity).sum();
        let shipping = request.shipping.map(|a| format!(", shipped to {}", a.city));
        let note = request.note.map(|n| format!(" ({n})"));
        format!(
            "created for {} in {}: {units} units of [{}]{}{}",
            request.customer_email,
            request.currency,
            skus.join(", "),
            shipping.unwrap_or_default(),
            note.unwrap_or_default()
        )
    }

    #[tool(description = "Voids an invoice.")]
    async fn void_invoice(&self, Parameters(request): Parameters<GetInvoice>) -> Result<String, rmcp::ErrorData> {
        Err(rmcp::ErrorData::internal_error(
            format!("ledger at 10.0.0.7 unreachable voiding {}", request.id),
            None,
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Billing {}

/// A server whose `export_invoices` runs as a task (SEP-2663, rmcp's
/// `TaskManager`), as an rmcp user writes one, and whose `connect_bank` asks
/// for a URL elicitation with a 2026-07-28 `input_required` result. With
/// `enveloped`, each task's operation goes through `enveloped_task`.
#[derive(Clone)]
pub struct Exports {
    tasks: std::sync::Arc<rmcp::task_manager::TaskManager>,
    enveloped: bool,
}

/// What `connect_bank` asks for: the user connects their bank, at this URL.
pub const BANK_CONSENT: &str = r#"{"resultType":"input_required","inputRequests":{"bank-consent":{"method":"elicitation/create","params":{"mode":"url","message":"Connect your bank account to continue.","url":"https://bank.example/consent?session=7"}}}}"#;

impl Exports {
    /// Every session of one server shares its tasks.
    pub fn new(enveloped: bool) -> Self {
        Exports {
            tasks: std::sync::Arc::default(),
            enveloped,
        }
    }

    /// The export of `year`: 2013 panics, 2014 fails with an internal error
    /// (each with a secret in its text), 2015 returns a tool error itself,
    /// 2012 an io error (its archive, a path holding a secret, is missing),
    /// any other year succeeds.
    fn export(year: i64) -> rmcp::task_manager::TaskFuture {
        Box::pin(async move {
            match year {
                2012 => {
                    let archive = std::env::temp_dir().join("no-such-archive/password=hunter2/2012.csv");
                    match std::fs::read_to_string(&archive) {
                        Ok(csv) => Ok(rmcp::model::CallToolResult::success(vec![
                            rmcp::model::ContentBlock::text(csv),
                        ])),
                        Err(e) => Ok(mcp_envelope::rmcp::ToolCallError::io(e, &archive).into_result()),
                    }
                }
                2013 => panic!("archive mount failed: password=hunter2"),
                2014 => Err(rmcp::ErrorData::internal_error("db connect failed: password=hunter2", None).into()),
                2015 => Ok(mcp_envelope::rmcp::call_tool_result(
                    &ToolError::new(code::NOT_FOUND, "No invoices in 2015.").suggest("Export 2016 or later."),
                    mcp_envelope::Format::Xml,
                )),
                _ => Ok(rmcp::model::CallToolResult::success(vec![
                    rmcp::model::ContentBlock::text(format!("Exported the invoices of {year}.")),
                ])),
            }
        })
    }
}

impl ServerHandler for Exports {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        let capabilities = rmcp::model::ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        let mut info = rmcp::model::ServerConfig::new(capabilities);
        info.server_info.name = "exports".into();
        info.server_info.version = "1.0.0".into();
        info
    }

    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let schema = |json: serde_json::Value| match json {
            serde_json::Value::Object(schema) => schema,
            _ => unreachable!("a schema is an object"),
        };
        Ok(rmcp::model::ListToolsResult::with_all_items(vec![
            rmcp::model::Tool::new(
                "export_invoices",
                "Export a year's invoices, as a task.",
                schema(
                    serde_json::json!({"type": "object", "properties": {"year": {"type": "integer"}}, "required": ["year"]}),
                ),
            ),
            rmcp::model::Tool::new(
                "connect_bank",
                "Connect the customer's bank account.",
                schema(serde_json::json!({"type": "object"})),
            ),
        ]))
    }

    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        match request.name.as_ref() {
            "export_invoices" => {
                let year = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("year"))
                    .and_then(serde_json::Value::as_i64)
                    .unwrap_or(0);
                let enveloped = self.enveloped;
                let options = rmcp::task_manager::TaskOptions::new().with_poll_interval_ms(20);
                let task = self.tasks.spawn(options, move |_context| {
                    let operation = Exports::export(year);
                    if enveloped {
                        mcp_envelope::rmcp::enveloped_task(
                            "export_invoices",
                            mcp_envelope::Format::Xml,
                            mcp_envelope::Locale::En,
                            operation,
                        )
                    } else {
                        operation
                    }
                });
                Ok(rmcp::model::CallToolResponse::Task(rmcp::model::CreateTaskResult::new(
                    task,
                )))
            }
            "connect_bank" => {
                let asked: rmcp::model::InputRequiredResult =
                    serde_json::from_str(BANK_CONSENT).expect("an input_required result");
                Ok(rmcp::model::CallToolResponse::InputRequired(asked))
            }
            _ => Err(rmcp::ErrorData::invalid_params("no such tool", None)),
        }
    }

    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, rmcp::ErrorData> {
        self.tasks
            .get_task(&request.task_id)
            .map(rmcp::model::GetTaskResult::new)
    }
}

/// Serves `Billing` wrapped in `EnvelopeServer` (its log line dropped) over
/// an in-memory pipe, calls `tool` with `arguments` and the request's
/// `_meta`, and gives what the client got as text: the result's JSON, or the
/// error's words.
pub async fn call_enveloped(
    tool: &str,
    arguments: serde_json::Value,
    meta: Option<rmcp::model::RequestMetaObject>,
) -> String {
    use rmcp::ServiceExt;
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let server = mcp_envelope::rmcp::EnvelopeServer::new(Billing::new()).log_with(|_| {});
    tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let client = ().serve(client_end).await.expect("the client connects");
    let mut params = rmcp::model::CallToolRequestParams::new(tool.to_owned());
    if let serde_json::Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    params.meta = meta;
    match client.call_tool(params).await {
        Ok(result) => serde_json::to_string(&result).unwrap(),
        Err(error) => error.to_string(),
    }
}
