//! The `<validation_error>` envelope: one line per invalid argument saying
//! what is wrong, what was sent and what was expected, whichever validator
//! found it; plus the contract changes a model that learned the old
//! contract needs to hear about.
//!
//! ```
//! use mcp_envelope::raw;
//! let envelope = raw::render_validation(r#"{"action":"billing.get_invoice",
//!   "issues":[{"path":["id"],"code":"invalid_format","format":"email","input":"not-an-email"}]}"#).unwrap();
//! assert!(envelope.contains("<field name=\"id\">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>"));
//! ```

mod arguments;
mod field_text;
mod input_schema;
mod json_schema;
mod model;
mod parse;
mod path;
mod render;
mod sent_value;
mod spec;

pub use crate::delta::{delta, deltas_for_action, shown_deltas};
pub use crate::delta::{ContractDelta, DeltaSeverity};
pub use field_text::{field_text, field_text_in};
pub use model::{Bound, IssueCode, ValidationIssue, ValidationOptions};
pub(crate) use parse::{markup_start as validation_markup_start, parse_envelope as parse_validation_unwrapped};
pub use parse::{parse_validation, ValidationEnvelope};
pub use path::push_key;
pub use path::PathSegment;
pub use path::{field_name, ROOT_NAME};
pub use render::{render_validation, validation_recovery, VALIDATION_RECOVERY, VALIDATION_RECOVERY_PT_BR};
#[cfg(feature = "schema")]
pub use spec::report::EnvelopeOutput as ValidationReport;
pub use spec::{envelope_to_json, issue, issues_and_deltas_from_json, validation_from_json, ValidationSpec};

use crate::error::SpecError;

/// The most characters of any one text a `<validation_error>` shows (the
/// action, a field's name, a field's line, a contract change's text): the
/// default `messageChars` of a tool error, cut the same way and marked.
pub const FIELD_CHARS: usize = crate::tool_error::limits::Limits::DEFAULT.message_chars;

/// The `CallToolResult` carrying a validation envelope (always `isError: true`).
pub fn validation_result(spec: &ValidationSpec) -> String {
    let text = render_validation(&spec.action, &spec.issues, &spec.deltas, spec.options);
    crate::tool_error::render::text_result(&text, true)
}

/// The JSON entry point behind `mcp_envelope::raw::render_validation`.
#[inline]
pub fn render_validation_spec_json(spec: &str) -> Result<String, SpecError> {
    let spec = validation_from_json(spec)?;
    Ok(render_validation(
        &spec.action,
        &spec.issues,
        &spec.deltas,
        spec.options,
    ))
}
