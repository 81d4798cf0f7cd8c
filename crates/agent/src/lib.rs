//! The agent host's side of mcp-envelope: what to do with a tool's answer
//! (`decide`), one step of the host loop, and a call's span attributes.
//! `mcp-envelope` is the front users depend on, and re-exports it.

#![warn(missing_docs)]

#[allow(unused_imports)]
#[macro_use]
extern crate mcp_envelope_core;
// The envelope's modules under their own names (`crate::json`, `crate::read`),
// as the server, agent and contract code was written against one crate.
#[allow(unused_imports)]
use mcp_envelope_core::*;

pub mod decide;
pub mod host_loop;
pub mod telemetry;
