//! A read-only walk over a JSON Schema: following local `$ref`s, looking
//! through the wrappers that change nothing a value must be, and stepping to
//! the schema of a property or an array item. The contract diff, the
//! validation wording and the command's audit all walk schemas through it,
//! so they agree on what a schema says.
//!
//! Written by hand: the walkers need a few lookups over a borrowed value, and
//! the crates that resolve references are whole validators (with a regex
//! engine) that the WebAssembly component has no room for, to answer
//! questions they do not ask.
//!
//! ```
//! use mcp_envelope::json_schema::{item, property, resolve_non_null};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}},
//!     "$defs": {"Line": {"anyOf": [{"type": "object", "properties": {"sku": {"type": "string"}}}, {"type": "null"}]}}
//! });
//! let lines = property(&schema, "lines").unwrap();
//! let line = resolve_non_null(&schema, item(lines, 0).unwrap());
//! assert_eq!(line.via, Some("#/$defs/Line"));
//! assert_eq!(property(line.schema, "sku"), Some(&json!({"type": "string"})));
//! ```

/// Hops (references followed, wrappers looked through) from one node before
/// giving up: references that go round in a circle never reach a schema.
const MAX_HOPS: usize = 32;

/// The keywords that say what kind of value a node holds. Beside one of
/// them, an `allOf`/`anyOf`/`oneOf` is one of the node's own rules, not a
/// wrapper; annotations (`description`, `title`, `default`) and bounds
/// beside one do not stop the walk.
const OWN_SHAPE: [&str; 11] = [
    "type",
    "enum",
    "const",
    "properties",
    "items",
    "prefixItems",
    "format",
    "pattern",
    "allOf",
    "anyOf",
    "oneOf",
];

mod sealed {
    pub trait Sealed {}
    impl Sealed for serde_json::Value {}
    impl Sealed for crate::json::Value {}
}

/// A JSON value the walk reads: serde_json's [`serde_json::Value`] (and,
/// inside the crate, the core's own value, which keeps numbers as written).
pub trait JsonValue: sealed::Sealed + Sized {
    /// An object's member.
    fn member(&self, key: &str) -> Option<&Self>;
    /// An array's elements.
    fn elements(&self) -> Option<&[Self]>;
    /// A string's text.
    fn text(&self) -> Option<&str>;
    /// Whether it is an object.
    fn is_object(&self) -> bool;
}

impl JsonValue for serde_json::Value {
    fn member(&self, key: &str) -> Option<&Self> {
        self.as_object()?.get(key)
    }
    fn elements(&self) -> Option<&[Self]> {
        self.as_array().map(Vec::as_slice)
    }
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
    fn is_object(&self) -> bool {
        serde_json::Value::is_object(self)
    }
}

impl JsonValue for crate::json::Value {
    fn member(&self, key: &str) -> Option<&Self> {
        self.get(key)
    }
    fn elements(&self) -> Option<&[Self]> {
        self.as_array().map(Vec::as_slice)
    }
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
    fn is_object(&self) -> bool {
        crate::json::Value::is_object(self)
    }
}

/// Why a `$ref` was not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfollowed {
    /// Not `#` and a JSON Pointer: another document, or an `$anchor`.
    NotLocal,
    /// Its pointer names nothing in the root schema.
    Missing,
    /// References that go round in a circle (or more than 32 hops).
    Circular,
}

/// A schema node with its wrappers taken off.
#[derive(Debug, PartialEq)]
pub struct Resolved<'v, J> {
    /// The schema reached; when [`broken`](Self::broken) is set, the node
    /// holding the `$ref` that was not followed.
    pub schema: &'v J,
    /// The last `$ref` followed on the way, as written.
    pub via: Option<&'v str>,
    /// Why the walk stopped at a `$ref`; `None` when it reached a schema.
    pub broken: Option<Unfollowed>,
}

impl<J> Clone for Resolved<'_, J> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<J> Copy for Resolved<'_, J> {}

