//! The error spec as JSON: what the CLI reads, the vectors hold and the
//! component's string functions take. Keys are the `toolError` option names
//! (camelCase) plus the extension fields; an unknown key is an error.
//!
//! ```
//! use mcp_envelope::{spec, render_xml};
//! let e = spec::from_json(r#"{"code":"NOT_FOUND","message":"No invoice with that ID"}"#).unwrap();
//! assert!(render_xml(&e).contains("<message>No invoice with that ID</message>"));
//! assert_eq!(spec::to_json(&e), r#"{"code":"NOT_FOUND","message":"No invoice with that ID"}"#);
//! ```

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::code::Category;
use crate::cut::Marker;
use crate::delta::ContractDelta;
use crate::json::{
    compact_within, fail, given, is_false, is_zero, missing, parse_string, read_input, repeated_key, Count, Object,
    Pairs,
};
use crate::locale::Locale;
use crate::tool_error::limits::{Limits, LimitsInput, MAX_DEPTH};
use crate::tool_error::model::{Severity, ToolError, ToolFailureMeta};

pub use crate::error::SpecError;

/// A spec as written: every key optional to serde, so that a missing `code`
/// or `message` is refused in words of our own.
///
/// With the `schema` feature it is also the wrappers' `EnvelopeSpec`
/// (`wire_schema`): one error, as the CLI's JSON spec; `null` or absent means
/// not set. Its field docs are the generated types' docs.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", expecting = "a spec object")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "EnvelopeSpec",
        description = "One error, as the CLI's JSON spec: `null` or absent means not set.",
        extend("required" = ["code", "message"])
    )
)]
pub struct SpecInput {
    /// A canonical code or a custom one: any non-empty string.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    code: Option<String>,
    /// What failed, for the model.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    message: Option<String>,
    /// The next step; the code's default recovery when absent.
    suggestion: Option<String>,
    /// The calls the model can make instead.
    available_actions: Option<Vec<String>>,
    /// How many more actions there were than the envelope lists (a capped envelope read back states it).
    omitted_actions: Option<Count>,
    /// Shown in key order. A value is shown as text: a string as itself, a
    /// number or a boolean as written, `null` as `null`, an object or array as
    /// its compact JSON.
    details: Option<Details>,
    /// How many more details there were than the envelope lists.
    omitted_details: Option<Count>,
    /// Whole seconds; a fraction rounds up.
    retry_after: Option<Seconds>,
    /// `error` (the default) and `critical` mark the result `isError: true`; `warning` rides on a success.
    severity: Option<Severity>,
    /// The recovery branch; the code's own when absent.
    category: Option<Category>,
    /// Whether another call can succeed; the code's own when absent.
    retryable: Option<bool>,
    /// The words for the person behind the model.
    customer_message: Option<String>,
    /// The id that finds this failure in the server's log.
    correlation_id: Option<String>,
    /// Contract changes since the model learned the tool; the BREAKING and RISKY ones are shown.
    deltas: Option<Vec<Object<ContractDelta>>>,
    /// How many more contract changes there were than the envelope lists.
    omitted_deltas: Option<Count>,
    /// The catalog of the code's default recovery and of the words the core writes (English by default).
    locale: Option<Locale>,
    /// With `pt-BR`: the lines that steer the model (repeat and stop lines, among others) in Portuguese too.
    localize_steering: Option<bool>,
    /// Size caps for this envelope; the core's defaults apply without it.
    limits: Option<Object<LimitsInput>>,
    /// Adds the ToolFailure metadata to the `CallToolResult` (`true`, or
    /// `{"now": epoch milliseconds}` to also get `retryNotBefore`; needs a
    /// `correlationId`); the envelope text is unchanged.
    tool_failure: Option<ToolFailureInput>,
}

