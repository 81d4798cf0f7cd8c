//! Two JSON Schemas compared for what a caller of the old one meets in the
//! new one: the arguments' schema (`inputSchema`: the model sends values,
//! so a narrower schema breaks its calls) and the output's (`outputSchema`:
//! the model reads values, so a wider or emptier one is the risk, never a
//! failed call). Each change is one [`Kind`]; its severity is the kind's on
//! that side (docs/contract-diff.md has each rule with an example).
//!
//! The walk follows `properties`, `required`, `additionalProperties`,
//! `items` and `prefixItems`, local `$ref`s (a pair of references already
//! being compared is not entered again, so recursive schemas end) and the
//! other wrappers `crate::json_schema` looks through, and `anyOf`/`oneOf`
//! branches, matched equal first, then by type. Both schemas are canonical (keys sorted, numbers in one
//! spelling), so equal parts are equal values.

use crate::json::{Map, Value};

use super::keywords::{
    branch_words, branches, has_reference, required_of, resolve, type_list, types_of, value_list, values_of,
    with_article, Types, ANY, RULES,
};
use crate::delta::{ContractDelta, DeltaSeverity};
use crate::json_schema::{items, positions};
use crate::validation::push_key;

/// Nesting followed before the walk stops (a schema this deep has no
/// caller worth telling about its 65th level).
const MAX_DEPTH: usize = 64;

/// Which way values flow through the schema.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// The model sends them: `inputSchema`, root `(arguments)`.
    Input,
    /// The model reads them: `outputSchema`, root `(output)`.
    Output,
}

/// What changed at one field.
#[derive(Clone, Copy)]
enum Kind {
    Removed,
    AddedRequired,
    AddedOptional,
    NowRequired,
    NowOptional,
    TypeChanged,
    TypeNarrowed,
    TypeWidened,
    ValuesRemoved,
    ValuesAdded,
    BranchRemoved,
    BranchAdded,
    Tightened,
    Loosened,
    DefaultChanged,
    Closed,
    Opened,
    Wording,
    /// A `$ref` the walk cannot follow (remote, or to nothing) changed: what it means is unknown.
    Unreadable,
}

impl Kind {
    /// What a change means to the caller: one that can make a call written
    /// for the old arguments fail is BREAKING; on the output, where no call
    /// fails, what the model may now read unprepared for is RISKY.
    fn severity(self, side: Side) -> DeltaSeverity {
        use Kind::*;
        match (self, side) {
            (Wording, _) => DeltaSeverity::Cosmetic,
            (Unreadable, _) => DeltaSeverity::Risky,
            (
                Removed | AddedRequired | NowRequired | TypeChanged | TypeNarrowed | ValuesRemoved | BranchRemoved,
                Side::Input,
            ) => DeltaSeverity::Breaking,
            (Tightened | DefaultChanged | Closed, Side::Input) => DeltaSeverity::Risky,
            (Removed | NowOptional | TypeChanged | TypeWidened | ValuesAdded | BranchAdded, Side::Output) => {
                DeltaSeverity::Risky
            }
            _ => DeltaSeverity::Safe,
        }
    }
}

/// A field's name as the envelope writes it: `lines[].sku`, `meta[*]`, the
/// root `(arguments)` or `(output)`.
#[derive(Clone)]
struct Path {
    side: Side,
    text: String,
}

impl Path {
    fn key(&self, key: &str) -> Path {
        let mut text = match (self.side, self.text.is_empty()) {
            (Side::Output, true) => "(output)".to_owned(),
            _ => self.text.clone(),
        };
        push_key(&mut text, key);
        Path { side: self.side, text }
    }

    fn suffix(&self, suffix: &str) -> Path {
        Path {
            side: self.side,
            text: format!("{self}{suffix}"),
        }
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.text.is_empty(), self.side) {
            (true, Side::Input) => f.write_str(crate::validation::ROOT_NAME),
            (true, Side::Output) => f.write_str("(output)"),
            (false, _) => f.write_str(&self.text),
        }
    }
}

/// One comparison of two schemas of one tool.
pub(super) struct SchemaDiff<'a> {
    tool: &'a str,
    side: Side,
    before_root: &'a Value,
    after_root: &'a Value,
    /// Whether the two schemas' definitions are equal: then equal nodes
    /// are equal all the way down, references included.
    same_definitions: bool,
    /// Reference pairs being compared, outermost first.
    entered: Vec<(Option<&'a str>, Option<&'a str>)>,
    out: &'a mut Vec<ContractDelta>,
}

