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
//! renderer applies the error's size caps (`Limits`; docs/size-caps.md). `raw` holds
//! the JSON-in, JSON-out twin of every WIT export, which the components
//! (`component/`) call.
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

#[allow(unused_imports)]
#[macro_use]
extern crate mcp_envelope_core;
// The crates' modules under the names the facade's own modules use
// (`crate::json`, `crate::read`, `crate::ledger`).
#[allow(unused_imports)]
use mcp_envelope_agent::*;
#[allow(unused_imports)]
use mcp_envelope_core::*;
#[allow(unused_imports)]
use mcp_envelope_server::*;

pub mod raw;
pub use mcp_envelope_agent::{decide, host_loop, telemetry};
pub use mcp_envelope_contract as contract;
pub use mcp_envelope_core::{code, delta, json_schema, locale, partial, validation};
pub use mcp_envelope_server::{backoff, handler, idempotency, ledger, recovery, revision, stores};
// rmcp is never built for wasm32 (Cargo.toml), so neither is its glue.
#[cfg(all(feature = "rmcp", not(target_arch = "wasm32")))]
pub mod rmcp;
#[cfg(feature = "schema")]
mod wire_schema;

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

pub use mcp_envelope_core::{
    call_tool_result, error_of_result, limits, parse, protocol_error, read_envelope, render, render_json, render_text,
    render_xml, repair_lone_surrogates, spec, Category, ClientOutcome, CodeDefaults, Format, Limits, Locale,
    ParseError, ProtocolErrorKind, Reading, ResultText, Severity, SpecError, SpecErrorKind, ToolError, ToolFailureMeta,
    CANONICAL_CODES, REPLACEMENT, TOOL_FAILURE_KEY,
};
pub use mcp_envelope_server::{
    ledger_key, scrub, Idempotency, Ledger, Replacement, StreakChange, ToolArguments, REDACTED,
};
#[cfg(feature = "schema")]
pub use wire_schema::wire_schema;
