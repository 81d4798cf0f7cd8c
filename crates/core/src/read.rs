//! Reading envelopes back as a client sees them: which envelope a text holds
//! (a tool error, a validation error, a partial result, or none), what it states, and the
//! effective values a client acts on; and what a client throws for an error
//! result. Both packages' readers and throw helpers are this module.
//!
//! ```
//! use mcp_envelope::{read_envelope, Reading};
//! let text = "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n  <message>No invoice</message>\n</tool_error>";
//! let reading = read_envelope(text).unwrap();
//! assert!(matches!(reading, Reading::ToolError(_)));
//! assert!(reading.to_json().starts_with(r#"{"kind":"tool_error","code":"NOT_FOUND","message":"No invoice","severity":"error","category":"business","retryable":false,"#));
//! ```

use crate::code::Category;
use crate::error::{ParseError, SpecError};
use crate::json::{kind_of_text, parse_value, push_json_string, repaired_object, Value};
use crate::partial::{PartialResult, PARTIAL_CODE};
use crate::tool_error::model::{Severity, ToolError};
use crate::tool_error::parse::json::joined_text_blocks;
use crate::tool_error::parse::JsonText;
use crate::validation::{envelope_to_json, ValidationEnvelope};

/// The code a `<validation_error>` reads as.
pub const VALIDATION_CODE: &str = "VALIDATION_ERROR";
/// The code a client gives an error result that holds no readable envelope.
pub const UNKNOWN_CODE: &str = "UNKNOWN_ERROR";

/// What a text holds.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Reading {
    /// A `<tool_error>`, in its XML, JSON or text form.
    ToolError(ToolError),
    /// A `<validation_error>`: arguments that failed, one line per field.
    ValidationError(ValidationEnvelope),
    /// A `<partial_result>`, in any of its three forms: some items obtained, some failed.
    PartialResult(PartialResult),
    /// No envelope: the text is something else, such as a success's data.
    None,
}

/// Reads the earliest envelope in `text`, a transcript, a log line or a
/// `CallToolResult` JSON (its text blocks joined with a newline). A tag that
/// only mentions an envelope (`a <tool_error> envelope`, `` `<tool_error>` ``,
/// one never closed) is text: reading goes on after it, and a text of
/// mentions only holds none. A broken envelope is an error saying what is
/// wrong and where.
#[inline]
pub fn read_envelope(text: &str) -> Result<Reading, ParseError> {
    match crate::tool_error::parse::tool_result_text(text) {
        Some(inner) => read_unwrapped(&inner),
        None => read_unwrapped(text),
    }
}

pub fn read_unwrapped(text: &str) -> Result<Reading, ParseError> {
    // A JSON envelope is the whole text: it is read before any search for
    // markup, which its strings may hold.
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        match crate::tool_error::parse::read_json_text(trimmed)? {
            JsonText::ToolError(error) => return Ok(Reading::ToolError(*error)),
            // One level only: a result inside a result is not an envelope.
            JsonText::ToolResult => return Ok(Reading::None),
            JsonText::Other => {
                if let Some(partial) = crate::partial::read_json_form(trimmed)? {
                    return Ok(Reading::PartialResult(partial));
                }
            }
        }
    }
    // The earliest envelope is read, from where it starts to the end of the
    // text. Each start skips mentions of its tag (`crate::xml::envelope_start`);
    // a reader that still finds no envelope there gives way to the next.
    // Past the JSON object the text opens with, if any: its strings are data.
    let from = crate::tool_error::parse::markup_from(text);
    let mut starts = [
        (crate::tool_error::parse::markup_start(text, from), Kind::ToolError),
        (
            crate::validation::validation_markup_start(text, from),
            Kind::ValidationError,
        ),
        (crate::partial::markup_start(text, from), Kind::PartialResult),
    ];
    starts.sort_by_key(|(at, _)| at.unwrap_or(usize::MAX));
    for (_, kind) in starts.iter().filter(|(at, _)| at.is_some()) {
        let reading = match kind {
            Kind::ToolError => crate::tool_error::parse::parse_markup(text, from).map(Reading::ToolError),
            Kind::ValidationError => {
                crate::validation::parse_validation_unwrapped(text, from).map(Reading::ValidationError)
            }
            Kind::PartialResult => crate::partial::parse_markup(text, from).map(Reading::PartialResult),
        };
        match reading {
            Err(ParseError::NoEnvelope) => {}
            other => return other,
        }
    }
    Ok(Reading::None)
}

