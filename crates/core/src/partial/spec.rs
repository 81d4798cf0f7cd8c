//! The partial-result spec as JSON: what `render-partial` and
//! `partial-result` take, and what a reading states. Strict like the error
//! spec: an unknown key, a repeated key or a value of the wrong type is
//! refused, naming the key.

use serde::{Deserialize, Serialize};

use super::limits::PartialLimitsInput;
use super::model::{FailedItem, PartialResult};
use crate::code::Category;
use crate::error::SpecError;
use crate::json::{fail, given, is_zero, missing, read_input, to_json, Count, Object};
use crate::tool_error::render::Format;
use crate::tool_error::spec::Seconds;

const WHAT: &str = "the partial result spec";

/// A partial-result spec as written; with the `schema` feature also the
/// wrappers' `PartialSpec`. Its field docs are the generated types' docs.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "a partial result spec object"
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "PartialSpec",
        description = "A partial result (docs/partial-results.md): what was obtained, what failed with which code, \
                       what was already tried. The core writes the summary and the severity from the lists.",
        extend("required" = ["obtained", "failed"])
    )
)]
pub struct PartialInput {
    /// What was asked.
    task: Option<String>,
    /// One line per thing obtained; `[]` when nothing was.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<String>"))]
    obtained: Option<Vec<String>>,
    /// How many more things were obtained than the envelope lists (a capped envelope read back states it).
    omitted_obtained: Option<Count>,
    /// At least one failed item: with nothing failed, the call succeeded.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Object<FailedInput>>"))]
    failed: Option<Vec<Object<FailedInput>>>,
    /// How many more items failed than the envelope lists.
    omitted_failed: Option<Count>,
    /// One line per attempt already made, so the coordinator does not repeat it.
    tried: Option<Vec<String>>,
    /// How many more attempts were made than the envelope lists.
    omitted_tried: Option<Count>,
    /// The next step for the coordinator; a default one when absent.
    recovery: Option<String>,
    /// The id that finds this failure in the server's log.
    correlation_id: Option<String>,
    /// Caps other than the defaults (docs/size-caps.md, "The partial result").
    limits: Option<Object<PartialLimitsInput>>,
    /// `xml` (default), `json` or `text`.
    format: Option<Format>,
    /// The tool's data beside the envelope, any JSON value: for
    /// `partial-result` only (`render-partial` refuses it).
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    structured_content: Option<Box<serde_json::value::RawValue>>,
}

/// One failed item as written; with the `schema` feature also the wrappers'
/// `PartialFailure`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a failed item object")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "PartialFailure",
        description = "One item a partial result could not obtain.",
        extend("required" = ["item", "code"])
    )
)]
struct FailedInput {
    /// What could not be obtained.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    item: Option<String>,
    /// Its error code, canonical or custom.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    code: Option<String>,
    /// What went wrong.
    message: Option<String>,
    /// A canonical code's own category when absent.
    category: Option<Category>,
    /// A canonical code's own retryability when absent; `false` for a custom code.
    retryable: Option<bool>,
    /// Seconds to wait before another attempt, as the failure stated it; a fraction rounds up.
    #[serde(rename = "retryAfter")]
    retry_after: Option<Seconds>,
}

/// Reads a partial-result spec and the format asked for (`xml` unless given).
/// `null` for an optional key means "not set".
///
/// ```
/// use mcp_envelope::{partial::partial_from_json, Format};
/// let (p, format) = partial_from_json(r#"{"obtained":[],"failed":[{"item":"Company C","code":"TIMEOUT"}],"format":"text"}"#).unwrap();
/// assert_eq!((p.failed[0].is_retryable(), format), (true, Format::Text));
/// ```
#[inline]
pub fn partial_from_json(text: &str) -> Result<(PartialResult, Format), SpecError> {
    let (partial, format, structured) = partial_result_from_json(text)?;
    if structured.is_some() {
        return fail(
            "\"structuredContent\" is a result's member, not the envelope's: give it to partial-result, \
             which sends it beside the envelope",
        );
    }
    Ok((partial, format))
}

/// [`partial_from_json`] for `partial-result`, with the spec's
/// `structuredContent` (compact JSON text, any JSON value, as MCP
/// 2026-07-28 allows: SEP-2106), which the result carries beside the envelope.
#[inline]
pub(crate) fn partial_result_from_json(text: &str) -> Result<(PartialResult, Format, Option<String>), SpecError> {
    let input: PartialInput = read_input(text, WHAT)?;
    let Some(obtained) = input.obtained else {
        return missing("missing \"obtained\": list what was obtained, one line each ([] when nothing was)");
    };
    let Some(failed) = input.failed else {
        return missing("missing \"failed\": list the items that failed, each with its code");
    };
    if failed.is_empty() {
        return fail(
            "\"failed\" is empty: a partial result has at least one failed item; \
             when nothing failed, return the results as a normal success",
        );
    }
    let failed = failed
        .into_iter()
        .enumerate()
        .map(|(i, f)| failed_item(f.0, i))
        .collect::<Result<_, _>>()?;
    let partial = PartialResult {
        task: input.task,
        obtained,
        omitted_obtained: input.omitted_obtained.unwrap_or_default().0,
        failed,
        omitted_failed: input.omitted_failed.unwrap_or_default().0,
        tried: input.tried.unwrap_or_default(),
        omitted_tried: input.omitted_tried.unwrap_or_default().0,
        recovery: input.recovery,
        correlation_id: input.correlation_id,
        limits: input.limits.map(|l| l.0.in_force()).transpose()?,
    };
    let structured = input.structured_content.map(|raw| crate::json::compact(raw.get()));
    Ok((partial, input.format.unwrap_or(Format::Xml), structured))
}