/// The node a local reference names in `root`: `#` alone is the root,
/// `#/$defs/Line` a JSON Pointer (RFC 6901: `~1` is `/`, `~0` is `~`;
/// arrays by index).
pub fn pointer<'v, J: JsonValue>(root: &'v J, reference: &str) -> Result<&'v J, Unfollowed> {
    let path = reference.strip_prefix('#').ok_or(Unfollowed::NotLocal)?;
    if path.is_empty() {
        return Ok(root);
    }
    let path = path.strip_prefix('/').ok_or(Unfollowed::NotLocal)?;
    let mut here = root;
    for token in path.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        let next = match here.elements() {
            Some(list) => array_index(&token).and_then(|i| list.get(i)),
            None => here.member(&token),
        };
        here = next.ok_or(Unfollowed::Missing)?;
    }
    Ok(here)
}

/// An array index as JSON Pointer writes one: digits, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    match token.as_bytes() {
        [b'0', _, ..] => None,
        bytes if bytes.iter().all(u8::is_ascii_digit) => token.parse().ok(),
        _ => None,
    }
}

/// `node` with the wrappers that change nothing taken off: a local `$ref`
/// (what stands beside it is for the caller to read: pydantic writes a
/// field's `description` there), and an `allOf`, `anyOf` or `oneOf` of
/// exactly one schema with no keyword of its own beside it (`type`, `enum`,
/// `const`, `properties`, `items`, `prefixItems`, `format`, `pattern`,
/// another combinator; annotations and bounds may stand beside it). An
/// optional's `anyOf` of a schema and `null` is not one of them: it accepts
/// `null` too ([`resolve_non_null`] looks through it).
pub fn resolve<'v, J: JsonValue>(root: &'v J, node: &'v J) -> Resolved<'v, J> {
    let mut here = Resolved {
        schema: node,
        via: None,
        broken: None,
    };
    let mut holder = node;
    for _ in 0..MAX_HOPS {
        if let Some(reference) = here.schema.member("$ref").and_then(J::text) {
            match pointer(root, reference) {
                Ok(next) => {
                    holder = here.schema;
                    here.schema = next;
                    here.via = Some(reference);
                    continue;
                }
                Err(why) => {
                    here.broken = Some(why);
                    return here;
                }
            }
        }
        match combinator(here.schema) {
            Some(("allOf" | "anyOf" | "oneOf", [only])) => here.schema = only,
            _ => return here,
        }
    }
    here.schema = holder;
    here.broken = Some(Unfollowed::Circular);
    here
}

/// The one schema other than `null` of an optional: an `anyOf`/`oneOf` of
/// that schema and `{"type": "null"}`, as pydantic and Zod write one, with no
/// keyword of its own beside it. `None` for any other node. Reads `node`
/// as it is: give it [`resolve`]'s schema.
pub fn optional_of<J: JsonValue>(node: &J) -> Option<&J> {
    let Some(("anyOf" | "oneOf", branches)) = combinator(node) else {
        return None;
    };
    let mut others = branches.iter().filter(|b| !is_null_schema(*b));
    match (others.next(), others.next()) {
        (Some(only), None) if branches.len() > 1 => Some(only),
        _ => None,
    }
}

/// The schema a value other than `null` is held to: [`resolve`], then
/// through an optional ([`optional_of`]) and what wraps its schema.
pub fn resolve_non_null<'v, J: JsonValue>(root: &'v J, node: &'v J) -> Resolved<'v, J> {
    let mut here = resolve(root, node);
    for _ in 0..MAX_HOPS {
        let Some(inner) = optional_of(here.schema).filter(|_| here.broken.is_none()) else {
            return here;
        };
        let next = resolve(root, inner);
        here = Resolved {
            via: next.via.or(here.via),
            ..next
        };
    }
    here.broken = Some(Unfollowed::Circular);
    here
}

/// The schema of the member `name` of the objects `node` describes:
/// `properties[name]`, else `additionalProperties` when it is a schema
/// object (`true` and `false` say only whether other members may come).
/// Reads `node` as it is: give it [`resolve`]'s schema.
pub fn property<'v, J: JsonValue>(node: &'v J, name: &str) -> Option<&'v J> {
    node.member("properties")
        .and_then(|p| p.member(name))
        .or_else(|| node.member("additionalProperties").filter(|a| a.is_object()))
}

/// The schema every item of the arrays `node` describes is held to, past
/// [`positions`]: `items` when it is one schema (not draft 4's list).
pub fn items<J: JsonValue>(node: &J) -> Option<&J> {
    node.member("items").filter(|i| i.elements().is_none())
}

