//! Recoverable error envelopes for MCP tools: an error is a message to a
//! model, so it says in few tokens what failed, what to do next and whether a
//! retry can help.
//!
//! ```
//! use mcp_envelope::{call_tool_result, code, render_xml, Format, ToolError};
//!
//! let e = ToolError::new(code::NOT_FOUND, "No invoice with that ID")
//!     .suggest("List invoices first, then retry with a real ID")
//!     .actions(["billing.list_invoices"])
//!     .detail("requestedId", "inv_2026_9999")
//!     .retry_after(30);
//!
//! assert_eq!(render_xml(&e), "\
//! <tool_error code=\"NOT_FOUND\" severity=\"error\">
//!   <message>No invoice with that ID</message>
//!   <recovery>List invoices first, then retry with a real ID</recovery>
//!   <available_actions>
//!     <action>billing.list_invoices</action>
//!   </available_actions>
//!   <details>
//!     <detail key=\"requestedId\">inv_2026_9999</detail>
//!   </details>
//!   <retry_after>30 seconds</retry_after>
//! </tool_error>");
//! assert!(call_tool_result(&e, Format::Xml).ends_with(r#""isError":true}"#));
//! ```
//!
//! The model (`ToolError`) is kept apart from the pure render functions
//! (`render_xml`, `render_json`, `render_text`), the result builders
//! (`call_tool_result`, `protocol_error`) and the reader (`parse`). Every
//! renderer applies the error's size caps (`Limits`; docs/size-caps.md). The
//! WebAssembly component's glue lives in one module, `component`, compiled
//! only for `wasm32`.
//!
//! No feature is on by default, and none of serde_json's is turned on for
//! the rest of a build: numbers and key order are kept as written from raw
//! JSON text. The one feature, `rmcp`, is the module `rmcp` for Rust MCP
//! servers on the rmcp SDK (our results and protocol errors as its types, a
//! tool-error type for `#[tool]` handlers, and a `ServerHandler` wrapper
//! answering unknown tools, arguments failing the input schema and panics
//! with envelopes; docs/rmcp.md). `rmcp` needs Rust 1.88 and is never built
//! for `wasm32`. The `mcp-envelope` command is the `mcp-envelope-cli` crate.

#![warn(missing_docs)]

// The component never carries schemars: its bytes are the same with or without
// the generated types (Cargo.toml, `schema`).
#[cfg(all(feature = "schema", target_arch = "wasm32"))]
compile_error!("the `schema` feature is for native builds (the wrappers' generated types), never the component");

/// Gives a fieldless enum its wire spelling: `ALL`, `as_str`, `from_wire`, `Display`.
/// Its schema is named after the type, or `as "Name"` where the wrappers
/// give it another name.
macro_rules! string_enum {
    ($ty:ident { $($variant:ident = $text:literal),* }) => {
        string_enum!($ty [stringify!($ty)] { $($variant = $text),* });
    };
    ($ty:ident as $name:literal { $($variant:ident = $text:literal),* }) => {
        string_enum!($ty [$name] { $($variant = $text),* });
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
                let text = <crate::json::Text<'de>>::deserialize(deserializer)?.0;
                $ty::from_wire(&text).ok_or_else(|| serde::de::Error::unknown_variant(&text, WIRE))
            }
        }
    };
}

/// Describes a reader's own type by a fixed schema, inlined wherever it is
/// used (the `schema` feature): `inline_schema!(Type, "Name", { ... })`.
#[cfg(feature = "schema")]
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

pub mod api;
pub mod backoff;
pub mod code;
pub mod contract;
mod count;
mod cut;
pub mod decide;
pub mod delta;
mod error;
pub mod handler;
pub mod host_loop;
pub mod idempotency;
mod json;
pub mod json_schema;
pub mod ledger;
pub mod locale;
pub mod partial;
mod read;
pub mod recovery;
pub mod revision;
mod scrub;
// rmcp is never built for wasm32 (Cargo.toml), so neither is its glue.
#[cfg(all(feature = "rmcp", not(target_arch = "wasm32")))]
pub mod rmcp;
pub mod stores;
pub mod telemetry;
mod tool_error;
pub mod validation;
#[cfg(feature = "schema")]
mod wire_schema;
mod xml;

#[cfg(target_arch = "wasm32")]
mod component;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The recovery features' Rust examples (docs/recovery-features.md), compiled
/// and run as doctests. Only under `cfg(doctest)`: docs/ is not in the
/// published crate, and this item is never built outside rustdoc's tests.
#[cfg(doctest)]
#[doc = include_str!("../docs/recovery-features.md")]
pub struct RecoveryFeaturesDoctests;

/// The repeat ledger's and the idempotency store's Rust examples, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/repeat-ledger.md")]
pub struct RepeatLedgerDoctests;

/// See [`RepeatLedgerDoctests`].
#[cfg(doctest)]
#[doc = include_str!("../docs/idempotency-and-backoff.md")]
pub struct IdempotencyDoctests;

/// The contract diff's Rust example (docs/contract-diff.md), as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../docs/contract-diff.md")]
pub struct ContractDiffDoctests;

pub use code::{Category, CodeDefaults, CANONICAL_CODES};
pub use error::{ParseError, SpecError, SpecErrorKind};
pub use idempotency::{Idempotency, ToolArguments};
pub use json::repair_lone_surrogates;
pub use ledger::{ledger_key, Ledger, Replacement, StreakChange};
pub use limits::Limits;
pub use locale::Locale;
// The `<tool_error>` modules callers name by path: `mcp_envelope::spec::from_json`, `mcp_envelope::limits::Limits`.
pub use scrub::{scrub, REDACTED};
pub use read::{error_of_result, read_envelope, ClientOutcome, Reading, ResultText};
pub use tool_error::model::{Severity, ToolError, ToolFailureMeta};
pub use tool_error::parse::parse;
pub use tool_error::render::{
    call_tool_result, protocol_error, render, render_json, render_text, render_xml, Format, ProtocolErrorKind,
    TOOL_FAILURE_KEY,
};
pub use tool_error::{limits, spec};
#[cfg(feature = "schema")]
pub use wire_schema::wire_schema;
pub use xml::REPLACEMENT;
