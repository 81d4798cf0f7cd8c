//! The two ways the core refuses input: a spec it will not render, and a
//! text holding a broken envelope. Every host shows these messages unchanged.

use std::fmt;

/// Why a spec was refused: one line saying what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
