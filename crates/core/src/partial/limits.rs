//! The caps of a partial result: the text and total caps of every envelope
//! (`messageChars`, `envelopeChars`, as `Limits` has them) and one cap on the
//! entries each list shows (`items`).

use crate::error::SpecError;

use crate::json::{read_member, Object};
use crate::tool_error::limits::{at_least, caps, limits_in_force, text_caps, Limits};

caps! {
    /// The caps one partial result is rendered under.
    ///
    /// `message_chars` and `envelope_chars` mean what they mean in `Limits`,
    /// with the same defaults and least values; `items` caps each of the three
    /// lists (obtained, failed, tried), the rest counted. The wrappers'
    /// `PartialLimitsInForce` (Python's `PartialLimits`): every key written.
    pub struct PartialLimits, schema "PartialLimitsInForce": "A partial result's caps in force, every key written (docs/size-caps.md).";
    /// A partial result's `limits` object as written: each cap optional. The
    /// wrappers' `PartialLimits`: a partial result's caps (docs/size-caps.md, "The
    /// partial result"); an absent key keeps the core's default.
    pub(crate) struct PartialLimitsInput, schema "PartialLimits": "A partial result's caps: each text, the whole envelope, the entries listed per list; an absent key keeps the core's default (docs/size-caps.md, \"The partial result\").";
    fields {
        /// The most characters of any single text, marker included.
        message_chars,
        /// The most characters of the whole envelope, where the kept parts allow.
        envelope_chars,
        /// The most entries each list shows; the rest are counted.
        items,
    }
}

impl PartialLimits {
    /// 500 characters a text, 2000 an envelope (as `Limits::DEFAULT`), 20
    /// entries a list (as the validation envelope's fields).
    pub const DEFAULT: PartialLimits = PartialLimits {
        message_chars: Limits::DEFAULT.message_chars,
        envelope_chars: Limits::DEFAULT.envelope_chars,
        items: 20,
    };
    /// The smallest `items` accepted: the failed list always shows a failure
    /// and its code, which an envelope cannot do with none.
    pub const MIN_ITEMS: usize = 1;

    /// `{"messageChars","envelopeChars","items"}`, each optional, refused
    /// in the words of the error spec's `limits`.
    ///
    /// ```
    /// use mcp_envelope::partial::PartialLimits;
    /// assert_eq!(PartialLimits::from_json(r#"{"items":5}"#).unwrap().items, 5);
    /// assert_eq!(PartialLimits::from_json(r#"{"items":0}"#).unwrap_err().to_string(), "limits.items must be at least 1");
    /// ```
    pub fn from_json(raw: &str) -> Result<PartialLimits, SpecError> {
        read_member::<Object<PartialLimitsInput>>(raw, "limits")?.0.in_force()
    }

    /// The same object, every key written.
    pub fn to_json(&self) -> String {
        crate::json::to_json(self)
    }
}

impl Default for PartialLimits {
    fn default() -> Self {
        PartialLimits::DEFAULT
    }
}

/// The JSON entry point behind `mcp_envelope::raw::partial_limits`.
#[inline]
pub fn partial_limits_json(input: &str) -> Result<String, SpecError> {
    Ok(limits_in_force(input, PartialLimits::DEFAULT, PartialLimits::from_json)?.to_json())
}

impl PartialLimitsInput {
    /// The caps in force, each below its least value refused, naming the key.
    pub(crate) fn in_force(&self) -> Result<PartialLimits, SpecError> {
        let (message_chars, envelope_chars) = text_caps(self.message_chars, self.envelope_chars)?;
        Ok(PartialLimits {
            message_chars,
            envelope_chars,
            items: at_least(
                "items",
                self.items,
                PartialLimits::DEFAULT.items,
                PartialLimits::MIN_ITEMS,
            )?,
        })
    }
}
