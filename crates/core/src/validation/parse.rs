//! Reads a `<validation_error>` back: the action, each field's name and
//! text, and the contract changes.

use crate::delta::{read_contract_awareness, ContractDelta};
use crate::error::ParseError;
use crate::xml::{Event, XmlReader};

/// A `<validation_error>` as read back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValidationEnvelope {
    /// The action whose arguments failed (the root's `action` attribute).
    pub action: String,
    /// `(name, text)` of each listed field, in order.
    pub fields: Vec<(String, String)>,
    /// How many more invalid fields the envelope said it left out.
    pub omitted_fields: usize,
    /// The contract changes listed in its `<contract_awareness>`.
    pub deltas: Vec<ContractDelta>,
    /// How many more contract changes the envelope said it left out.
    pub omitted_deltas: usize,
    /// The recovery line as written: English, or the locale's when the
    /// server asked for steering lines in its locale.
    pub recovery: String,
}

impl ValidationEnvelope {
    /// The recovery a client acts on: the line the envelope states, in
    /// whichever language it was rendered; the wire format's English line
    /// when the envelope's is empty.
    pub fn recovery_or_default(&self) -> &str {
        if self.recovery.is_empty() {
            super::VALIDATION_RECOVERY
        } else {
            &self.recovery
        }
    }
}

/// Reads the first `<validation_error>` in `text` (also inside a `CallToolResult`).
///
/// ```
/// use mcp_envelope::validation::parse_validation;
/// let text = "<validation_error action=\"a\"><field name=\"id\">Bad.</field><recovery>Fix it.</recovery></validation_error>";
/// let e = parse_validation(text).unwrap();
/// assert_eq!((e.action.as_str(), e.fields[0].0.as_str()), ("a", "id"));
/// ```
pub fn parse_validation(text: &str) -> Result<ValidationEnvelope, ParseError> {
    let inner = crate::tool_error::parse::tool_result_text(text);
    let text = inner.as_deref().unwrap_or(text);
    parse_envelope(text, crate::tool_error::parse::markup_from(text))
}

/// Where the first `<validation_error>` envelope starts, from byte `from`
/// (`crate::tool_error::parse::markup_from`) on: a mention of the tag is text
/// (`crate::xml::envelope_start` has the rule).
pub(crate) fn markup_start(text: &str, from: usize) -> Option<usize> {
    crate::tool_error::parse::find_from(text, from, |t| crate::xml::envelope_start(t, "validation_error"))
}

/// `parse_validation` without unwrapping a `CallToolResult` (the caller
/// did), from byte `from` on.
pub(crate) fn parse_envelope(text: &str, from: usize) -> Result<ValidationEnvelope, ParseError> {
    let Some(at) = markup_start(text, from) else {
        return Err(ParseError::NoEnvelope);
    };
    let mut xml = XmlReader::new(&text[at..], "<validation_error> envelope");
    let root = match xml.next()? {
        Event::Start(start) => start,
        Event::Empty(start) if start.name() == "validation_error" => {
            return xml.malformed("<validation_error> has no <recovery>")
        }
        _ => return Err(ParseError::NoEnvelope),
    };
    if root.name() != "validation_error" {
        return Err(ParseError::NoEnvelope);
    }
    let mut envelope = ValidationEnvelope {
        // An empty action names nothing: the renderer refuses one.
        action: match xml.attribute(&root, "action")? {
            Some(action) if action.is_empty() => {
                return xml.malformed("<validation_error> has an empty action attribute")
            }
            Some(action) => action,
            None => return xml.malformed("<validation_error> has no action attribute"),
        },
        ..Default::default()
    };
    let mut has_recovery = false;
    while let Some((section, empty)) = xml.next_child()? {
        match section.name() {
            "field" => {
                let name = xml.required_attribute(&section, "field", "name")?;
                envelope.fields.push((name, xml.text(&section, empty)?));
            }
            "more_fields" => {
                envelope.omitted_fields = xml.count_attribute(&section)?;
                xml.skip(&section, empty)?;
            }
            "recovery" => {
                envelope.recovery = xml.text(&section, empty)?;
                has_recovery = true;
            }
            "contract_awareness" if !empty => {
                let (deltas, omitted) = read_contract_awareness(&mut xml)?;
                envelope.deltas = deltas;
                envelope.omitted_deltas = omitted;
            }
            _ => xml.skip(&section, empty)?, // a newer version's section
        }
    }
    if !has_recovery {
        return xml.malformed("<validation_error> has no <recovery>");
    }
    Ok(envelope)
}
