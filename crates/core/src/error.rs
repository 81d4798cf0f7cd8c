//! The two ways the core refuses input: a spec it will not render, and a
//! text holding a broken envelope. Every host shows these messages unchanged.

use std::fmt;

/// Why a spec was refused: one line every host shows unchanged (its
/// `Display`), saying what is wrong and where, and its [`SpecErrorKind`]
/// for a caller that handles one sort of refusal differently. Shaped as
/// `std::io::Error` is: a kind to match on beside the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(Box<Refusal>);

// Boxed, so that `Result<_, SpecError>` is one pointer wide: every fallible
// call in the component returns one, and a kind and a message side by side
// cost its code 8 KB more than the box (measured with check-sizes).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Refusal {
    kind: SpecErrorKind,
    message: String,
}

/// Which sort of refusal a [`SpecError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// The text is not JSON at all: `invalid JSON in the spec: ...`.
    NotJson,
    /// JSON, but not the kind of value asked for: `the spec must be a JSON
    /// object, not an array`.
    WrongKind,
    /// A member that is required is absent: `missing "message": say what failed`.
    Missing,
    /// A member or the whole is refused for what it holds: an unknown key, a
    /// value out of range, members that contradict each other.
    Invalid,
}

impl SpecError {
    /// A refusal of this kind, saying `message`.
    pub fn new(kind: SpecErrorKind, message: impl Into<String>) -> SpecError {
        SpecError(Box::new(Refusal {
            kind,
            message: message.into(),
        }))
    }

    /// Which sort of refusal this is.
    pub fn kind(&self) -> SpecErrorKind {
        self.0.kind
    }

    /// The line every host shows, the same as `Display` writes.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    pub fn not_json(message: String) -> SpecError {
        SpecError::new(SpecErrorKind::NotJson, message)
    }

    pub(crate) fn wrong_kind(message: String) -> SpecError {
        SpecError::new(SpecErrorKind::WrongKind, message)
    }

    pub fn missing(message: String) -> SpecError {
        SpecError::new(SpecErrorKind::Missing, message)
    }

    pub fn invalid(message: String) -> SpecError {
        SpecError::new(SpecErrorKind::Invalid, message)
    }
}

impl From<SpecError> for String {
    fn from(refused: SpecError) -> String {
        refused.0.message
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for SpecError {}

/// Why no error could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The text holds no envelope at all.
    NoEnvelope,
    /// It holds one, but it is broken: what is wrong and where.
    Malformed(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NoEnvelope => {
                f.write_str("no envelope: the text holds no <tool_error>, JSON error or error_code: lines")
            }
            ParseError::Malformed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::{SpecError, SpecErrorKind};

    #[test]
    fn each_refusal_says_its_kind_and_keeps_its_message() {
        let refused = |spec: &str| crate::tool_error::spec::from_json(spec).unwrap_err();
        assert_eq!(
            refused("{\"code\":"),
            SpecError::not_json("invalid JSON in the spec: EOF while parsing a value at line 1 column 8".into())
        );
        assert_eq!(
            refused("[1]"),
            SpecError::wrong_kind("the spec must be a JSON object, not an array".into())
        );
        assert_eq!(
            refused("{\"code\":\"X\"}"),
            SpecError::missing("missing \"message\": say what failed".into())
        );
        let unknown = refused("{\"code\":\"X\",\"message\":\"m\",\"colour\":1}");
        assert_eq!(unknown.kind(), SpecErrorKind::Invalid);
        assert!(
            unknown
                .to_string()
                .starts_with("the spec: unknown field `colour`, expected one of"),
            "{unknown}"
        );
        assert_eq!(String::from(unknown.clone()), unknown.message());
    }
}
