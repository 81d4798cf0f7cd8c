//! A query that ran and matched nothing is an answer, not an error: a
//! success result (`isError: false`) saying so in words. "Nothing matched"
//! and "could not look" must never share a shape, or an agent tells a
//! customer they have no orders while the order system is down.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::given_text;
use crate::error::SpecError;
use crate::json::{compact, fail, given, missing, parse_raw, read_input};
use crate::locale::Locale;

/// A query that matched nothing.
#[derive(Debug, Clone, Default)]
pub struct EmptyResult<'a> {
    /// What was searched for, as a plural noun: "orders".
    pub what: &'a str,
    /// What it was searched by, with its preposition: "for jo@example.com".
    pub query: Option<&'a str>,
    /// The next step worth taking: "Ask whether the customer used another email."
    pub suggestion: Option<&'a str>,
    /// The tool's `structuredContent` for an empty answer, as JSON text (any JSON value).
    pub structured_content: Option<&'a str>,
    /// With `localize_steering`, the language of the text; alone it changes nothing.
    pub locale: Locale,
    /// The text steers the model, so it is English unless this asks for `locale`.
    pub localize_steering: bool,
}

impl EmptyResult<'_> {
    /// The result's text: the count, that the query ran, and the next step.
    ///
    /// ```
    /// use mcp_envelope::recovery::EmptyResult;
    /// let empty = EmptyResult { what: "orders", query: Some("for jo@example.com"), ..Default::default() };
    /// assert_eq!(
    ///     empty.text(),
    ///     "0 orders found for jo@example.com.\nThe query ran and matched nothing: this is a valid answer, \
    ///      not an error. Do not repeat the same query."
    /// );
    /// ```
    pub fn text(&self) -> String {
        let words = &self.locale.steering(self.localize_steering).words().steering;
        let query = self
            .query
            .filter(|q| !q.is_empty())
            .map(|q| format!(" {q}"))
            .unwrap_or_default();
        let mut text = (words.nothing_found)(self.what, &query);
        if let Some(suggestion) = self.suggestion.filter(|s| !s.is_empty()) {
            text.push_str(words.next_step);
            text.push_str(suggestion);
        }
        text
    }
}

/// The `CallToolResult` JSON: the text, the `structuredContent` if given,
/// `isError: false`. An empty `what` is refused; `structuredContent` may be
/// any JSON value (MCP 2026-07-28, SEP-2106).
///
/// ```
/// use mcp_envelope::recovery::{empty_result, EmptyResult};
/// let result = empty_result(&EmptyResult {
///     what: "invoices",
///     structured_content: Some(r#"{"invoices": []}"#),
///     ..Default::default()
/// })
/// .unwrap();
/// assert!(result.ends_with(r#""structuredContent":{"invoices":[]},"isError":false}"#));
/// ```
pub fn empty_result(empty: &EmptyResult) -> Result<String, SpecError> {
    if empty.what.is_empty() {
        return fail("\"what\" must name what was searched for, as a plural noun such as \"orders\"");
    }
    // Passed on as written, compact, at any depth: it is the tool's data, not
    // text for the model.
    let structured = match empty.structured_content.map(parse_raw) {
        None => None,
        Some(Err(e)) => return fail(format!("invalid JSON in \"structuredContent\": {e}")),
        // Any JSON value, as MCP 2026-07-28 allows (SEP-2106); a client of
        // 2025-11-25 expects an object, which is the caller's to give it.
        Some(Ok(raw)) => Some(compact(raw)),
    };
    Ok(crate::tool_error::render::text_result_with(
        &empty.text(),
        structured.as_deref(),
        false,
    ))
}

const WHAT: &str = "the empty-result input";

/// The `empty-result` input as written; with the `schema` feature also the
/// wrappers' `EmptyResultOptions`.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an empty-result input object"
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "EmptyResultOptions",
        description = "The options of `emptyResult`: a query that ran and matched nothing.",
        extend("required" = ["what"])
    )
)]
#[doc(hidden)]
pub struct EmptyInput {
    /// What was searched for, as a plural noun (`orders`).
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    what: Option<String>,
    /// The query, with its own preposition (`for jo@example.com`).
    query: Option<String>,
    /// The next step, if there is a useful one.
    suggestion: Option<String>,
    /// The tool's structured output (for an output schema), passed through:
    /// any JSON value (MCP 2026-07-28, SEP-2106).
    #[cfg_attr(feature = "schema", schemars(with = "Option<serde_json::Value>"))]
    structured_content: Option<Box<RawValue>>,
    /// The catalog of the text (English by default).
    locale: Option<Locale>,
    /// With `pt-BR`: the text (which steers the model) in Portuguese too.
    localize_steering: Option<bool>,
}

/// The JSON entry point behind `mcp_envelope::raw::empty_result`.
#[inline]
pub fn empty_result_json(text: &str) -> Result<String, SpecError> {
    let input: EmptyInput = read_input(text, WHAT)?;
    let Some(what) = input.what else {
        return missing("missing \"what\": what was searched for, as a plural noun such as \"orders\"");
    };
    let (query, suggestion) = (given_text(input.query), given_text(input.suggestion));
    empty_result(&EmptyResult {
        what: &what,
        query: query.as_deref(),
        suggestion: suggestion.as_deref(),
        structured_content: input.structured_content.as_deref().map(RawValue::get),
        locale: input.locale.unwrap_or(Locale::En),
        localize_steering: input.localize_steering.unwrap_or(false),
    })
}