/// The schemas of the first items, one per position: `prefixItems`, or
/// draft 4's `items` list; empty when there is neither.
pub fn positions<J: JsonValue>(node: &J) -> &[J] {
    node.member("prefixItems")
        .or_else(|| node.member("items"))
        .and_then(J::elements)
        .unwrap_or(&[])
}

/// The schema of item `index` of the arrays `node` describes: its position's
/// ([`positions`]), else [`items`]. Reads `node` as it is: give it
/// [`resolve`]'s schema.
pub fn item<J: JsonValue>(node: &J, index: usize) -> Option<&J> {
    positions(node).get(index).or_else(|| items(node))
}

/// The one keyword of `OWN_SHAPE` `node` has, when it is a combinator: its
/// name and schemas. `None` when it has none, or more than one.
fn combinator<J: JsonValue>(node: &J) -> Option<(&'static str, &[J])> {
    let mut found = OWN_SHAPE.iter().filter_map(|key| node.member(key).map(|v| (*key, v)));
    let (key, value) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    Some((key, value.elements()?))
}

/// `{"type": "null"}`, with or without annotations beside it.
fn is_null_schema<J: JsonValue>(node: &J) -> bool {
    node.member("type").and_then(J::text) == Some("null")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn schema_of(resolved: Resolved<'_, Value>) -> (&Value, Option<&str>, Option<Unfollowed>) {
        (resolved.schema, resolved.via, resolved.broken)
    }

    #[test]
    fn a_pointer_names_defs_definitions_array_items_and_the_root() {
        let root = json!({
            "$defs": {"Line": {"type": "object"}},
            "definitions": {"Old": {"type": "string"}},
            "prefixItems": [{"type": "integer"}, {"type": "boolean"}]
        });
        assert_eq!(pointer(&root, "#/$defs/Line"), Ok(&json!({"type": "object"})));
        assert_eq!(pointer(&root, "#/definitions/Old"), Ok(&json!({"type": "string"})));
        assert_eq!(pointer(&root, "#/prefixItems/1"), Ok(&json!({"type": "boolean"})));
        assert_eq!(pointer(&root, "#"), Ok(&root));
    }

    #[test]
    fn a_pointer_unescapes_tilde_one_then_tilde_zero() {
        let root = json!({"$defs": {"a/b": {"const": 1}, "c~d": {"const": 2}, "~1": {"const": 3}}});
        assert_eq!(pointer(&root, "#/$defs/a~1b"), Ok(&json!({"const": 1})));
        assert_eq!(pointer(&root, "#/$defs/c~0d"), Ok(&json!({"const": 2})));
        // `~01` is `~1`, not `/`.
        assert_eq!(pointer(&root, "#/$defs/~01"), Ok(&json!({"const": 3})));
    }

    #[test]
    fn a_pointer_to_nothing_is_missing_and_a_remote_one_not_local() {
        let root = json!({"$defs": {"Line": {}}, "list": [1]});
        assert_eq!(pointer(&root, "#/$defs/Gone"), Err(Unfollowed::Missing));
        assert_eq!(pointer(&root, "#/list/01"), Err(Unfollowed::Missing));
        assert_eq!(pointer(&root, "#/list/1"), Err(Unfollowed::Missing));
        assert_eq!(
            pointer(&root, "https://example.com/line.json"),
            Err(Unfollowed::NotLocal)
        );
        assert_eq!(pointer(&root, "#Line"), Err(Unfollowed::NotLocal));
    }

    #[test]
    fn resolve_follows_references_and_one_schema_wrappers() {
        let root = json!({
            "properties": {
                "line": {"allOf": [{"$ref": "#/$defs/Line"}], "description": "The line"},
                "code": {"anyOf": [{"type": "string"}]}
            },
            "$defs": {"Line": {"$ref": "#/$defs/Item"}, "Item": {"type": "object"}}
        });
        let line = &root["properties"]["line"];
        assert_eq!(
            schema_of(resolve(&root, line)),
            (&json!({"type": "object"}), Some("#/$defs/Item"), None)
        );
        let code = &root["properties"]["code"];
        assert_eq!(
            schema_of(resolve(&root, code)),
            (&json!({"type": "string"}), None, None)
        );
    }

    #[test]
    fn a_wrapper_beside_a_keyword_of_its_own_is_one_of_the_nodes_rules() {
        let root = json!({});
        let typed = json!({"type": "string", "allOf": [{"minLength": 1}]});
        assert_eq!(resolve(&root, &typed).schema, &typed);
        let two = json!({"allOf": [{"type": "string"}], "anyOf": [{"minLength": 1}]});
        assert_eq!(resolve(&root, &two).schema, &two);
        let many = json!({"allOf": [{"type": "string"}, {"minLength": 1}]});
        assert_eq!(resolve(&root, &many).schema, &many);
    }

    #[test]
    fn an_optional_is_no_wrapper_but_resolve_non_null_looks_through_it() {
        let root = json!({"$defs": {"Id": {"type": "string", "minLength": 3}}});
        let optional = json!({"anyOf": [{"$ref": "#/$defs/Id"}, {"type": "null", "title": "None"}]});
        assert_eq!(resolve(&root, &optional).schema, &optional);
        assert_eq!(optional_of(&optional), Some(&json!({"$ref": "#/$defs/Id"})));
        assert_eq!(
            schema_of(resolve_non_null(&root, &optional)),
            (&json!({"type": "string", "minLength": 3}), Some("#/$defs/Id"), None)
        );
        let union = json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]});
        assert_eq!(optional_of(&union), None);
        assert_eq!(optional_of(&json!({"anyOf": [{"type": "null"}]})), None);
    }

    #[test]
    fn references_in_a_circle_end_as_circular_at_a_node_holding_a_ref() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}});
        let start = json!({"$ref": "#/$defs/A"});
        let end = resolve(&root, &start);
        assert_eq!(end.broken, Some(Unfollowed::Circular));
        assert!(end.schema.get("$ref").is_some());
        let looped = json!({"anyOf": [{"$ref": "#"}, {"type": "null"}]});
        assert_eq!(resolve_non_null(&looped, &looped).broken, Some(Unfollowed::Circular));
    }

    #[test]
    fn a_reference_to_nothing_stops_at_the_node_holding_it() {
        let root = json!({"$defs": {"Line": {"$ref": "#/$defs/Gone"}}});
        let node = json!({"$ref": "#/$defs/Line"});
        assert_eq!(
            schema_of(resolve(&root, &node)),
            (
                &json!({"$ref": "#/$defs/Gone"}),
                Some("#/$defs/Line"),
                Some(Unfollowed::Missing)
            )
        );
        let remote = json!({"$ref": "other.json#/Line"});
        assert_eq!(resolve(&root, &remote).broken, Some(Unfollowed::NotLocal));
        // A `$ref` that is not a string refers to nothing: the node is the schema.
        let odd = json!({"$ref": 7, "type": "string"});
        assert_eq!(schema_of(resolve(&root, &odd)), (&odd, None, None));
    }

    #[test]
    fn property_reads_properties_then_an_additional_properties_schema() {
        let node = json!({"properties": {"sku": {"type": "string"}}, "additionalProperties": {"type": "integer"}});
        assert_eq!(property(&node, "sku"), Some(&json!({"type": "string"})));
        assert_eq!(property(&node, "other"), Some(&json!({"type": "integer"})));
        let closed = json!({"properties": {}, "additionalProperties": false});
        assert_eq!(property(&closed, "other"), None);
        assert_eq!(property(&json!("not a schema"), "sku"), None);
    }

    #[test]
    fn item_reads_its_position_then_items() {
        let tuple = json!({"prefixItems": [{"type": "number"}], "items": {"type": "string"}});
        assert_eq!(item(&tuple, 0), Some(&json!({"type": "number"})));
        assert_eq!(item(&tuple, 5), Some(&json!({"type": "string"})));
        let draft4 = json!({"items": [{"type": "number"}, {"type": "number"}]});
        assert_eq!(positions(&draft4).len(), 2);
        assert_eq!(items(&draft4), None);
        assert_eq!(item(&draft4, 2), None);
        assert_eq!(positions(&json!({"items": {}})), &[] as &[Value]);
    }

    #[test]
    fn the_cores_own_value_walks_the_same() {
        let root =
            crate::json::parse_value(r##"{"properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"minimum":1.50}}}"##)
                .unwrap();
        let n = property(&root, "n").unwrap();
        let resolved = resolve(&root, n);
        assert_eq!(resolved.schema.to_string(), r#"{"minimum":1.50}"#);
        assert_eq!(resolved.via, Some("#/$defs/N"));
    }
}