/// The envelope kinds whose markup `read_unwrapped` looks for.
#[derive(Clone, Copy)]
enum Kind {
    ToolError,
    ValidationError,
    PartialResult,
}

impl Reading {
    /// The code a client sees: the envelope's, `VALIDATION_ERROR`, `PARTIAL_RESULT`, or none.
    pub fn code(&self) -> Option<&str> {
        match self {
            Reading::ToolError(e) => Some(&e.code),
            Reading::ValidationError(_) => Some(VALIDATION_CODE),
            Reading::PartialResult(_) => Some(PARTIAL_CODE),
            Reading::None => None,
        }
    }

    /// The message a client's exception carries.
    pub fn message(&self) -> Option<String> {
        match self {
            Reading::ToolError(e) => Some(e.message.clone()),
            Reading::ValidationError(v) => Some(validation_message(v)),
            Reading::PartialResult(p) => Some(p.summary()),
            Reading::None => None,
        }
    }

    /// The reading as the component gives it (docs/component-api.md, "Readings").
    pub fn to_json(&self) -> String {
        let (severity, category, retryable, recovery) = match self {
            Reading::ToolError(e) => (e.severity, e.category_or_default(), e.is_retryable(), e.recovery()),
            Reading::ValidationError(v) => (
                Severity::Error,
                Some(Category::Validation),
                true,
                Some(v.recovery_or_default()),
            ),
            Reading::PartialResult(p) => (p.severity(), None, p.any_retryable(), Some(p.recovery_text())),
            Reading::None => return "{\"kind\":\"none\"}".to_owned(),
        };
        let mut out = String::from("{\"kind\":");
        out.push_str(match self {
            Reading::ToolError(_) => "\"tool_error\"",
            Reading::PartialResult(_) => "\"partial_result\"",
            _ => "\"validation_error\"",
        });
        out.push_str(",\"code\":");
        push_json_string(&mut out, self.code().unwrap_or_default());
        out.push_str(",\"message\":");
        push_json_string(&mut out, &self.message().unwrap_or_default());
        out.push_str(&format!(",\"severity\":\"{severity}\",\"category\":"));
        match category {
            Some(c) => out.push_str(&format!("\"{c}\"")),
            None => out.push_str("null"),
        }
        out.push_str(&format!(",\"retryable\":{retryable},\"recovery\":"));
        match recovery {
            Some(text) => push_json_string(&mut out, text),
            None => out.push_str("null"),
        }
        match self {
            Reading::ToolError(e) => {
                out.push_str(",\"error\":");
                out.push_str(&crate::tool_error::spec::to_json_as_stated(e));
            }
            Reading::ValidationError(v) => {
                out.push_str(",\"validation\":");
                out.push_str(&envelope_to_json(v));
            }
            Reading::PartialResult(p) => {
                out.push_str(",\"partial\":");
                out.push_str(&crate::partial::to_json_as_stated(p));
            }
            Reading::None => {}
        }
        out.push('}');
        out
    }
}

/// What [`Reading::to_json`] and [`ClientOutcome::to_json`] write, member
/// by member, as shapes for the schema alone: the wrappers' `Reading` (a
/// `ToolErrorReading`, `ValidationErrorReading`, `PartialResultReading` or
/// `NoReading`, told apart by `kind`) and `ErrorOutcome`. `wire_schema`'s
/// tests validate the shared vectors' readings against them, so they cannot
/// drift from the writers.
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: their schemas are all they are for
pub mod output {
    use schemars::JsonSchema;

    use crate::code::Category;
    use crate::partial::PartialReport;
    use crate::tool_error::model::Severity;
    use crate::tool_error::spec::SpecInput;
    use crate::validation::ValidationReport;

    /// What every reading of an envelope states: the effective values, defaults filled in.
    #[derive(JsonSchema)]
    struct Common {
        /// The envelope's code; `VALIDATION_ERROR` or `PARTIAL_RESULT` for those envelopes.
        code: String,
        /// The envelope's message; a `<validation_error>`'s fields named, a partial result's summary.
        message: String,
        /// The effective severity.
        severity: Severity,
        /// The effective category; `null` for a custom code that sets none, and for a partial result.
        category: Option<Category>,
        /// Whether another call can succeed: the code's own when the envelope does not say.
        retryable: bool,
        /// The effective recovery; `null` for a custom code that sets none.
        recovery: Option<String>,
    }

