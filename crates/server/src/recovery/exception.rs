//! An exception in a tool's own code: INTERNAL_ERROR naming the tool, with a
//! correlation id (the caller's, or a fresh one from the host's randomness),
//! the code's recovery (do not retry blindly) and words for the user quoting
//! the id. The exception's text never enters the envelope: it can hold
//! secrets, paths and hosts, and the model cannot act on it. It is handed
//! back in one log line under the same id.

#[cfg(feature = "schema")]
use serde::Deserialize;

use super::given_text;
use crate::code;
use crate::error::SpecError;
use crate::json::{fail, missing, push_json_string};
use crate::locale::Locale;
use crate::tool_error::model::ToolError;
use crate::tool_error::render::{call_tool_result, Format};

/// How many random bytes a fresh correlation id holds: every host gives
/// this many from its operating system's randomness (Rust `getrandom`, JS
/// `crypto.getRandomValues`, Python `os.urandom`), as hex.
pub const CORRELATION_ID_RANDOM_BYTES: usize = 6;

/// How many hex digits of the host's randomness a fresh id takes.
const ID_HEX_DIGITS: usize = 2 * CORRELATION_ID_RANDOM_BYTES;

/// What an exception becomes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExceptionReport {
    /// The error the result carries.
    pub error: ToolError,
    /// The `CallToolResult` JSON for the model.
    pub result: String,
    /// The id the result and the log line share, so support can match them.
    pub correlation_id: String,
    /// One line for the log: `code=INTERNAL_ERROR correlationId="…" tool="…" exception="…"`.
    pub log: String,
}

/// A fresh correlation id from the host's randomness: `err_` and its first
/// 12 hex digits, lower-cased. The core has no randomness of its own.
///
/// ```
/// use mcp_envelope::recovery::fresh_correlation_id;
/// assert_eq!(fresh_correlation_id("9F86D081884C7D65").unwrap(), "err_9f86d081884c");
/// assert!(fresh_correlation_id("9f86").is_err());
/// ```
pub fn fresh_correlation_id(random_hex: &str) -> Result<String, SpecError> {
    if !random_hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return fail(
            "\"random\" must hold only hex digits (0-9, a-f): the host's randomness, such as 12 random bytes in hex",
        );
    }
    match random_hex.get(..ID_HEX_DIGITS) {
        Some(digits) => Ok(format!("err_{}", digits.to_ascii_lowercase())),
        None => fail(format!(
            "\"random\" must have at least {ID_HEX_DIGITS} hex digits (it has {}): \
             the host's randomness makes the fresh id",
            random_hex.len()
        )),
    }
}

/// The INTERNAL_ERROR for an exception in `tool`: `TOOL failed with an
/// internal error.` (`The tool failed ...` for an empty name), the code's
/// recovery, the correlation id, and a customer message in `locale` quoting it.
///
/// ```
/// use mcp_envelope::recovery::exception_error;
/// use mcp_envelope::Locale;
/// let e = exception_error("get_invoice", "err_7f3a", Locale::En);
/// assert_eq!(e.message, "get_invoice failed with an internal error.");
/// assert_eq!(e.correlation_id.as_deref(), Some("err_7f3a"));
/// ```
pub fn exception_error(tool: &str, correlation_id: &str, locale: Locale) -> ToolError {
    let message = if tool.is_empty() {
        "The tool failed with an internal error.".to_owned()
    } else {
        format!("{tool} failed with an internal error.")
    };
    let error = ToolError::new(code::INTERNAL_ERROR, message).locale(locale);
    if correlation_id.is_empty() {
        return error.customer_message(locale.words().customer.failed);
    }
    let customer = (locale.words().customer.failed_under_id)(correlation_id);
    error.correlation_id(correlation_id).customer_message(customer)
}

/// The result, id and log line for an exception in `tool`, whose text is
/// `exception`. `correlation_id` is the caller's or [`fresh_correlation_id`]'s.
///
/// ```
/// use mcp_envelope::recovery::exception_result;
/// use mcp_envelope::{Format, Locale};
/// let secret = "KeyError: 'password=hunter2'";
/// let report = exception_result("charge", secret, "err_0123456789ab", Format::Text, Locale::En);
/// assert!(!report.result.contains("hunter2"));
/// assert_eq!(
///     report.log,
///     r#"code=INTERNAL_ERROR correlationId="err_0123456789ab" tool="charge" exception="KeyError: 'password=hunter2'""#
/// );
/// ```
pub fn exception_result(
    tool: &str,
    exception: &str,
    correlation_id: &str,
    format: Format,
    locale: Locale,
) -> ExceptionReport {
    let error = exception_error(tool, correlation_id, locale);
    let result = call_tool_result(&error, format);
    ExceptionReport {
        error,
        result,
        correlation_id: correlation_id.to_owned(),
        log: log_line(code::INTERNAL_ERROR, tool, exception, correlation_id),
    }
}

