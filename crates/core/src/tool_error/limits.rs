//! Size caps: how much of an error may reach the model.
//!
//! Every envelope is capped, by default or as a spec's `limits` says: no
//! text longer than `message_chars`, at most `actions` actions and `details`
//! details, and the whole envelope within `envelope_chars` where the kept
//! parts allow. Characters are Unicode scalar values. Cutting is marked.
//! Every renderer applies them (`render/capped.rs`); docs/size-caps.md has
//! the rules.
//!
//! ```
//! use mcp_envelope::{render_json, Limits, ToolError};
//! let e = ToolError::new("X", "y".repeat(100)).limits(Limits { message_chars: 40, ..Limits::DEFAULT });
//! assert!(render_json(&e).contains(&format!("\"reason\":\"{}… [81 characters cut]\"", "y".repeat(19))));
//! ```

use crate::error::SpecError;

use crate::json::{fail, read_member, Count, Object};

/// The most levels of arrays and objects a value shows, the value itself
/// being the first: each array or object nested deeper is replaced by the
/// cut marker as a string, `"… [N characters cut]"`, N the characters of its
/// compact JSON (docs/size-caps.md, "Nested values"). Not a spec's limit: a
/// value that deep is no longer data a model reads, and no host need agree
/// on a setting for the rule to be the same everywhere.
///
/// ```
/// use mcp_envelope::{render_xml, spec};
/// let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
/// let e = spec::from_json(&format!(r#"{{"code":"X","message":"m","details":{{"body":{deep}}}}}"#)).unwrap();
/// let shown = format!("{}\"… [2 characters cut]\"{}", "[".repeat(64), "]".repeat(64));
/// assert_eq!(e.details[0].1, shown);
/// ```
pub const MAX_DEPTH: usize = 64;

pub use crate::count::MAX_COUNT;

/// Declares one set of caps twice from one list of fields, so that each
/// field's doc is written once: the caps in force (each a `usize`, every key
/// written) and the `limits` object a spec gives (each cap optional, absent
/// or `null` its default, an unknown key refused), each with the name and
/// description the wire schema gives it.
macro_rules! caps {
    (
        $(#[doc = $in_force_doc:literal])*
        pub struct $InForce:ident, schema $in_force_name:tt: $in_force_schema:tt;
        $(#[doc = $input_doc:literal])*
        pub(crate) struct $Input:ident, schema $input_name:tt: $input_schema:tt;
        fields { $( $(#[doc = $doc:literal])+ $field:ident, )+ }
    ) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "schema", schemars(rename = $in_force_name, description = $in_force_schema))]
        $(#[doc = $in_force_doc])*
        pub struct $InForce {
            $( $(#[doc = $doc])+ pub $field: usize, )+
        }

        #[derive(Debug, Default, serde::Deserialize)]
        #[serde(deny_unknown_fields, rename_all = "camelCase", expecting = "a limits object")]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "schema", schemars(rename = $input_name, description = $input_schema))]
        $(#[doc = $input_doc])*
        pub struct $Input {
            $( $(#[doc = $doc])+ $field: Option<crate::json::Count>, )+
        }
    };
}
pub(crate) use caps;

caps! {
    /// The caps one envelope is rendered under; written as the spec's `limits`.
    /// The wrappers' `LimitsInForce` (Python's `Limits`): what `limits` gives, every key written.
    pub struct Limits, schema "LimitsInForce": "The size caps in force, every key written (docs/size-caps.md).";
    /// A `limits` object as written: each cap optional, `null` the default.
    /// The wrappers' `Limits`: size caps of one envelope; an absent key keeps the
    /// core's default (docs/size-caps.md).
    pub(crate) struct LimitsInput, schema "Limits": "Size caps of one envelope; an absent key keeps the core's default (docs/size-caps.md).";
    fields {
        /// The most characters of the message, or of any other single text; longer ones are cut with a marker.
        message_chars,
        /// The most characters of the whole envelope, where the kept parts allow.
        envelope_chars,
        /// The most available actions listed; the rest are counted.
        actions,
        /// The most details listed; the rest are counted.
        details,
    }
}

impl Limits {
    /// 500 characters a text, 2000 an envelope, 10 actions, 10 details.
    pub const DEFAULT: Limits = Limits {
        message_chars: 500,
        envelope_chars: 2000,
        actions: 10,
        details: 10,
    };
    /// The smallest `message_chars` accepted: room for a cut marker and some text.
    pub const MIN_MESSAGE_CHARS: usize = 40;
    /// The smallest `envelope_chars` accepted.
    pub const MIN_ENVELOPE_CHARS: usize = 200;

    /// `{"messageChars","envelopeChars","actions","details"}`, each optional.
    pub fn from_json(raw: &str) -> Result<Limits, SpecError> {
        read_member::<Object<LimitsInput>>(raw, "limits")?.0.in_force()
    }

    /// The same object, every key written.
    pub fn to_json(&self) -> String {
        crate::json::to_json(self)
    }
}

/// The JSON entry point behind `mcp_envelope::raw::limits`.
#[inline]
pub fn limits_json(input: &str) -> Result<String, SpecError> {
    Ok(limits_in_force(input, Limits::DEFAULT, Limits::from_json)?.to_json())
}

/// A `limits` object given alone (a `limits`-style export's input): `null`
/// is `default`, anything else is read by `read`.
pub(crate) fn limits_in_force<T>(
    input: &str,
    default: T,
    read: impl FnOnce(&str) -> Result<T, SpecError>,
) -> Result<T, SpecError> {
    if input.trim() == "null" {
        return Ok(default);
    }
    read(input)
}

impl LimitsInput {
    /// The caps in force, each below its least value refused, naming the key.
    pub(crate) fn in_force(&self) -> Result<Limits, SpecError> {
        let (message_chars, envelope_chars) = text_caps(self.message_chars, self.envelope_chars)?;
        let d = Limits::DEFAULT;
        Ok(Limits {
            message_chars,
            envelope_chars,
            actions: self.actions.map_or(d.actions, |c| c.0),
            details: self.details.map_or(d.details, |c| c.0),
        })
    }
}

/// The two caps every envelope has, `messageChars` and `envelopeChars`, as
/// given or by default, each refused below its least.
pub(crate) fn text_caps(message: Option<Count>, envelope: Option<Count>) -> Result<(usize, usize), SpecError> {
    let d = Limits::DEFAULT;
    Ok((
        at_least("messageChars", message, d.message_chars, Limits::MIN_MESSAGE_CHARS)?,
        at_least("envelopeChars", envelope, d.envelope_chars, Limits::MIN_ENVELOPE_CHARS)?,
    ))
}

/// A cap as given (or its default), refused below `least`. Every envelope's
/// `limits` is checked here, so each refuses in the same words.
pub(crate) fn at_least(key: &str, given: Option<Count>, default: usize, least: usize) -> Result<usize, SpecError> {
    match given {
        Some(Count(value)) if value < least => fail(format!("limits.{key} must be at least {least}")),
        Some(Count(value)) => Ok(value),
        None => Ok(default),
    }
}

/// `text` as every envelope shows a text under a `max_chars` cap: whole
/// when within it, else the longest prefix that fits with the English cut
/// marker `… [N characters cut]`, cut on a character boundary.
///
/// ```
/// use mcp_envelope::limits::cut_text;
/// assert_eq!(cut_text("short", 40), "short");
/// assert_eq!(cut_text(&"x".repeat(100), 40), format!("{}… [81 characters cut]", "x".repeat(19)));
/// ```
pub fn cut_text(text: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    crate::cut::capped(text, max_chars, crate::cut::Marker::ENGLISH)
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
