//! The JSON form: one object with the agent-facing names (`errorCategory`,
//! `isRetryable`, `reason`, `customerMessage`) plus every other field set.
//!
//! Unlike the XML and text forms it always states the effective category and
//! retryability, since they are the point of this form. JSON escaping is
//! lossless, so no character is replaced.

use std::borrow::Cow;

use serde::Serialize;

use super::capped::{render_capped, Capped};
use crate::code::Category;
use crate::delta::ContractDelta;
use crate::json::{is_zero, to_json, Pairs};
use crate::tool_error::model::{Severity, ToolError};

/// Renders the JSON form, compact, keys in a fixed order.
///
/// ```
/// use mcp_envelope::{code, render_json, ToolError};
/// let e = ToolError::new(code::RATE_LIMITED, "Too many requests").retry_after(30);
/// assert_eq!(
///     render_json(&e),
///     r#"{"code":"RATE_LIMITED","severity":"error","errorCategory":"transient","isRetryable":true,"reason":"Too many requests","recovery":"Wait for the retry-after period, then make the same call again.","retryAfter":30}"#
/// );
/// ```
pub fn render_json(error: &ToolError) -> String {
    render_capped(error, write)
}

/// The JSON form's object, in its key order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonForm<'a> {
    code: &'a str,
    severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_category: Option<Category>,
    is_retryable: bool,
    reason: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recovery: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    available_actions: &'a [Cow<'a, str>],
    #[serde(skip_serializing_if = "is_zero")]
    omitted_actions: usize,
    #[serde(skip_serializing_if = "Pairs::is_empty")]
    details: Pairs<'a, Cow<'a, str>, Cow<'a, str>>,
    #[serde(skip_serializing_if = "is_zero")]
    omitted_details: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    customer_message: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    correlation_id: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    contract_deltas: &'a [Cow<'a, ContractDelta>],
    #[serde(skip_serializing_if = "is_zero")]
    omitted_deltas: usize,
}

fn write(view: &Capped<'_>) -> String {
    let error = view.error;
    to_json(&JsonForm {
        code: &view.code,
        severity: error.severity,
        error_category: error.category_or_default(),
        is_retryable: error.is_retryable(),
        reason: view.message.text(),
        recovery: view.recovery.as_deref(),
        available_actions: &view.actions,
        omitted_actions: view.omitted_actions,
        details: Pairs(&view.details),
        omitted_details: view.omitted_details,
        retry_after: error.retry_after,
        customer_message: view.customer_message.as_ref().map(|text| text.text()),
        correlation_id: view.correlation_id.as_deref(),
        contract_deltas: &view.deltas,
        omitted_deltas: view.omitted_deltas,
    })
}