/// logfmt: `key=value` pairs, each text as a JSON string, so a traceback's
/// line breaks stay on one line and the line reads back unambiguously.
pub fn log_line(code: &str, tool: &str, exception: &str, correlation_id: &str) -> String {
    let mut line = String::with_capacity(exception.len() + tool.len() + 80);
    line.push_str("code=");
    line.push_str(code);
    line.push_str(" correlationId=");
    push_json_string(&mut line, correlation_id);
    line.push_str(" tool=");
    push_json_string(&mut line, tool);
    line.push_str(" exception=");
    push_json_string(&mut line, exception);
    line
}

const WHAT: &str = "the exception-result input";

/// The `exception-result` input as written, for the schema alone: the
/// wrappers' `ExceptionOptions`.
#[cfg(feature = "schema")]
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an exception-result input object"
)]
#[schemars(
    rename = "ExceptionOptions",
    description = "The options of `exceptionResult`: an exception in a tool's own code.",
    extend("required" = ["tool", "exception"])
)]
#[allow(dead_code)] // read member by member in `exception_result_json`; its schema is what it is for
#[doc(hidden)]
pub struct ExceptionInput {
    /// The tool whose code raised it.
    #[serde(default, deserialize_with = "crate::json::given")]
    #[schemars(with = "String")]
    tool: Option<String>,
    /// The exception's text (its stack), for the log line only: never in the result.
    #[serde(default, deserialize_with = "crate::json::given")]
    #[schemars(with = "String")]
    exception: Option<String>,
    /// The caller's correlation id; a fresh one is made from `random` without it.
    correlation_id: Option<String>,
    /// Hex host randomness (at least 12 digits) for a fresh correlation id.
    random: Option<String>,
    /// The envelope's form inside the result (xml by default).
    format: Option<Format>,
    /// The customer message's catalog (English by default).
    locale: Option<Locale>,
}

/// What `exception-result` writes, member by member in
/// [`exception_result_json`], as a shape for the schema alone: the wrappers'
/// `ExceptionReport`. `wire_schema`'s tests validate the shared vectors'
/// outputs against it, so it cannot drift from the writer.
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "ExceptionReport", description = "What `exceptionResult` gives.")]
#[allow(dead_code)] // never built: its schema is all it is for
#[doc(hidden)]
pub struct ExceptionOutput {
    /// The `CallToolResult`: INTERNAL_ERROR quoting the correlation id; nothing of the exception is in it.
    result: serde_json::Map<String, serde_json::Value>,
    /// The id the result and the log line share.
    correlation_id: String,
    /// One logfmt line for the host's log, the exception text whole.
    log: String,
}

/// The caller's correlation id when given (not empty), else a fresh one from
/// `random`, the host's randomness in hex; refused when neither is given.
pub fn correlation_id_of(given: Option<String>, random: Option<String>) -> Result<String, SpecError> {
    match (given_text(given), given_text(random)) {
        (Some(id), _) => Ok(id),
        (None, Some(random)) => fresh_correlation_id(&random),
        (None, None) => missing(
            "missing \"correlationId\" or \"random\": give the caller's correlation id, \
             or host randomness (at least 12 hex digits) for a fresh one",
        ),
    }
}

/// The JSON entry point behind `mcp_envelope::raw::exception_result`.
#[inline]
pub fn exception_result_json(text: &str) -> Result<String, SpecError> {
    // Read member by member (the struct above describes the shape for the
    // wrappers' types): fewer bytes of component than a derived reader.
    const KEYS: [&str; 6] = ["tool", "exception", "correlationId", "random", "format", "locale"];
    let found = crate::json::members_of(text, WHAT, &KEYS)?;
    let text_at = |i: usize| {
        let raw = found[i].as_deref();
        // `tool` and `exception` may be absent, but not null: as serde reads a `given` member.
        if i < 2 && raw.is_some_and(crate::json::is_null) {
            return fail(format!("{}: invalid type: null, expected a string", KEYS[i]));
        }
        crate::json::present(&found[i])
            .map(|raw| crate::json::string(raw, &crate::json::Quoted(KEYS[i])))
            .transpose()
    };
    let (tool, exception) = (text_at(0)?, text_at(1)?);
    let (given_id, random) = (text_at(2)?, text_at(3)?);
    let format =
        crate::json::present(&found[4]).map(|raw| crate::json::variant(raw, "format", Format::ALL, Format::from_wire));
    let chosen =
        crate::json::present(&found[5]).map(|raw| crate::json::variant(raw, "locale", Locale::ALL, Locale::from_wire));
    let (format, chosen) = (
        format.transpose()?.unwrap_or(Format::Xml),
        chosen.transpose()?.unwrap_or(Locale::En),
    );
    let Some(tool) = tool else {
        return missing("missing \"tool\": the name of the tool that raised the exception");
    };
    let Some(exception) = exception else {
        return missing("missing \"exception\": the exception's text, for the log line");
    };
    let correlation_id = correlation_id_of(given_id, random)?;
    let report = exception_result(&tool, &exception, &correlation_id, format, chosen);
    let mut out = String::with_capacity(report.result.len() + report.log.len() + 64);
    out.push_str("{\"result\":");
    out.push_str(&report.result);
    out.push_str(",\"correlationId\":");
    push_json_string(&mut out, &report.correlation_id);
    out.push_str(",\"log\":");
    push_json_string(&mut out, &report.log);
    out.push('}');
    Ok(out)
}