/// One failed item, the `i`th; missing or empty names refused in our words.
fn failed_item(input: FailedInput, i: usize) -> Result<FailedItem, SpecError> {
    let item = match input.item {
        None => return missing(format!("failed[{i}] has no \"item\": name what could not be obtained")),
        Some(item) if item.is_empty() => return fail(format!("failed[{i}].item must not be empty")),
        Some(item) => item,
    };
    let code = match input.code {
        None => {
            return missing(format!(
                "failed[{i}] has no \"code\": give its error code, canonical or custom"
            ))
        }
        Some(code) if code.is_empty() => return fail(format!("failed[{i}].code must not be empty")),
        Some(code) => code,
    };
    Ok(FailedItem {
        item,
        code,
        message: input.message,
        category: input.category,
        retryable: input.retryable,
        retry_after: input.retry_after.map(|s| s.0),
    })
}

/// The stated spec's shapes as written, declared once: inside
/// [`to_json_as_stated`], which writes them, and with the `schema` feature in
/// [`report`], as the wrappers' `PartialReport` and `PartialReportFailure`.
/// The writer's own copy stays in its body: hoisted to the module, it builds
/// the component to other bytes, which the schema feature must never change.
macro_rules! partial_report_shapes {
    () => {
        /// One failed item as stated (what is not set is left out).
        #[derive(Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(
            feature = "schema",
            schemars(
                rename = "PartialReportFailure",
                description = "One failed item of a partial result as read back."
            )
        )]
        struct FailedOutput<'a> {
            /// What could not be obtained.
            item: &'a str,
            /// Its error code, canonical or custom.
            code: &'a str,
            /// What went wrong.
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "String"))]
            message: Option<&'a str>,
            /// Its category, as stated (a reading fills in a canonical code's own).
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "Category"))]
            category: Option<Category>,
            /// Whether it can be retried, as stated (a reading fills it in).
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "bool"))]
            retryable: Option<bool>,
            /// Seconds to wait before another attempt, as stated.
            #[serde(rename = "retryAfter", skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "u32"))]
            retry_after: Option<u32>,
        }

        /// The spec as stated, in the input's key order (what is not set is left out).
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(
            feature = "schema",
            schemars(
                rename = "PartialReport",
                description = "A partial result as read back: the spec as stated, each item's category and retryability filled in."
            )
        )]
        pub struct PartialOutput<'a> {
            /// What was asked.
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "String"))]
            task: Option<&'a str>,
            /// One line per thing obtained.
            obtained: &'a [String],
            /// How many more things were obtained than the envelope lists.
            #[serde(skip_serializing_if = "is_zero")]
            #[cfg_attr(feature = "schema", serde(default))]
            omitted_obtained: usize,
            /// The items that failed.
            failed: Vec<FailedOutput<'a>>,
            /// How many more items failed than the envelope lists.
            #[serde(skip_serializing_if = "is_zero")]
            #[cfg_attr(feature = "schema", serde(default))]
            omitted_failed: usize,
            /// One line per attempt already made.
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            #[cfg_attr(feature = "schema", serde(default))]
            tried: &'a [String],
            /// How many more attempts were made than the envelope lists.
            #[serde(skip_serializing_if = "is_zero")]
            #[cfg_attr(feature = "schema", serde(default))]
            omitted_tried: usize,
            /// The next step for the coordinator.
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "String"))]
            recovery: Option<&'a str>,
            /// The id that finds this failure in the server's log.
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "String"))]
            correlation_id: Option<&'a str>,
            /// The caps the spec gave, when it gave some.
            #[serde(skip_serializing_if = "Option::is_none")]
            #[cfg_attr(feature = "schema", serde(default), schemars(with = "crate::partial::PartialLimits"))]
            limits: Option<&'a crate::partial::PartialLimits>,
        }
    };
}

/// The schema's copy of the writer's shapes (`wire_schema`).
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: its schema is all it is for
pub(crate) mod report {
    use serde::Serialize;

    use crate::code::Category;
    use crate::json::is_zero;

    partial_report_shapes!();
}

/// Writes every field that is set, even one equal to its default: what an
/// envelope read back states (the reading's `partial`). `obtained` and
/// `failed` are always written; `tried` only when it lists something, a
/// count only when it is not 0.
///
/// ```
/// use mcp_envelope::partial::{to_json_as_stated, FailedItem, PartialResult};
/// let p = PartialResult::new().failed(FailedItem::new("Company C", "FILING_SEALED").retryable(false));
/// assert_eq!(
///     to_json_as_stated(&p),
///     r#"{"obtained":[],"failed":[{"item":"Company C","code":"FILING_SEALED","retryable":false}]}"#
/// );
/// ```
pub fn to_json_as_stated(partial: &PartialResult) -> String {
    partial_report_shapes!();
    to_json(&PartialOutput {
        task: partial.task.as_deref(),
        obtained: &partial.obtained,
        omitted_obtained: partial.omitted_obtained,
        failed: partial
            .failed
            .iter()
            .map(|f| FailedOutput {
                item: &f.item,
                code: &f.code,
                message: f.message.as_deref(),
                category: f.category,
                retryable: f.retryable,
                retry_after: f.retry_after,
            })
            .collect(),
        omitted_failed: partial.omitted_failed,
        tried: &partial.tried,
        omitted_tried: partial.omitted_tried,
        recovery: partial.recovery.as_deref(),
        correlation_id: partial.correlation_id.as_deref(),
        limits: partial.limits.as_ref(),
    })
}
