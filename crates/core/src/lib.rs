//! The MCP error envelopes themselves: `<tool_error>`, `<validation_error>`
//! and `<partial_result>`, rendered in XML, JSON and text under their size
//! caps, and read back. This crate knows nothing of servers, agent hosts or
//! WIT; `mcp-envelope` is the front users depend on, and re-exports it.
//!
//! The modules marked hidden are the other mcp-envelope crates' raw layer,
//! not an API: they change with them.

#![warn(missing_docs)]

/// Gives a fieldless enum its wire spelling: `ALL`, `as_str`, `from_wire`, `Display`.
/// Its schema is named after the type, or `as "Name"` where the wrappers
/// give it another name.
#[macro_export]
#[doc(hidden)]
macro_rules! string_enum {
    ($ty:ident { $($variant:ident = $text:literal),* }) => {
        $crate::string_enum!($ty [stringify!($ty)] { $($variant = $text),* });
    };
    ($ty:ident as $name:literal { $($variant:ident = $text:literal),* }) => {
        $crate::string_enum!($ty [$name] { $($variant = $text),* });
    };
    ($ty:ident [$name:expr] { $($variant:ident = $text:literal),* }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The wire spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),* }
            }

            /// Reads the wire spelling back.
            pub fn from_wire(text: &str) -> Option<Self> {
                match text { $($text => Some($ty::$variant),)* _ => None }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Written as its wire spelling.
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        /// Its wire spellings, the only strings serde reads (the `schema` feature).
        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }
            fn schema_id() -> std::borrow::Cow<'static, str> {
                concat!(module_path!(), "::", stringify!($ty)).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "enum": [$($text),*] })
            }
        }

        /// Read from its wire spelling, exactly; serde names the others.
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                const WIRE: &[&str] = &[$($text),*];
                $crate::json::wire_variant(deserializer, WIRE).map(|at| $ty::ALL[at])
            }
        }
    };
}

/// Describes a reader's own type by a fixed schema, inlined wherever it is
/// used (the `schema` feature): `inline_schema!(Type, "Name", { ... })`.
#[cfg(feature = "schema")]
#[macro_export]
#[doc(hidden)]
macro_rules! inline_schema {
    ($ty:ty, $name:literal, $schema:tt) => {
        impl schemars::JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!($schema)
            }
        }
    };
}

pub mod code;
#[doc(hidden)]
pub mod count;
#[doc(hidden)]
pub mod cut;
pub mod delta;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod json;
pub mod json_schema;
pub mod locale;
pub mod partial;
#[doc(hidden)]
pub mod read;
#[doc(hidden)]
pub mod tool_error;
pub mod validation;
#[doc(hidden)]
pub mod xml;

pub use code::{Category, CodeDefaults, CANONICAL_CODES};
pub use error::{ParseError, SpecError, SpecErrorKind};
pub use json::repair_lone_surrogates;
pub use limits::Limits;
pub use locale::Locale;
pub use read::{error_of_result, read_envelope, ClientOutcome, Reading, ResultText};
pub use tool_error::model::{Severity, ToolError, ToolFailureMeta};
pub use tool_error::parse::parse;
pub use tool_error::render::{
    call_tool_result, protocol_error, render, render_json, render_text, render_xml, Format, ProtocolErrorKind,
    TOOL_FAILURE_KEY,
};
pub use tool_error::{limits, spec};
pub use xml::REPLACEMENT;
