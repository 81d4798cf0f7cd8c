//! The core's answer to a tool's failure that needs a correlation id (an
//! exception, a failure of a known kind), as rmcp's result, its log line
//! sent where the server's go: shared by the server, its tasks and the
//! library failures `ToolCallError` carries.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use ::rmcp::model::CallToolResult;

use crate::handler::{handler_answer, HandlerOutcome};
use crate::locale::Locale;
use crate::recovery::{exception_error, fresh_correlation_id};
use crate::tool_error::render::Format;

/// Where the log lines go: one line per failure the model is not told about.
pub type LogLine = Arc<dyn Fn(&str) + Send + Sync>;

/// The INTERNAL_ERROR result of a failure of `tool`, under a fresh
/// correlation id; `failure` goes to `log` only.
pub(super) fn internal_error_result(
    tool: &str,
    failure: &str,
    format: Format,
    locale: Locale,
    log: &(dyn Fn(&str) + Send + Sync),
) -> CallToolResult {
    answer_result(tool, HandlerOutcome::Exception(failure), format, locale, log)
}

/// The core's answer to a failure of `tool` that needs a correlation id (an
/// exception, a thrown failure of a known kind), under a fresh one; its log
/// line goes to `log`.
pub(super) fn answer_result(
    tool: &str,
    outcome: HandlerOutcome<'_>,
    format: Format,
    locale: Locale,
    log: &(dyn Fn(&str) + Send + Sync),
) -> CallToolResult {
    // 16 hex digits, which fresh_correlation_id takes; were they refused,
    // the envelope goes without an id rather than not at all.
    let correlation_id = fresh_correlation_id(&random_hex()).unwrap_or_default();
    let answer = handler_answer(tool, outcome, format, locale, &correlation_id);
    if let Some(line) = &answer.log {
        log(line);
    }
    super::result_from_json(&answer.result).unwrap_or_else(|_| {
        // Not reached: the core writes a CallToolResult rmcp reads. Were it
        // refused, the model still gets the same INTERNAL_ERROR.
        super::call_tool_result(&exception_error(tool, &correlation_id, locale), format)
    })
}

/// The operating system's randomness in hex, as much as a fresh correlation
/// id takes. Should the system refuse (it does not on the platforms rmcp
/// runs on), the time and a counter still make each id differ: an id must be
/// unique, not secret.
fn random_hex() -> String {
    let mut bytes = [0u8; crate::recovery::CORRELATION_ID_RANDOM_BYTES];
    if getrandom::fill(&mut bytes).is_err() {
        static CALLS: AtomicU64 = AtomicU64::new(0);
        let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        let mixed = since_epoch.as_nanos() as u64 ^ CALLS.fetch_add(1, Ordering::Relaxed).rotate_left(40);
        bytes.copy_from_slice(&mixed.to_le_bytes()[..crate::recovery::CORRELATION_ID_RANDOM_BYTES]);
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
