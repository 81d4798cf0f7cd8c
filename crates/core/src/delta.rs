//! Contract changes: what changed since the contract a model learned, which
//! of them an envelope tells the model about (BREAKING and RISKY, most severe
//! first, at most five by default), and their XML and JSON forms.

use std::borrow::Cow;

use crate::cut::{capped, Marker};
use crate::error::{ParseError, SpecError};
use serde::{Deserialize, Serialize};

use crate::json::{read_list, read_member, Object};
use crate::xml::{escape_attribute, escape_content, more_line, XmlReader};

/// Deltas an envelope lists in `<contract_awareness>` before a `<more_deltas>` count.
pub const DEFAULT_MAX_DELTAS: usize = 5;

/// How much a contract change can break a caller that learned the old contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeltaSeverity {
    // Declared from most to least severe, so sorting puts BREAKING first.
    /// A call written for the old contract now fails (a field became required, a type
    /// changed): always told to the model, first.
    Breaking,
    /// A call written for the old contract still runs but may do something else (a new
    /// default): told to the model after the BREAKING ones.
    Risky,
    /// A compatible change, such as a new optional field: never shown to the model.
    Safe,
    /// A change of wording only, such as a description: never shown to the model.
    Cosmetic,
}

string_enum!(DeltaSeverity { Breaking = "BREAKING", Risky = "RISKY", Safe = "SAFE", Cosmetic = "COSMETIC" });

/// One change between the contract a model learned and the current one.
/// Its JSON is the spec's `deltas` item, written in this order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a contract delta object")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ContractDelta {
    /// How much the change can break a caller; envelopes show only BREAKING and RISKY ones.
    pub severity: DeltaSeverity,
    /// The action it concerns; absent (`None`) for a change that is tool-wide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The argument or field that changed (`amount`).
    pub field: String,
    /// What changed, in words the model reads (`amount is now integer cents`).
    pub description: String,
    /// The old form (`number (dollars)`), if stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// The new form (`integer (cents)`), if stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// The deltas worth telling a model about a failing action: BREAKING and
/// RISKY ones, tool-wide or of exactly this action (not of an action whose
/// name merely contains it), most severe first, otherwise in given order.
pub fn deltas_for_action<'a>(deltas: &'a [ContractDelta], action: &str) -> Vec<&'a ContractDelta> {
    shown_deltas(deltas)
        .into_iter()
        .filter(|d| d.action.as_deref().is_none_or(|a| a == action))
        .collect()
}

/// BREAKING and RISKY deltas, most severe first (the rule for any envelope).
pub fn shown_deltas(deltas: &[ContractDelta]) -> Vec<&ContractDelta> {
    // Two passes rather than a sort: the same stable order, without pulling
    // a sort routine into the component.
    let of = |severity: DeltaSeverity| deltas.iter().filter(move |d| d.severity == severity);
    of(DeltaSeverity::Breaking).chain(of(DeltaSeverity::Risky)).collect()
}

/// Appends the `<contract_awareness>` section: the listed deltas, then a
/// `<more_deltas>` count of the rest (nothing when there is neither).
pub(crate) fn contract_awareness(out: &mut String, listed: &[&ContractDelta], omitted: usize) {
    if listed.is_empty() && omitted == 0 {
        return;
    }
    out.push_str("\n  <contract_awareness>");
    for delta in listed {
        out.push_str("\n    <delta severity=\"");
        out.push_str(delta.severity.as_str());
        out.push('"');
        for (name, value) in [
            ("action", delta.action.as_deref()),
            ("field", Some(delta.field.as_str())),
            ("before", delta.before.as_deref()),
            ("after", delta.after.as_deref()),
        ] {
            if let Some(value) = value {
                out.push(' ');
                out.push_str(name);
                out.push_str("=\"");
                escape_attribute(out, value);
                out.push('"');
            }
        }
        out.push('>');
        escape_content(out, &delta.description);
        out.push_str("</delta>");
    }
    let nouns = ("contract change", "contract changes");
    more_line(out, "    ", "more_deltas", omitted, listed.is_empty(), nouns);
    out.push_str("\n  </contract_awareness>");
}

/// A contract change with each text cut; borrowed when none needs it.
pub(crate) fn capped_delta(delta: &ContractDelta, max: usize, marker: Marker) -> Cow<'_, ContractDelta> {
    let texts = [
        Some(&delta.field),
        Some(&delta.description),
        delta.action.as_ref(),
        delta.before.as_ref(),
        delta.after.as_ref(),
    ];
    if texts.iter().flatten().all(|t| t.len() <= max) {
        return Cow::Borrowed(delta);
    }
    let text = |t: &String| capped(t, max, marker).into_owned();
    Cow::Owned(ContractDelta {
        action: delta.action.as_ref().map(text),
        severity: delta.severity,
        field: text(&delta.field),
        description: text(&delta.description),
        before: delta.before.as_ref().map(text),
        after: delta.after.as_ref().map(text),
    })
}

/// The deltas as a JSON array (JSON and text forms of `<tool_error>`).
pub(crate) fn push_deltas_json(out: &mut String, deltas: &[&ContractDelta]) {
    // Strings and enums only: writing them cannot fail.
    out.push_str(&serde_json::to_string(deltas).unwrap_or_default());
}

/// Reads one contract delta; `at` names it in errors.
pub fn delta(text: &str, at: &str) -> Result<ContractDelta, SpecError> {
    read_member::<Object<ContractDelta>>(text, at).map(|d| d.0)
}

/// Reads a list of deltas given as a JSON array (`null`: none), as an
/// envelope read back states it.
pub(crate) fn deltas_from_json(text: &str) -> Result<Vec<ContractDelta>, SpecError> {
    let deltas: Option<Vec<Object<ContractDelta>>> = read_list(text, "deltas")?;
    Ok(deltas.unwrap_or_default().into_iter().map(|d| d.0).collect())
}

/// Reads the deltas of a `<contract_awareness>` whose start tag was just read.
pub(crate) fn read_contract_awareness(xml: &mut XmlReader<'_>) -> Result<(Vec<ContractDelta>, usize), ParseError> {
    let (mut deltas, mut omitted) = (Vec::new(), 0);
    while let Some((item, empty)) = xml.next_child()? {
        match item.name() {
            "delta" => {
                let severity = xml.required_attribute(&item, "delta", "severity")?;
                let Some(severity) = DeltaSeverity::from_wire(&severity) else {
                    return xml.malformed(format_args!("unknown delta severity {severity:?}"));
                };
                deltas.push(ContractDelta {
                    severity,
                    action: xml.attribute(&item, "action")?,
                    field: xml.required_attribute(&item, "delta", "field")?,
                    before: xml.attribute(&item, "before")?,
                    after: xml.attribute(&item, "after")?,
                    description: xml.text(&item, empty)?,
                });
            }
            "more_deltas" => {
                omitted = xml.count_attribute(&item)?;
                xml.skip(&item, empty)?;
            }
            _ => xml.skip(&item, empty)?,
        }
    }
    Ok((deltas, omitted))
}
