//! The proposed MCP ToolFailure metadata (SEP-3313, modelcontextprotocol
//! pull requests 3312 and 3313, a draft): a `CallToolResult` may carry
//! `_meta["io.modelcontextprotocol/toolFailure"]` so clients can branch on a
//! failure without reading prose. Off unless a spec asks for it; this module
//! tracks the proposal and will follow it if it changes.
//!
//! Our category decides the proposal's behavioural `class`: transient is
//! `reliability` (retrying can help), permission is `governance` (someone must
//! act out of band), everything else is `capability` (this call as made cannot
//! succeed). Canonical codes with a baseline term in the proposal use it
//! (`auth_required`, `permission_denied`, `resource_not_found`,
//! `invalid_input`, and `retryable_transient_error` while it is retryable);
//! other codes are sent as they are.

use crate::code::{self, Category};
use crate::cut::{capped, Marker};
use crate::json::push_json_string;
use crate::tool_error::model::ToolError;

/// The `_meta` member key the proposal names.
pub const TOOL_FAILURE_KEY: &str = "io.modelcontextprotocol/toolFailure";

/// `"class"` of the proposal for a category.
fn class(category: Option<Category>) -> &'static str {
    match category {
        Some(Category::Transient) => "reliability",
        Some(Category::Permission) => "governance",
        _ => "capability",
    }
}

/// The proposal's baseline term for a canonical code, or the code itself.
fn proposal_code(error: &ToolError) -> &str {
    match error.code.as_str() {
        code::AUTH_REQUIRED | code::UNAUTHORIZED => "auth_required",
        code::FORBIDDEN => "permission_denied",
        code::NOT_FOUND => "resource_not_found",
        other => match code::defaults(other).map(|d| d.category) {
            Some(Category::Validation) => "invalid_input",
            // The baseline term says "retryable": not for a transient failure marked otherwise.
            Some(Category::Transient) if error.is_retryable() => "retryable_transient_error",
            _ => other,
        },
    }
}

/// Appends `,"_meta":{...}` for an error result that asked for it and has a
/// correlation id (the proposal requires one; the spec reader refuses a
/// request without it). Nothing for a warning: the proposal puts the
/// metadata on error results only.
pub fn push_tool_failure_meta(out: &mut String, error: &ToolError) {
    let (Some(meta), Some(id), true) = (error.tool_failure, error.correlation_id_text(), error.is_error()) else {
        return;
    };
    let category = error.category_or_default();
    // The texts are capped as the envelope's are: the metadata must not carry what the envelope cut.
    let cap = error.limits_or_default().message_chars;
    let marker = Marker::of(error.locale, error.localize_steering);
    out.push_str(",\"_meta\":{\"");
    out.push_str(TOOL_FAILURE_KEY);
    out.push_str("\":{\"class\":\"");
    out.push_str(class(category));
    out.push_str("\",\"code\":");
    push_json_string(out, &capped(proposal_code(error), cap, marker));
    // `retryable` and `retryNotBefore` are only meaningful for reliability failures.
    if category == Some(Category::Transient) {
        let retryable = error.is_retryable();
        out.push_str(if retryable {
            ",\"retryable\":true"
        } else {
            ",\"retryable\":false"
        });
        if let (true, Some(seconds), Some(now)) = (retryable, error.retry_after, meta.now_ms) {
            let not_before = now.saturating_add(u64::from(seconds).saturating_mul(1000));
            out.push_str(&format!(",\"retryNotBefore\":{not_before}"));
        }
    }
    out.push_str(",\"correlationId\":");
    push_json_string(out, &capped(id, cap, marker));
    if let Some(guidance) = error.recovery() {
        out.push_str(",\"agentGuidance\":");
        push_json_string(out, &capped(guidance, cap, marker));
    }
    out.push_str("}}");
}