    /// A `<tool_error>` read back (any of its three forms).
    #[derive(JsonSchema)]
    #[schemars(extend("required" = ["kind", "code", "message", "severity", "category", "retryable", "recovery", "error"]))]
    #[doc(hidden)]
    pub struct ToolErrorReading {
        #[schemars(extend("const" = "tool_error"))]
        kind: String,
        #[serde(flatten)]
        common: Common,
        /// Every field the envelope states, ready to render again.
        error: SpecInput,
    }

    /// A `<validation_error>` read back: code `VALIDATION_ERROR`.
    #[derive(JsonSchema)]
    #[schemars(extend("required" = ["kind", "code", "message", "severity", "category", "retryable", "recovery", "validation"]))]
    #[doc(hidden)]
    pub struct ValidationErrorReading {
        #[schemars(extend("const" = "validation_error"))]
        kind: String,
        #[serde(flatten)]
        common: Common,
        /// The envelope as read back.
        validation: ValidationReport<'static>,
    }

    /// A `<partial_result>` read back: code `PARTIAL_RESULT`, the summary as
    /// its message, severity `warning` when something was obtained (`error`
    /// when nothing was), category `null`, retryable when any failed item is.
    #[derive(JsonSchema)]
    #[schemars(extend("required" = ["kind", "code", "message", "severity", "category", "retryable", "recovery", "partial"]))]
    #[doc(hidden)]
    pub struct PartialResultReading {
        #[schemars(extend("const" = "partial_result"))]
        kind: String,
        #[serde(flatten)]
        common: Common,
        /// The partial result as read back.
        partial: PartialReport<'static>,
    }

    /// A text that holds no envelope.
    #[derive(JsonSchema)]
    #[doc(hidden)]
    pub struct NoReading {
        #[schemars(extend("const" = "none"))]
        kind: String,
    }

    /// What a text holds that holds an envelope.
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[doc(hidden)]
    pub enum EnvelopeReading {
        ToolError(ToolErrorReading),
        ValidationError(ValidationErrorReading),
        PartialResult(PartialResultReading),
    }

    /// The reading of a text: an envelope, or `{"kind": "none"}`.
    #[derive(JsonSchema)]
    #[serde(untagged)]
    pub enum Reading {
        Envelope(Box<EnvelopeReading>),
        None(NoReading),
    }

    /// What a client throws for an error result (`throwIfError`, `raise_for_error`).
    #[derive(JsonSchema)]
    pub struct ErrorOutcome {
        /// The envelope's code; `UNKNOWN_ERROR` when the result holds none (or a broken one).
        code: String,
        /// The envelope's message; the result's text when it holds none.
        message: String,
        /// The envelope the result holds.
        reading: Reading,
        /// What is wrong with an envelope that is there but broken.
        #[serde(default)]
        #[schemars(with = "String")]
        malformed: Option<String>,
    }
}

/// `Invalid arguments for ACTION: NAME, NAME and N more`: short enough for an
/// exception's message; the fields' own lines stay in the reading.
fn validation_message(v: &ValidationEnvelope) -> String {
    let mut out = format!("Invalid arguments for {}", v.action);
    for (i, (name, _)) in v.fields.iter().enumerate() {
        out.push_str(if i == 0 { ": " } else { ", " });
        out.push_str(name);
    }
    if v.omitted_fields > 0 {
        out.push_str(&format!(" and {} more", v.omitted_fields));
    }
    out
}

/// What a client throws for an error result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ClientOutcome {
    /// The code to branch on: the envelope's, `VALIDATION_ERROR`, `PARTIAL_RESULT`, or
    /// `UNKNOWN_ERROR` when no envelope could be read.
    pub code: String,
    /// The exception's message: the envelope's message or summary, else the result's own text.
    pub message: String,
    /// The envelope the result holds; [`Reading::None`] when it holds none or a broken one.
    pub reading: Reading,
    /// Why the envelope the result holds could not be read, if it is broken.
    pub malformed: Option<String>,
}

impl ClientOutcome {
    /// `{"code","message","reading","malformed"?}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"code\":");
        push_json_string(&mut out, &self.code);
        out.push_str(",\"message\":");
        push_json_string(&mut out, &self.message);
        out.push_str(",\"reading\":");
        out.push_str(&self.reading.to_json());
        if let Some(why) = &self.malformed {
            out.push_str(",\"malformed\":");
            push_json_string(&mut out, why);
        }
        out.push('}');
        out
    }
}

