//! The partial-result spec as JSON: what `render-partial` and
//! `partial-result` take, and what a reading states. Strict like the error
//! spec: an unknown key, a repeated key or a value of the wrong type is
//! refused, naming the key.

use super::limits::PartialLimits;
use super::model::{FailedItem, PartialResult};
use crate::code::Category;
use crate::error::SpecError;
use crate::json::{
    array, boolean, fail, is_null, object, one_of, optional_string, push_json_array, push_json_string, string,
    string_list, Item, Member, Quoted,
};
use crate::render::Format;
use crate::spec::omitted;

/// The keys a partial-result spec may have, in the order `to_json_as_stated` writes them.
pub const KEYS: [&str; 11] = [
    "task",
    "obtained",
    "omittedObtained",
    "failed",
    "omittedFailed",
    "tried",
    "omittedTried",
    "recovery",
    "correlationId",
    "limits",
    "format",
];

/// The keys a failed item may have, in the order they are written.
pub const FAILED_KEYS: [&str; 5] = ["item", "code", "message", "category", "retryable"];

const WHAT: &str = "the partial result spec";

/// Reads a partial-result spec and the format asked for (`xml` unless given).
/// `null` for an optional key means "not set".
///
/// ```
/// use mcp_envelope::{partial::partial_from_json, Format};
/// let (p, format) = partial_from_json(r#"{"obtained":[],"failed":[{"item":"Company C","code":"TIMEOUT"}],"format":"text"}"#).unwrap();
/// assert_eq!((p.failed[0].is_retryable(), format), (true, Format::Text));
/// ```
pub fn partial_from_json(text: &str) -> Result<(PartialResult, Format), SpecError> {
    let mut partial = PartialResult::default();
    let mut format = Format::Xml;
    let (mut has_obtained, mut has_failed) = (false, false);
    for (key, raw) in object(text, &WHAT)? {
        let what = Quoted(&key);
        match key.as_ref() {
            "task" => partial.task = optional_string(&raw, &what)?,
            "obtained" => {
                partial.obtained = string_list(&raw, &what)?;
                has_obtained = true;
            }
            "omittedObtained" => partial.omitted_obtained = omitted(&raw, &what)?,
            "failed" => {
                partial.failed = failed_items(&raw)?;
                has_failed = true;
            }
            "omittedFailed" => partial.omitted_failed = omitted(&raw, &what)?,
            "tried" if is_null(&raw) => partial.tried = Vec::new(),
            "tried" => partial.tried = string_list(&raw, &what)?,
            "omittedTried" => partial.omitted_tried = omitted(&raw, &what)?,
            "recovery" => partial.recovery = optional_string(&raw, &what)?,
            "correlationId" => partial.correlation_id = optional_string(&raw, &what)?,
            "limits" if is_null(&raw) => partial.limits = None,
            "limits" => partial.limits = Some(PartialLimits::from_json(&raw)?),
            "format" if is_null(&raw) => format = Format::Xml,
            "format" => format = one_of(&raw, &what, Format::ALL, Format::as_str)?,
            _ => {
                return fail(format!(
                    "unknown key {key:?} in {WHAT} (expected one of: {})",
                    KEYS.join(", ")
                ))
            }
        }
    }
    if !has_obtained {
        return fail("missing \"obtained\": list what was obtained, one line each ([] when nothing was)");
    }
    if !has_failed {
        return fail("missing \"failed\": list the items that failed, each with its code");
    }
    if partial.failed.is_empty() {
        return fail(
            "\"failed\" is empty: a partial result has at least one failed item; \
             when nothing failed, return the results as a normal success",
        );
    }
    Ok((partial, format))
}

fn failed_items(raw: &str) -> Result<Vec<FailedItem>, SpecError> {
    array(raw, &Quoted("failed"))?
        .iter()
        .enumerate()
        .map(|(i, item)| failed_item(item, &Item(&"failed", i)))
        .collect()
}

/// One failed item; `at` names it in messages (`failed[2]`).
fn failed_item(text: &str, at: &Item<'_>) -> Result<FailedItem, SpecError> {
    let mut failed = FailedItem::default();
    let (mut has_item, mut has_code) = (false, false);
    for (key, raw) in object(text, at)? {
        let what = Member(at, &key);
        match key.as_ref() {
            "item" => {
                failed.item = string(&raw, &what)?;
                has_item = true;
            }
            "code" => {
                failed.code = string(&raw, &what)?;
                has_code = true;
            }
            "message" => failed.message = optional_string(&raw, &what)?,
            "category" if is_null(&raw) => failed.category = None,
            "category" => failed.category = Some(one_of(&raw, &what, Category::ALL, Category::as_str)?),
            "retryable" if is_null(&raw) => failed.retryable = None,
            "retryable" => failed.retryable = Some(boolean(&raw, &what)?),
            _ => {
                return fail(format!(
                    "unknown key {key:?} in {at} (expected one of: {})",
                    FAILED_KEYS.join(", ")
                ))
            }
        }
    }
    if !has_item {
        return fail(format!("{at} has no \"item\": name what could not be obtained"));
    }
    if failed.item.is_empty() {
        return fail(format!("{at}.item must not be empty"));
    }
    if !has_code {
        return fail(format!(
            "{at} has no \"code\": give its error code, canonical or custom"
        ));
    }
    if failed.code.is_empty() {
        return fail(format!("{at}.code must not be empty"));
    }
    Ok(failed)
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
    let mut out = String::from("{");
    if let Some(task) = &partial.task {
        out.push_str("\"task\":");
        push_json_string(&mut out, task);
        out.push(',');
    }
    out.push_str("\"obtained\":");
    push_json_array(&mut out, &partial.obtained);
    push_count(&mut out, "omittedObtained", partial.omitted_obtained);
    out.push_str(",\"failed\":[");
    for (i, failed) in partial.failed.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"item\":");
        push_json_string(&mut out, &failed.item);
        out.push_str(",\"code\":");
        push_json_string(&mut out, &failed.code);
        if let Some(message) = &failed.message {
            out.push_str(",\"message\":");
            push_json_string(&mut out, message);
        }
        if let Some(category) = failed.category {
            out.push_str(&format!(",\"category\":\"{category}\""));
        }
        if let Some(retryable) = failed.retryable {
            out.push_str(&format!(",\"retryable\":{retryable}"));
        }
        out.push('}');
    }
    out.push(']');
    push_count(&mut out, "omittedFailed", partial.omitted_failed);
    if !partial.tried.is_empty() {
        out.push_str(",\"tried\":");
        push_json_array(&mut out, &partial.tried);
    }
    push_count(&mut out, "omittedTried", partial.omitted_tried);
    if let Some(recovery) = &partial.recovery {
        out.push_str(",\"recovery\":");
        push_json_string(&mut out, recovery);
    }
    if let Some(id) = &partial.correlation_id {
        out.push_str(",\"correlationId\":");
        push_json_string(&mut out, id);
    }
    if let Some(limits) = &partial.limits {
        out.push_str(",\"limits\":");
        out.push_str(&limits.to_json());
    }
    out.push('}');
    out
}

/// `,"name":N` when N is not 0: the spec's counts, the JSON form's too.
pub(crate) fn push_count(out: &mut String, name: &str, count: usize) {
    if count > 0 {
        out.push_str(&format!(",\"{name}\":{count}"));
    }
}