impl<'a> SchemaDiff<'a> {
    /// Compares `before` with `after` (each the root of its schema) and adds the deltas to `out`.
    pub(super) fn run(tool: &'a str, side: Side, before: &'a Value, after: &'a Value, out: &'a mut Vec<ContractDelta>) {
        let definitions = |root: &Value| ["$defs", "definitions"].map(|k| root.get(k).cloned());
        let mut diff = SchemaDiff {
            tool,
            side,
            before_root: before,
            after_root: after,
            same_definitions: definitions(before) == definitions(after),
            entered: Vec::new(),
            out,
        };
        let root = Path {
            side,
            text: String::new(),
        };
        diff.node(before, after, &root, 0);
    }

    fn push(&mut self, kind: Kind, path: &Path, description: String, before: Option<String>, after: Option<String>) {
        self.out.push(ContractDelta {
            severity: kind.severity(self.side),
            action: Some(self.tool.to_owned()),
            field: path.to_string(),
            description,
            before,
            after,
        });
    }

    /// Compares two nodes, wrappers and all.
    fn node(&mut self, before: &'a Value, after: &'a Value, path: &Path, depth: usize) {
        if depth > MAX_DEPTH || (before == after && (self.same_definitions || !has_reference(before))) {
            return;
        }
        let (b, b_via) = resolve(self.before_root, before);
        let (a, a_via) = resolve(self.after_root, after);
        let pair = (b_via, a_via);
        if pair != (None, None) && self.entered.contains(&pair) {
            return; // a recursive schema, already being compared further out
        }
        self.entered.push(pair);
        self.wording(before, b, after, a, path);
        let (b_branches, a_branches) = (branches(self.before_root, b), branches(self.after_root, a));
        if b_branches.len() > 1 || a_branches.len() > 1 {
            self.branches(b_branches, a_branches, path, depth);
        } else {
            self.single(b, a, path, depth);
        }
        self.entered.pop();
    }

