//! Contract changes read from tool lists: what changed between the tools a
//! model learned (a lockfile: a `tools/list` result, canonical and hashed)
//! and the tools a server lists today, each change classified BREAKING,
//! RISKY, SAFE or COSMETIC (docs/contract-diff.md). The deltas have the shape
//! a spec's `deltas` take, so an envelope's `<contract_awareness>` shows the
//! BREAKING and RISKY ones of the failing tool as they are.
//!
//! Every MCP server publishes its contract in one shape, its `tools/list`,
//! so the diff reads that and nothing framework-specific. The schema walk
//! is ours: JSON Schema crates validate instances; none compares two
//! schemas for what a caller of the old one now meets.

#![warn(missing_docs)]

#[allow(unused_imports)]
#[macro_use]
extern crate mcp_envelope_core;
// The envelope's modules under their own names (`crate::json`, `crate::read`),
// as the server, agent and contract code was written against one crate.
#[allow(unused_imports)]
use mcp_envelope_core::*;

mod keywords;
mod lockfile;
mod schema;
mod tool;

use serde::Deserialize;

use crate::delta::ContractDelta;
use crate::error::SpecError;
use crate::json::{fail, parse_value, read_input, sorted_by_text, Map, Value};

pub use lockfile::{lockfile_text, tools_sha256, LOCKFILE_VERSION};

/// One tool as `tools/list` lists it, its members canonical.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The tool's `name`.
    pub name: String,
    /// Every member, `name` included: canonical (keys sorted, numbers in one spelling).
    pub(crate) members: Map,
}

/// The tools of a `tools/list` result (`{"tools": [..]}`, a JSON-RPC response
/// carrying one, a bare `tools` array, or a lockfile, whose hash must match),
/// canonical and sorted by name. `what` names the input in refusals.
pub fn read_tools(text: &str, what: &str) -> Result<Vec<Tool>, SpecError> {
    let text = crate::json::repair_lone_surrogates(text);
    let value = parse_value(&text).map_err(|e| SpecError::not_json(format!("invalid JSON in {what}: {e}")))?;
    tools_of_value(value, what)
}

/// [`read_tools`] for a value already read (numbers as that value holds them).
pub fn tools_of(value: serde_json::Value, what: &str) -> Result<Vec<Tool>, SpecError> {
    read_tools(&value.to_string(), what)
}

fn tools_of_value(value: Value, what: &str) -> Result<Vec<Tool>, SpecError> {
    let (list, lock_hash) = match value {
        Value::Array(list) => (list, None),
        Value::Object(mut object) => {
            let lock_hash = lockfile::check_header(&mut object, what)?;
            let tools = match object.remove("result") {
                Some(Value::Object(mut result)) if !object.contains_key("tools") => result.remove("tools"),
                _ => object.remove("tools"),
            };
            match tools {
                Some(Value::Array(list)) => (list, lock_hash),
                _ => {
                    return fail(format!(
                        "{what} has no \"tools\" array: give a tools/list result, its tools array or a lockfile"
                    ))
                }
            }
        }
        _ => {
            return fail(format!(
                "{what} must be a tools/list result, its tools array or a lockfile"
            ))
        }
    };
    let mut tools = Vec::with_capacity(list.len());
    for (i, item) in list.into_iter().enumerate() {
        let Value::Object(members) = item else {
            return fail(format!("{what}: tools[{i}] is not an object"));
        };
        let Some(Value::String(name)) = members.get("name") else {
            return fail(format!("{what}: tools[{i}] has no \"name\" string"));
        };
        let name = name.clone();
        let Value::Object(members) = Value::Object(members).into_canonical() else {
            unreachable!("an object stays an object")
        };
        tools.push(Tool { name, members });
    }
    let tools = sorted_by_text(tools, |tool| &tool.name);
    if let Some(twice) = tools.windows(2).find(|w| w[0].name == w[1].name) {
        return fail(format!("{what} lists the tool {:?} twice", twice[0].name));
    }
    if let Some(stated) = lock_hash {
        if stated != tools_sha256(&tools) {
            return fail(format!(
                "{what}: its sha256 does not match its tools (edited by hand?): write it again with `contract lock`"
            ));
        }
    }
    Ok(tools)
}

/// The deltas from the tools a model learned (`before`) to today's
/// (`after`), tool by tool in name order, each tool's own changes first,
/// then its arguments', its output's and its annotations'.
pub fn diff(before: &[Tool], after: &[Tool]) -> Vec<ContractDelta> {
    let mut deltas = Vec::new();
    let (mut b, mut a) = (before.iter().peekable(), after.iter().peekable());
    loop {
        match (b.peek(), a.peek()) {
            (Some(old), Some(new)) if old.name == new.name => {
                tool::changes(old, new, &mut deltas);
                b.next();
                a.next();
            }
            (Some(old), Some(new)) if old.name < new.name => {
                tool::removed(old, &mut deltas);
                b.next();
            }
            (Some(old), None) => {
                tool::removed(old, &mut deltas);
                b.next();
            }
            (_, Some(new)) => {
                tool::added(new, &mut deltas);
                a.next();
            }
            (None, None) => return deltas,
        }
    }
}

/// The `contract-diff` input as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a contract-diff input object")]
struct DiffInput {
    lock: Value,
    tools: Value,
}

/// The JSON entry point behind `mcp_envelope::raw::contract_diff`.
#[inline]
pub fn diff_json(text: &str) -> Result<String, SpecError> {
    let input: DiffInput = read_input(text, "the contract-diff input")?;
    let before = tools_of_value(input.lock, "the lock")?;
    let after = tools_of_value(input.tools, "the tool list")?;
    Ok(serde_json::to_string(&diff(&before, &after)).unwrap_or_default())
}

/// The JSON entry point behind `mcp_envelope::raw::contract_lock`.
#[inline]
pub fn lock_json(text: &str) -> Result<String, SpecError> {
    Ok(lockfile_text(&read_tools(text, "the tool list")?))
}