/// What `throwIfError` / `raise_for_error` throw for a `CallToolResult` JSON:
/// `None` unless `isError` is `true`. A result holding no envelope, or a broken
/// one, gives `UNKNOWN_ERROR` with the result's text as the message.
///
/// ```
/// use mcp_envelope::error_of_result;
/// let result = r#"{"content":[{"type":"text","text":"Upstream said no"}],"isError":true}"#;
/// let outcome = error_of_result(result).unwrap().unwrap();
/// assert_eq!((outcome.code.as_str(), outcome.message.as_str()), ("UNKNOWN_ERROR", "Upstream said no"));
/// assert_eq!(error_of_result(r#"{"content":[]}"#), Ok(None));
/// ```
#[inline]
pub fn error_of_result(result: &str) -> Result<Option<ClientOutcome>, SpecError> {
    let read = read_tool_result(result, false)?;
    if !read.is_error {
        return Ok(None);
    }
    let text = read.text;
    let outcome = match read_unwrapped(&text) {
        Ok(Reading::None) => unknown(text, None),
        Ok(reading) => ClientOutcome {
            code: reading.code().unwrap_or(UNKNOWN_CODE).to_owned(),
            message: reading.message().unwrap_or_default(),
            reading,
            malformed: None,
        },
        Err(malformed) => unknown(text, Some(malformed.to_string())),
    };
    Ok(Some(outcome))
}

/// A `CallToolResult` as the library reads it: whether it is an error, its
/// text, and whether its `_meta` carries the ToolFailure metadata. What the
/// repeat ledger watches and `decide` reads; a Rust integration builds it
/// from its SDK's result with [`ResultText::new`], a JSON caller reads it
/// with [`ResultText::from_json`].
///
/// ```
/// use mcp_envelope::ResultText;
/// let read = ResultText::from_json(r#"{"content":[{"type":"text","text":"a"},{"type":"image","data":""},{"type":"text","text":"b"}],"isError":true}"#).unwrap();
/// assert_eq!(read, ResultText::new(true, ["a", "b"], false));
/// assert_eq!(read.text, "a\nb");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResultText {
    /// `isError` is `true`.
    pub is_error: bool,
    /// The text blocks joined with a newline (an envelope may follow a block
    /// of partial output); empty when there is none.
    pub text: String,
    /// `_meta` carries the ToolFailure metadata (`TOOL_FAILURE_KEY`).
    pub tool_failure_meta: bool,
}

impl ResultText {
    /// A result from its parts: `text_blocks` are its text blocks' texts, in order.
    pub fn new<'a>(
        is_error: bool,
        text_blocks: impl IntoIterator<Item = &'a str>,
        tool_failure_meta: bool,
    ) -> ResultText {
        ResultText {
            is_error,
            text: text_blocks.into_iter().collect::<Vec<_>>().join("\n"),
            tool_failure_meta,
        }
    }

    /// Reads a `CallToolResult` JSON; anything else is refused.
    pub fn from_json(result: &str) -> Result<ResultText, SpecError> {
        read_tool_result(result, true)
    }
}

/// Reads a `CallToolResult` JSON; anything else is refused. A success's text
/// is left empty unless `text_of_success` (a copy `error_of_result` skips).
pub fn read_tool_result(result: &str, text_of_success: bool) -> Result<ResultText, SpecError> {
    let refused =
        || SpecError::wrong_kind("the result must be a CallToolResult: a JSON object with a \"content\" array".into());
    let members = repaired_object(result, |text, e| match kind_of_text(text, &e) {
        Some(_) => refused(),
        None => SpecError::not_json(format!("invalid CallToolResult JSON: {e}")),
    })?;
    let member = |key: &str| members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_ref());
    let content = match member("content").map(parse_value) {
        Some(Ok(content @ Value::Array(_))) => content,
        _ => return Err(refused()),
    };
    let is_error = member("isError") == Some("true");
    let tool_failure_meta = match member("_meta").map(parse_value) {
        Some(Ok(meta)) => meta.get(crate::tool_error::render::TOOL_FAILURE_KEY).is_some(),
        _ => false,
    };
    let text = if is_error || text_of_success {
        joined_text_blocks(&content).unwrap_or_default()
    } else {
        String::new()
    };
    Ok(ResultText {
        is_error,
        text,
        tool_failure_meta,
    })
}

fn unknown(text: String, malformed: Option<String>) -> ClientOutcome {
    ClientOutcome {
        code: UNKNOWN_CODE.to_owned(),
        message: text,
        reading: Reading::None,
        malformed,
    }
}
