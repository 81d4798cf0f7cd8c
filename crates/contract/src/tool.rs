//! One tool's changes: the tool itself (gone, new, reworded), its
//! arguments' and output's schemas (`schema`), and its annotations, read
//! with the defaults the MCP specification gives them (a tool that says
//! nothing may be destructive, and is neither read-only nor idempotent).

use crate::json::{Map, Value};

use super::schema::{SchemaDiff, Side};
use super::Tool;
use crate::delta::{ContractDelta, DeltaSeverity};

/// The field of a change to the tool itself: `(tool)`, `(tool).description`.
const TOOL: &str = "(tool)";

fn delta(tool: &Tool, severity: DeltaSeverity, field: String, description: String) -> ContractDelta {
    ContractDelta {
        severity,
        action: Some(tool.name.clone()),
        field,
        description,
        before: None,
        after: None,
    }
}

/// A tool the lock has and today's list does not: every call of it fails.
pub(super) fn removed(tool: &Tool, out: &mut Vec<ContractDelta>) {
    let text = format!("the tool {} was removed", tool.name);
    out.push(delta(tool, DeltaSeverity::Breaking, TOOL.into(), text));
}

pub(super) fn added(tool: &Tool, out: &mut Vec<ContractDelta>) {
    let text = format!("{} is a new tool", tool.name);
    out.push(delta(tool, DeltaSeverity::Safe, TOOL.into(), text));
}

/// Everything that changed in a tool both lists have.
pub(super) fn changes(old: &Tool, new: &Tool, out: &mut Vec<ContractDelta>) {
    let (name, member) = (&new.name, |t: &'_ Tool, key: &str| t.members.get(key).cloned());
    for key in ["title", "description"] {
        let (before, after) = (member(old, key), member(new, key));
        if before != after {
            let mut d = delta(
                new,
                DeltaSeverity::Cosmetic,
                format!("{TOOL}.{key}"),
                format!("{name}'s {key} changed"),
            );
            (d.before, d.after) = (before.map(text), after.map(text));
            out.push(d);
        }
    }
    let empty = Value::Object(Map::new());
    let schema = |t: &'_ Tool, key: &str| t.members.get(key).cloned();
    let (before, after) = (schema(old, "inputSchema"), schema(new, "inputSchema"));
    SchemaDiff::run(
        name,
        Side::Input,
        before.as_ref().unwrap_or(&empty),
        after.as_ref().unwrap_or(&empty),
        out,
    );
    match (schema(old, "outputSchema"), schema(new, "outputSchema")) {
        (Some(before), Some(after)) => SchemaDiff::run(name, Side::Output, &before, &after, out),
        (Some(_), None) => {
            let text = format!("{name} no longer declares its output");
            out.push(delta(new, DeltaSeverity::Risky, "(output)".into(), text));
        }
        (None, Some(_)) => {
            let text = format!("{name} now declares its output");
            out.push(delta(new, DeltaSeverity::Safe, "(output)".into(), text));
        }
        (None, None) => {}
    }
    annotations(old, new, out);
    let known = [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ];
    let keys = old
        .members
        .keys()
        .chain(new.members.keys().filter(|k| !old.members.contains_key(k)));
    for key in keys.filter(|k| !known.contains(&k.as_str())) {
        if old.members.get(key) != new.members.get(key) {
            let text = format!("{name}'s {key} changed");
            out.push(delta(new, DeltaSeverity::Cosmetic, format!("{TOOL}.{key}"), text));
        }
    }
}

fn text(value: Value) -> String {
    match value {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

/// What a tool's annotations promise, their defaults filled in.
#[derive(PartialEq)]
struct Hints {
    read_only: bool,
    destructive: bool,
    idempotent: bool,
    open_world: bool,
}

impl Hints {
    fn of(tool: &Tool) -> Hints {
        let hint = |key: &str| {
            tool.members
                .get("annotations")
                .and_then(|a| a.get(key))
                .and_then(Value::as_bool)
        };
        let read_only = hint("readOnlyHint").unwrap_or(false);
        Hints {
            read_only,
            // Meaningful only for a tool that writes; a read-only one neither
            // destroys nor acts twice.
            destructive: !read_only && hint("destructiveHint").unwrap_or(true),
            idempotent: read_only || hint("idempotentHint").unwrap_or(false),
            open_world: hint("openWorldHint").unwrap_or(true),
        }
    }
}

/// A tool that may now destroy, or act twice on a repeated call, is RISKY:
/// a call written for the old promise may do more than its caller meant.
fn annotations(old: &Tool, new: &Tool, out: &mut Vec<ContractDelta>) {
    let (was, is, name) = (Hints::of(old), Hints::of(new), &new.name);
    let field = |hint: &str| format!("{TOOL}.annotations.{hint}");
    let mut push = |severity, hint: &str, text: String, before: bool, after: bool| {
        let mut d = delta(new, severity, field(hint), text);
        (d.before, d.after) = (Some(before.to_string()), Some(after.to_string()));
        out.push(d);
    };
    if was.read_only && !is.read_only {
        let mut text = format!("{name} is no longer read-only");
        match (is.destructive, is.idempotent) {
            (true, false) => text.push_str(": it may be destructive and is not idempotent"),
            (true, true) => text.push_str(": it may be destructive"),
            (false, false) => text.push_str(": it is not idempotent"),
            (false, true) => {}
        }
        push(DeltaSeverity::Risky, "readOnlyHint", text, true, false);
    } else if !was.read_only && is.read_only {
        push(
            DeltaSeverity::Safe,
            "readOnlyHint",
            format!("{name} is now read-only"),
            false,
            true,
        );
    } else if !is.read_only {
        match (was.destructive, is.destructive) {
            (false, true) => push(
                DeltaSeverity::Risky,
                "destructiveHint",
                format!("{name} may now be destructive"),
                false,
                true,
            ),
            (true, false) => push(
                DeltaSeverity::Safe,
                "destructiveHint",
                format!("{name} is no longer destructive"),
                true,
                false,
            ),
            _ => {}
        }
        match (was.idempotent, is.idempotent) {
            (true, false) => {
                let text = format!("{name} is no longer idempotent: a repeated call may act twice");
                push(DeltaSeverity::Risky, "idempotentHint", text, true, false);
            }
            (false, true) => push(
                DeltaSeverity::Safe,
                "idempotentHint",
                format!("{name} is now idempotent"),
                false,
                true,
            ),
            _ => {}
        }
    }
    match (was.open_world, is.open_world) {
        (false, true) => push(
            DeltaSeverity::Safe,
            "openWorldHint",
            format!("{name} now reaches outside systems"),
            false,
            true,
        ),
        (true, false) => push(
            DeltaSeverity::Safe,
            "openWorldHint",
            format!("{name} no longer reaches outside systems"),
            true,
            false,
        ),
        _ => {}
    }
    let title = |t: &Tool| t.members.get("annotations").and_then(|a| a.get("title")).cloned();
    if title(old) != title(new) {
        let mut d = delta(
            new,
            DeltaSeverity::Cosmetic,
            field("title"),
            format!("{name}'s annotated title changed"),
        );
        (d.before, d.after) = (title(old).map(text), title(new).map(text));
        out.push(d);
    }
}