    /// Descriptions, titles (COSMETIC) and defaults, read on the wrapper
    /// first: pydantic writes them beside an optional's `anyOf` or a `$ref`.
    fn wording(&mut self, before: &Value, b: &Value, after: &Value, a: &Value, path: &Path) {
        fn word<'v>(wrapper: &'v Value, node: &'v Value, key: &str) -> Option<&'v Value> {
            wrapper.get(key).or_else(|| node.get(key))
        }
        for (key, noun) in [("title", "title"), ("description", "description")] {
            let (old, new) = (word(before, b, key), word(after, a, key));
            if old != new {
                let text = |v: Option<&Value>| v.map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned));
                self.push(
                    Kind::Wording,
                    path,
                    format!("{path}'s {noun} changed"),
                    text(old),
                    text(new),
                );
            }
        }
        let (old, new) = (word(before, b, "default"), word(after, a, "default"));
        if old != new {
            let description = match new {
                Some(value) => format!("{path} now defaults to {value}"),
                None => format!("{path} no longer has a default"),
            };
            self.push(
                Kind::DefaultChanged,
                path,
                description,
                old.map(Value::to_string),
                new.map(Value::to_string),
            );
        }
    }

    /// `anyOf`/`oneOf` on either side: branches equal on both sides are
    /// kept, a branch of the same type compared as a changed branch, the
    /// others removed (no longer accepted) or added.
    fn branches(&mut self, before: Vec<&'a Value>, after: Vec<&'a Value>, path: &Path, depth: usize) {
        let all = |list: &[&Value]| list.iter().map(|b| branch_words(b)).collect::<Vec<_>>().join(" or ");
        let (was, now) = (Some(all(&before)), Some(all(&after)));
        let mut left = after;
        let mut unmatched = Vec::new();
        for b in before {
            match left.iter().position(|a| *a == b) {
                Some(i) => {
                    left.remove(i);
                }
                None => unmatched.push(b),
            }
        }
        for b in unmatched {
            match left.iter().position(|a| types_of(a) == types_of(b)) {
                Some(i) => {
                    let a = left.remove(i);
                    self.single(b, a, path, depth);
                }
                None => {
                    let text = format!("{path} no longer accepts {}", branch_words(b));
                    self.push(Kind::BranchRemoved, path, text, was.clone(), now.clone());
                }
            }
        }
        for a in left {
            let text = format!("{path} now also accepts {}", branch_words(a));
            self.push(Kind::BranchAdded, path, text, was.clone(), now.clone());
        }
    }

    /// One schema on each side: its type, allowed values, bounds, then
    /// what it holds.
    fn single(&mut self, b: &'a Value, a: &'a Value, path: &Path, depth: usize) {
        // `{}`, `true` and a missing schema (`null` here) accept any value; `false` none.
        let any_or_object = |v: &Value| v.is_object() || v.is_null() || *v == Value::Bool(true);
        if !(any_or_object(b) && any_or_object(a)) {
            // `true`, `false`: any value or none.
            if b != a {
                let (old, new) = (Some(b.to_string()), Some(a.to_string()));
                let kind = if a == &Value::Bool(false) {
                    Kind::TypeChanged
                } else {
                    Kind::TypeWidened
                };
                self.push(kind, path, format!("{path}'s schema is now {a}"), old, new);
            }
            return;
        }
        // `resolve` leaves a `$ref` only where it cannot be followed.
        let reference = |v: &Value| {
            v.get("$ref")
                .map(|r| r.as_str().map_or_else(|| r.to_string(), str::to_owned))
        };
        if reference(b).is_some() || reference(a).is_some() {
            if b == a {
                return;
            }
            let text = format!("{path} changed, and its $ref cannot be followed to tell how");
            self.push(Kind::Unreadable, path, text, reference(b), reference(a));
            return;
        }
        if self.types(b, a, path) {
            return; // a new type: what held for the old one says nothing now
        }
        self.values(b, a, path);
        self.bounds(b, a, path);
        self.properties(b, a, path, depth);
        self.items(b, a, path, depth);
    }

    /// The type; `true` when it changed so much that nothing below compares.
    fn types(&mut self, b: &Value, a: &Value, path: &Path) -> bool {
        let (old, new) = (types_of(b), types_of(a));
        if old == new {
            return false;
        }
        let names = |set: &Option<Types>| set.as_ref().map(|s| type_list(s, " or ", |t| t));
        let (before, after) = (names(&old), names(&new));
        let (Some(old_set), Some(new_set)) = (&old, &new) else {
            return match new {
                // A type where there was none: other values are refused now.
                Some(set) => {
                    let words = type_list(&set, " or ", with_article);
                    self.push(
                        Kind::TypeNarrowed,
                        path,
                        format!("{path} must now be {words}"),
                        before,
                        after,
                    );
                    false
                }
                None => {
                    self.push(
                        Kind::TypeWidened,
                        path,
                        format!("{path} now accepts any type"),
                        before,
                        after,
                    );
                    false
                }
            };
        };
        let accepts = |set: &Types, t: &str| set.contains(&t) || (t == "integer" && set.contains(&"number"));
        let removed: Types = old_set.iter().copied().filter(|t| !accepts(new_set, t)).collect();
        let added: Types = new_set.iter().copied().filter(|t| !accepts(old_set, t)).collect();
        let to_integer = removed.contains(&"number") && new_set.contains(&"integer");
        if removed.is_empty() {
            let words = type_list(&added, " or ", with_article);
            self.push(
                Kind::TypeWidened,
                path,
                format!("{path} now also accepts {words}"),
                before,
                after,
            );
            false
        } else if added.is_empty() && !to_integer {
            let words = type_list(&removed, " or ", with_article);
            self.push(
                Kind::TypeNarrowed,
                path,
                format!("{path} no longer accepts {words}"),
                before,
                after,
            );
            false
        } else {
            let words = type_list(new_set, " or ", with_article);
            self.push(Kind::TypeChanged, path, format!("{path} is now {words}"), before, after);
            true
        }
    }

    /// `enum` and `const`: values no longer accepted, newly accepted, or a
    /// list where any value of the type went.
    fn values(&mut self, b: &Value, a: &Value, path: &Path) {
        let (old, new) = (values_of(b), values_of(a));
        if old == new {
            return;
        }
        let (before, after) = (old.as_deref().map(value_list), new.as_deref().map(value_list));
        match (old, new) {
            (Some(old), Some(new)) => {
                let gone: Vec<&Value> = old.iter().copied().filter(|v| !new.contains(v)).collect();
                let came: Vec<&Value> = new.iter().copied().filter(|v| !old.contains(v)).collect();
                if !gone.is_empty() {
                    let text = format!("{path} no longer accepts {}", value_list(&gone));
                    self.push(Kind::ValuesRemoved, path, text, before.clone(), after.clone());
                }
                if !came.is_empty() {
                    let text = format!("{path} now also accepts {}", value_list(&came));
                    self.push(Kind::ValuesAdded, path, text, before, after);
                }
            }
            (None, Some(new)) => {
                let text = format!("{path} now accepts only {}", value_list(&new));
                self.push(Kind::ValuesRemoved, path, text, before, after);
            }
            (Some(_), None) => {
                let text = format!("{path} is no longer limited to listed values");
                self.push(Kind::ValuesAdded, path, text, before, after);
            }
            (None, None) => {}
        }
    }

    /// Bounds, lengths, counts, `multipleOf`, `pattern` and `format`: a new
    /// or changed one is stated as the new rule (tighter: RISKY on the
    /// arguments), a dropped one as gone.
    fn bounds(&mut self, b: &Value, a: &Value, path: &Path) {
        for rule in RULES {
            let (old, new) = (rule.read(b), rule.read(a));
            if old == new {
                continue;
            }
            let (before, after) = (old.as_ref().map(|v| rule.words(v)), new.as_ref().map(|v| rule.words(v)));
            let tighter = match (&old, &new) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(old), Some(new)) => rule.tighter(old, new),
            };
            let kind = if tighter { Kind::Tightened } else { Kind::Loosened };
            let description = match &after {
                Some(words) => format!("{path} must now {} {words}", rule.verb),
                None => format!("{path} no longer has {}", rule.noun),
            };
            self.push(kind, path, description, before, after);
        }
    }

    /// An object's fields: removed, added (required or not), required or
    /// optional now, compared one by one; and whether it takes fields it does not list.
    fn properties(&mut self, b: &'a Value, a: &'a Value, path: &Path, depth: usize) {
        let props = |node: &'a Value| node.get("properties").and_then(Value::as_object);
        let (old, new) = (props(b), props(a));
        let (old_required, new_required) = (required_of(b), required_of(a));
        let (old_required, new_required) = (old_required.as_slice(), new_required.as_slice());
        let output = self.side == Side::Output;
        for (key, old_schema) in old.into_iter().flatten() {
            let field = path.key(key);
            let Some(new_schema) = new.and_then(|n| n.get(key)) else {
                self.push(Kind::Removed, &field, format!("{field} was removed"), None, None);
                continue;
            };
            match (
                old_required.contains(&key.as_str()),
                new_required.contains(&key.as_str()),
            ) {
                (false, true) => {
                    let text = if output {
                        format!("{field} is now always present")
                    } else {
                        format!("{field} is now required")
                    };
                    self.push(Kind::NowRequired, &field, text, None, None);
                }
                (true, false) => {
                    let text = if output {
                        format!("{field} may now be absent")
                    } else {
                        format!("{field} is now optional")
                    };
                    self.push(Kind::NowOptional, &field, text, None, None);
                }
                _ => {}
            }
            self.node(old_schema, new_schema, &field, depth + 1);
        }
        let is_new = |k: &&String| !old.is_some_and(|o| o.contains_key(k));
        for key in new.into_iter().flat_map(Map::keys).filter(is_new) {
            let field = path.key(key);
            let (kind, text) = match (output, new_required.contains(&key.as_str())) {
                (true, _) => (Kind::AddedOptional, format!("{field} is a new field")),
                (false, true) => (Kind::AddedRequired, format!("{field} is a new required field")),
                (false, false) => (Kind::AddedOptional, format!("{field} is a new optional field")),
            };
            self.push(kind, &field, text, None, None);
        }
        let closed = |node: &Value| node.get("additionalProperties") == Some(&Value::Bool(false));
        match (closed(b), closed(a)) {
            (false, true) => self.push(
                Kind::Closed,
                path,
                format!("{path} now refuses fields it does not list"),
                None,
                None,
            ),
            (true, false) => self.push(
                Kind::Opened,
                path,
                format!("{path} now accepts fields it does not list"),
                None,
                None,
            ),
            _ => {}
        }
        if let (Some(old), Some(new)) = (b.get("additionalProperties"), a.get("additionalProperties")) {
            if old.is_object() && new.is_object() {
                self.node(old, new, &path.suffix("[*]"), depth + 1);
            }
        }
    }

    /// An array's items (`items` as one schema: `lines[]`) and positions
    /// (`prefixItems`, or draft 4's `items` list: `point[0]`).
    fn items(&mut self, b: &'a Value, a: &'a Value, path: &Path, depth: usize) {
        let any = &ANY;
        match (items(b), items(a)) {
            (None, None) => {}
            (old, new) => self.node(old.unwrap_or(any), new.unwrap_or(any), &path.suffix("[]"), depth + 1),
        }
        let (old, new) = (positions(b), positions(a));
        for i in 0..old.len().max(new.len()) {
            let field = path.suffix(&format!("[{i}]"));
            match (old.get(i), new.get(i)) {
                (Some(o), Some(n)) => self.node(o, n, &field, depth + 1),
                (Some(_), None) => self.push(Kind::Removed, &field, format!("{field} was removed"), None, None),
                (None, Some(_)) => self.push(Kind::AddedOptional, &field, format!("{field} is new"), None, None),
                (None, None) => {}
            }
        }
    }
}
