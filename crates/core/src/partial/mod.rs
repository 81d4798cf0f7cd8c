//! Escalation with partial results: the envelope a subagent returns when it
//! obtained some of what was asked and could not obtain the rest. It states
//! what was obtained, which items failed with which code, category and
//! retryability, and what was already tried, so a coordinator can decide
//! without repeating the work: recover locally, escalate what is left.
//!
//! ```
//! use mcp_envelope::raw;
//! let envelope = raw::render_partial(r#"{"obtained":["Company A: 10-K 2024"],
//!   "failed":[{"item":"Company C","code":"FORBIDDEN"}]}"#).unwrap();
//! assert!(envelope.starts_with("<partial_result severity=\"warning\">\n  <summary>Obtained 1 of 2 items; 1 failed.</summary>"));
//! assert!(envelope.contains("<failure item=\"Company C\" code=\"FORBIDDEN\" category=\"permission\" retryable=\"false\"/>"));
//! ```
//!
//! A third envelope kind beside `<tool_error>` and `<validation_error>`, built
//! the same way: the model (`model`), the three forms (`render`), their
//! reader (`parse`) and the spec as JSON (`spec`). `read_envelope` reads it
//! back as `Reading::PartialResult`. Every form is capped as a tool error is
//! (`PartialLimits`, `capped`; docs/size-caps.md): each text, each list (the
//! rest counted) and the whole envelope.

mod capped;
mod limits;
mod model;
mod parse;
mod render;
mod spec;

pub use limits::partial_limits_json;
pub use limits::PartialLimits;
#[cfg(feature = "schema")]
pub use limits::PartialLimitsInput;
pub use model::{FailedItem, PartialResult, PARTIAL_CODE, PARTIAL_RECOVERY};
pub use parse::parse_partial;
pub(crate) use parse::{markup_start, parse_markup, read_json_form};
pub use render::{render_partial, render_partial_json_form, render_partial_text, render_partial_xml};
pub use spec::{partial_from_json, to_json_as_stated};
#[cfg(feature = "schema")]
pub use spec::{report::PartialOutput as PartialReport, PartialInput};

use crate::error::SpecError;
use crate::tool_error::render::Format;

/// The `CallToolResult` carrying the envelope as its one text block.
/// `isError` is `false` when something was obtained (the call returned
/// useful data, with a caveat) and `true` when nothing was.
///
/// ```
/// use mcp_envelope::partial::{partial_call_tool_result, FailedItem, PartialResult};
/// use mcp_envelope::Format;
/// let nothing = PartialResult::new().failed(FailedItem::new("Company C", "TIMEOUT"));
/// assert!(partial_call_tool_result(&nothing, Format::Text).ends_with(r#""isError":true}"#));
/// let some = nothing.obtained(["Company A: 10-K 2024"]);
/// assert!(partial_call_tool_result(&some, Format::Text).ends_with(r#""isError":false}"#));
/// ```
pub fn partial_call_tool_result(partial: &PartialResult, format: Format) -> String {
    crate::tool_error::render::text_result(&render_partial(partial, format), partial.is_error())
}

/// The JSON entry point behind `mcp_envelope::raw::render_partial`.
#[inline]
pub fn render_partial_json(input: &str) -> Result<String, SpecError> {
    let (partial, format) = partial_from_json(input)?;
    Ok(render_partial(&partial, format))
}

/// The JSON entry point behind `mcp_envelope::raw::partial_result`.
#[inline]
pub fn partial_result_json(input: &str) -> Result<String, SpecError> {
    let (partial, format, structured) = spec::partial_result_from_json(input)?;
    let text = render_partial(&partial, format);
    Ok(crate::tool_error::render::text_result_with(
        &text,
        structured.as_deref(),
        partial.is_error(),
    ))
}
