//! Size caps: how much of an error may reach the model.
//!
//! Every envelope is capped, by default or as a spec's `limits` says: no
//! text longer than `message_chars`, at most `actions` actions and `details`
//! details, and the whole envelope within `envelope_chars` where the kept
//! parts allow. Characters are Unicode scalar values. Cutting is marked.

use crate::error::SpecError;
use crate::json::{count, fail, object, Member, Quoted};

/// The caps one envelope is rendered under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most characters of the message, or of any other single text.
    pub message_chars: usize,
    /// The most characters of the whole envelope, where the kept parts allow.
    pub envelope_chars: usize,
    /// The most available actions listed; the rest are counted.
    pub actions: usize,
    /// The most details listed; the rest are counted.
    pub details: usize,
}

impl Limits {
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
        let mut limits = Limits::DEFAULT;
        for (key, raw) in object(raw, &Quoted("limits"))? {
            let what = Member(&"limits", &key);
            match key.as_ref() {
                "messageChars" => limits.message_chars = count(&raw, &what)?,
                "envelopeChars" => limits.envelope_chars = count(&raw, &what)?,
                "actions" => limits.actions = count(&raw, &what)?,
                "details" => limits.details = count(&raw, &what)?,
                _ => {
                    return fail(format!(
                        "unknown key {key:?} in \"limits\" (expected one of: messageChars, envelopeChars, actions, details)"
                    ))
                }
            }
        }
        if limits.message_chars < Limits::MIN_MESSAGE_CHARS {
            return fail(format!(
                "limits.messageChars must be at least {}",
                Limits::MIN_MESSAGE_CHARS
            ));
        }
        if limits.envelope_chars < Limits::MIN_ENVELOPE_CHARS {
            return fail(format!(
                "limits.envelopeChars must be at least {}",
                Limits::MIN_ENVELOPE_CHARS
            ));
        }
        Ok(limits)
    }

    /// The same object, every key written.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"messageChars\":{},\"envelopeChars\":{},\"actions\":{},\"details\":{}}}",
            self.message_chars, self.envelope_chars, self.actions, self.details
        )
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