/// Reads a spec. `null` for an optional key means "not set".
pub fn from_json(text: &str) -> Result<ToolError, SpecError> {
    let spec: SpecInput = read_input(text, "the spec")?;
    let code = match spec.code {
        Some(code) if code.is_empty() => return fail("\"code\" must not be empty"),
        Some(code) => code,
        None => return missing("missing \"code\": every error needs a code, canonical or custom"),
    };
    let Some(message) = spec.message else {
        return missing("missing \"message\": say what failed");
    };
    let locale = spec.locale.unwrap_or(Locale::En);
    let localize_steering = spec.localize_steering.unwrap_or(false);
    let marker = Marker::of(locale, localize_steering);
    let error = ToolError {
        code,
        message,
        suggestion: spec.suggestion,
        available_actions: spec.available_actions.unwrap_or_default(),
        omitted_actions: spec.omitted_actions.unwrap_or_default().0,
        details: spec.details.map(|d| d.texts(marker)).unwrap_or_default(),
        omitted_details: spec.omitted_details.unwrap_or_default().0,
        retry_after: spec.retry_after.map(|s| s.0),
        severity: spec.severity.unwrap_or(Severity::Error),
        category: spec.category,
        retryable: spec.retryable,
        customer_message: spec.customer_message,
        correlation_id: spec.correlation_id,
        deltas: spec.deltas.unwrap_or_default().into_iter().map(|d| d.0).collect(),
        omitted_deltas: spec.omitted_deltas.unwrap_or_default().0,
        locale,
        localize_steering,
        limits: spec.limits.map(|l| l.0.in_force()).transpose()?,
        tool_failure: spec.tool_failure.and_then(|t| t.0),
    };
    if error.tool_failure.is_some() && error.correlation_id_text().is_none() {
        return missing("\"toolFailure\" needs a \"correlationId\": the proposal requires one, to match the failure with the server's log");
    }
    Ok(error)
}

/// Writes the smallest spec that renders the same envelope: defaults left out.
pub fn to_json(error: &ToolError) -> String {
    to_json_as_stated(&error.minimal())
}

/// Writes every field that is set, even one equal to its code's default: what
/// an envelope read back states (`read_envelope`'s faithful spec).
pub fn to_json_as_stated(e: &ToolError) -> String {
    crate::json::to_json(&SpecOutput {
        code: &e.code,
        message: &e.message,
        suggestion: e.suggestion.as_deref(),
        available_actions: &e.available_actions,
        omitted_actions: e.omitted_actions,
        details: Pairs(&e.details),
        omitted_details: e.omitted_details,
        retry_after: e.retry_after,
        severity: (e.severity != Severity::Error).then_some(e.severity),
        category: e.category,
        retryable: e.retryable,
        customer_message: e.customer_message.as_deref(),
        correlation_id: e.correlation_id.as_deref(),
        deltas: &e.deltas,
        omitted_deltas: e.omitted_deltas,
        locale: (e.locale != Locale::En).then_some(e.locale),
        localize_steering: e.localize_steering,
        limits: e.limits.as_ref(),
        tool_failure: e.tool_failure.map(ToolFailureOutput),
    })
}

/// A spec as written back: the keys in the input's order, the unset ones left out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SpecOutput<'a> {
    code: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    available_actions: &'a [String],
    #[serde(skip_serializing_if = "is_zero")]
    omitted_actions: usize,
    #[serde(skip_serializing_if = "Pairs::is_empty")]
    details: Pairs<'a, String, String>,
    #[serde(skip_serializing_if = "is_zero")]
    omitted_details: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<Severity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<Category>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retryable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    customer_message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    correlation_id: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    deltas: &'a [ContractDelta],
    #[serde(skip_serializing_if = "is_zero")]
    omitted_deltas: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    locale: Option<Locale>,
    #[serde(skip_serializing_if = "is_false")]
    localize_steering: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    limits: Option<&'a Limits>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_failure: Option<ToolFailureOutput>,
}

/// `toolFailure` as written: `true`, or `{"now": N}` with a clock.
struct ToolFailureOutput(ToolFailureMeta);

impl Serialize for ToolFailureOutput {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self.0.now_ms {
            None => serializer.serialize_bool(true),
            Some(now) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("now", &now)?;
                map.end()
            }
        }
    }
}

/// Detail values are shown as text: a string as itself, a number with its
/// written digits (so `12345678901234567890` stays exact), a boolean or `null`
/// as its word, and an object or array as its compact JSON, so whatever a
/// host holds in its details reaches the model rather than failing the error
/// path. Nesting of any depth is read; past `MAX_DEPTH` levels it is cut and
/// marked (`json::compact_within`), in the marker language of the spec's
/// locale, known only once the whole spec is read. Keys keep their order; a
/// repeated key is refused.
struct Details(Vec<(String, Detail)>);

enum Detail {
    Text(String),
    Json(Box<RawValue>),
}

impl Details {
    fn texts(self, marker: Marker) -> Vec<(String, String)> {
        let text = |detail| match detail {
            Detail::Text(text) => text,
            Detail::Json(raw) => compact_within(raw.get(), MAX_DEPTH, marker),
        };
        self.0.into_iter().map(|(key, detail)| (key, text(detail))).collect()
    }
}

