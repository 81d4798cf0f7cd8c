//! Recovery helpers: the failures every tool meets, each turned into the
//! envelope that puts the model on the right branch (docs/recovery-helpers.md).
//!
//! - [`upstream_error`]: an upstream HTTP failure mapped onto our codes, its
//!   body kept out of the envelope (an opt-in sanitized excerpt aside) and
//!   handed back for the log;
//! - [`exception_result`]: an exception in a tool's own code as INTERNAL_ERROR
//!   with a correlation id, its text handed back for the log only;
//! - [`access_error`]: FORBIDDEN that never says whether the object exists,
//!   and AUTH_REQUIRED addressed to the host, so the model never goes looking
//!   for a token;
//! - [`empty_result`]: a query that ran and matched nothing, as a success;
//! - [`unknown_tool_answer`]: a call of a tool the server does not have,
//!   answered as the specification says (a JSON-RPC -32602 naming the tools
//!   it may call instead) or, as an option, as a result the model reads;
//! - [`user_error`]: a framework's own error for the model (FastMCP's
//!   `ToolError`, `UserError`) as a TOOL_ERROR envelope stating its text,
//!   scrubbed;
//! - [`known_error`]: a thrown failure whose structure tells its kind (a
//!   system error's code, an HTTP status, a timeout) as the specific code.
//!
//! Each has a typed function and a `*_json` entry point (one JSON object in,
//! JSON text out) that the component exports. The words for people
//! (customer messages) come from the locale's catalog (`crate::locale`); the
//! sentences that steer the model stay English.
//!
//! ```
//! use mcp_envelope::recovery::{access_error, upstream_error, AccessKind, UpstreamFailure};
//! use mcp_envelope::{call_tool_result, render_text, Format, Locale};
//!
//! let failure = UpstreamFailure { status: 429, retry_after: Some("30"), ..Default::default() };
//! let report = upstream_error(&failure).unwrap();
//! assert_eq!(report.error.retry_after, Some(30));
//! let denied = access_error(AccessKind::Forbidden, Some("refund"), Some("order A-8812"), Locale::En);
//! assert!(call_tool_result(&denied, Format::Xml).ends_with(r#""isError":true}"#));
//! assert!(render_text(&denied).starts_with(
//!     "error_code: FORBIDDEN\nwhat_failed: Not permitted: the caller may not refund order A-8812."
//! ));
//! ```

mod access;
mod after_trap;
mod challenge;
mod empty;
mod exception;
mod excerpt;
mod retry_after;
mod thrown;
mod unknown_tool;
mod upstream;
mod user_error;

pub use access::access_error_json;
pub use access::{access_error, AccessKind};
pub use after_trap::after_trap_json;
pub use after_trap::{after_trap, AfterTrap};
pub use empty::empty_result_json;
pub use empty::{empty_result, EmptyResult};
pub use exception::{correlation_id_of, exception_result_json, log_line};
pub use exception::{
    exception_error, exception_result, fresh_correlation_id, ExceptionReport, CORRELATION_ID_RANDOM_BYTES,
};
pub use excerpt::{excerpt, MAX_EXCERPT_CHARS};
pub use thrown::{is_known_errno, known_error, KnownKind};
pub use unknown_tool::unknown_tool_json;
pub use unknown_tool::{unknown_tool, unknown_tool_answer, unknown_tool_message, UnknownToolAnswer};
pub use upstream::upstream_error_json;
pub use upstream::{
    upstream_error, RateLimitHeaders, UpstreamFailure, UpstreamLog, UpstreamReport, EXCERPT_DETAIL, INSUFFICIENT_SCOPE,
    SCOPES_DETAIL, UPSTREAM_REJECTED, UPSTREAM_UNAVAILABLE,
};
pub use user_error::user_error_json;
pub use user_error::{user_error, user_error_result, TOOL_ERROR};
// The inputs as written and the outputs written member by member: the
// wrappers' option and report shapes (`wire_schema`).
#[cfg(feature = "schema")]
pub use {
    access::AccessInput, empty::EmptyInput, exception::ExceptionInput, exception::ExceptionOutput,
    unknown_tool::output::UnknownToolAnswer as UnknownToolOutput, unknown_tool::UnknownToolInput,
    upstream::output::UpstreamOutput, upstream::UpstreamInput,
};

/// An optional text where an empty string means "not given", as in a spec.
fn given_text(text: Option<String>) -> Option<String> {
    text.filter(|s| !s.is_empty())
}
