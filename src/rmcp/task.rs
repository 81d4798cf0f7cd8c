//! Tool calls an rmcp server runs as tasks (the tasks extension, SEP-2663,
//! on rmcp's `TaskManager`). The extension says a tool call that returns
//! `isError: true` ends its task `completed` with that result, and `failed`
//! is only for a JSON-RPC error. rmcp settles a task from what its operation
//! returns, after [`super::EnvelopeServer`] has answered the call with the
//! task's handle, so the operation itself is wrapped: [`enveloped_task`]
//! turns a panic, or a JSON-RPC internal error, into the INTERNAL_ERROR
//! envelope the same failure gets outside a task, and the task ends
//! `completed` with `isError: true`; the failure's text goes to the log only.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use ::rmcp::model::{CallToolResult, ErrorCode};
use ::rmcp::task_manager::{TaskExit, TaskFuture};
use futures::FutureExt;

use super::answer::{internal_error_result, LogLine};
use super::server::panic_text;
use super::thrown::{within, CallScope};
use crate::locale::Locale;
use crate::tool_error::render::Format;

/// `operation`, the work of a call of `tool` that runs as a task, answering
/// as a call outside a task is answered: a result it returns (an envelope
/// included) and a JSON-RPC error other than the internal one (the request's
/// own fault) as they are; a panic or an internal error as the INTERNAL_ERROR
/// envelope in `format`, its customer message in `locale`, under a fresh
/// correlation id, logged with `tracing::error!` (target `mcp_envelope`).
///
/// ```
/// use mcp_envelope::rmcp::enveloped_task;
/// use mcp_envelope::{Format, Locale};
/// use rmcp::task_manager::{TaskManager, TaskOptions};
///
/// # async fn run() {
/// let tasks = TaskManager::new();
/// let task = tasks.spawn(TaskOptions::new(), |_context| {
///     enveloped_task("export_invoices", Format::Xml, Locale::En, Box::pin(async { panic!("disk full") }))
/// });
/// # let _ = task;
/// # }
/// ```
pub fn enveloped_task(tool: &str, format: Format, locale: Locale, operation: TaskFuture) -> TaskFuture {
    let log: LogLine = Arc::new(|line: &str| tracing::error!(target: "mcp_envelope", "{line}"));
    // A `ToolCallError` holding a library's failure, turned into the result
    // inside the operation, is answered for this tool, in this form and locale.
    let scope = Arc::new(CallScope {
        tool: tool.to_owned(),
        arguments: None,
        format,
        locale,
        log: Arc::clone(&log),
    });
    let tool = tool.to_owned();
    Box::pin(async move {
        let failure = match within(scope, AssertUnwindSafe(operation).catch_unwind()).await {
            Ok(Err(TaskExit::Error(error))) if error.code == ErrorCode::INTERNAL_ERROR => error.message.to_string(),
            Ok(settled) => return settled,
            Err(panic) => format!("panic: {}", panic_text(panic.as_ref())),
        };
        let result: CallToolResult = internal_error_result(&tool, &failure, format, locale, log.as_ref());
        Ok(result)
    })
}
