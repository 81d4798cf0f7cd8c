//! The MCP server's side of mcp-envelope: recovery helpers that turn what a
//! handler threw into an envelope, the handler's outcome, answers per
//! protocol revision, the repeat ledger, idempotency keys and their stores.
//! `mcp-envelope` is the front users depend on, and re-exports it.

#![warn(missing_docs)]

#[allow(unused_imports)]
#[macro_use]
extern crate mcp_envelope_core;
// The envelope's modules under their own names (`crate::json`, `crate::read`),
// as the server, agent and contract code was written against one crate.
#[allow(unused_imports)]
use mcp_envelope_core::*;

pub mod backoff;
pub mod handler;
pub mod idempotency;
pub mod ledger;
pub mod recovery;
pub mod revision;
#[doc(hidden)]
pub mod scrub;
pub mod stores;

pub use idempotency::{Idempotency, ToolArguments};
pub use ledger::{ledger_key, Ledger, Replacement, StreakChange};
pub use scrub::{scrub, REDACTED};