impl<'de> Deserialize<'de> for Details {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DetailsVisitor;
        impl<'de> Visitor<'de> for DetailsVisitor {
            type Value = Details;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of details")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Details, A::Error> {
                let mut details: Vec<(String, Detail)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let raw = map.next_value::<Box<RawValue>>()?;
                    let detail = match parse_string(raw.get()) {
                        Ok(text) => Detail::Text(text.into_owned()),
                        Err(_) => Detail::Json(raw),
                    };
                    details.push((key, detail));
                }
                // Checked once, at the end: a host may hold thousands of details.
                if let Some(key) = repeated_key(&details) {
                    return Err(de::Error::custom(format!("the key {key:?} appears twice")));
                }
                Ok(Details(details))
            }
        }
        deserializer.deserialize_map(DetailsVisitor)
    }
}

/// `retryAfter`: seconds, rounded up to a whole second (a model told to wait
/// 1.5 s must not come back after 1); negative or beyond `u32::MAX` (136
/// years) is refused.
pub struct Seconds(pub u32);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SecondsVisitor;
        impl Visitor<'_> for SecondsVisitor {
            type Value = Seconds;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of seconds")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Seconds, E> {
                self.visit_f64(v as f64)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Seconds, E> {
                self.visit_f64(v as f64)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Seconds, E> {
                match v {
                    s if s < 0.0 => Err(E::custom("must not be negative")),
                    s if s.ceil() <= f64::from(u32::MAX) => Ok(Seconds(s.ceil() as u32)),
                    // The number is not echoed: each host's JSON writer spells it differently.
                    _ => Err(E::custom(format!(
                        "too large: the most it can be is {} seconds (about 136 years)",
                        u32::MAX
                    ))),
                }
            }
        }
        deserializer.deserialize_f64(SecondsVisitor)
    }
}

/// `toolFailure`: `true`, `false` (off), or `{"now": epoch milliseconds}`.
struct ToolFailureInput(Option<ToolFailureMeta>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolFailureClock {
    now: Option<Millis>,
}

/// Unix epoch milliseconds: a u64, not a count, since they overflow a wasm32 usize.
struct Millis(u64);

impl<'de> Deserialize<'de> for Millis {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MillisVisitor;
        impl Visitor<'_> for MillisVisitor {
            type Value = Millis;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Unix epoch milliseconds, a whole number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Millis, E> {
                Ok(Millis(v))
            }
        }
        deserializer.deserialize_u64(MillisVisitor)
    }
}

impl<'de> Deserialize<'de> for ToolFailureInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read raw, then by its first byte: an untagged enum would buffer
        // the value and keep no number's written text.
        crate::json::from_raw(deserializer, |raw| match raw.as_bytes().first() {
            Some(b't') => Ok(ToolFailureInput(Some(ToolFailureMeta::default()))),
            Some(b'f') => Ok(ToolFailureInput(None)),
            Some(b'{') => serde_json::from_str::<ToolFailureClock>(raw)
                .map(|clock| {
                    ToolFailureInput(Some(ToolFailureMeta {
                        now_ms: clock.now.map(|m| m.0),
                    }))
                })
                .map_err(|e| crate::json::without_position(&e)),
            _ => Err(format!(
                "must be true, false or {{\"now\": milliseconds}}, not {}",
                crate::json::raw_kind(raw)
            )),
        })
    }
}

/// The members read by hand above, as what they accept.
#[cfg(feature = "schema")]
mod schema {
    use std::borrow::Cow;

    use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

    // `details`: an object of any JSON values.
    inline_schema!(super::Details, "Details", { "type": "object", "additionalProperties": true });

    // `retryAfter` (and an upstream failure's `now`): seconds, 0 or more, a fraction allowed.
    inline_schema!(super::Seconds, "Seconds", { "type": "number", "minimum": 0 });

    /// `toolFailure`: `true`, `false` (off) or `{"now": epoch milliseconds}`.
    impl JsonSchema for super::ToolFailureInput {
        fn schema_name() -> Cow<'static, str> {
            "ToolFailureRequest".into()
        }
        fn schema_id() -> Cow<'static, str> {
            concat!(module_path!(), "::ToolFailureRequest").into()
        }
        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({
                "description": "Asks for `_meta[\"io.modelcontextprotocol/toolFailure\"]` on the result: `true`, or `{ now }` in Unix epoch milliseconds to also get `retryNotBefore`. Needs a correlationId.",
                "anyOf": [
                    { "type": "boolean" },
                    {
                        "type": "object",
                        "properties": { "now": { "type": ["integer", "null"], "minimum": 0 } },
                        "additionalProperties": false
                    }
                ]
            })
        }
    }
}
