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
