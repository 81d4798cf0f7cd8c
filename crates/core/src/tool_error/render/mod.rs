//! Pure render functions: a `ToolError` in, the text a model reads out.
//!
//! The XML and text forms are written by hand: their layout is the format
//! itself (the golden outputs in `vectors/`, byte for byte), which no serializer's
//! conventions give. The JSON form, like every JSON output of the core, is a
//! struct serde_json writes (`#[derive(Serialize)]`); the results that wrap
//! an envelope already rendered (`CallToolResult`, JSON-RPC errors) put it in
//! place by hand, its strings escaped by serde_json.

pub(crate) mod capped;
mod json;
mod result;
mod text;
mod tool_failure;
mod xml;

pub use json::render_json;
pub use result::{call_tool_result, protocol_error, ProtocolErrorKind};
pub use result::{text_result, text_result_with};
pub(crate) use text::line as push_text_line;
pub use text::render_text;
#[doc(hidden)]
pub use tool_failure::push_tool_failure_meta;
pub use tool_failure::TOOL_FAILURE_KEY;
pub use xml::render_xml;

use crate::tool_error::model::ToolError;

/// The three renderings of one error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The `<tool_error>` envelope (the default).
    #[default]
    Xml,
    /// One JSON object with the JSON form's field names.
    Json,
    /// `key: value` lines, `error_code` first.
    Text,
}

string_enum!(Format { Xml = "xml", Json = "json", Text = "text" });

/// Renders the error in the given format.
pub fn render(error: &ToolError, format: Format) -> String {
    match format {
        Format::Xml => render_xml(error),
        Format::Json => render_json(error),
        Format::Text => render_text(error),
    }
}

/// `30 seconds`, `1 second`: how every text form writes a retry-after.
pub(crate) fn seconds_text(seconds: u32) -> String {
    if seconds == 1 {
        "1 second".to_owned()
    } else {
        format!("{seconds} seconds")
    }
}
