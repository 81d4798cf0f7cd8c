//! The `<validation_error>` envelope and the `<contract_awareness>` section
//! it shares with `<tool_error>`.

use super::field_text::field_text;
use super::model::{ContractDelta, DeltaSeverity, ValidationIssue, ValidationOptions};
use crate::render::{element, escape_attribute, escape_content, push_json_string};

/// The last line of every validation envelope, part of the wire format.
pub const VALIDATION_RECOVERY: &str = "Fix the fields above and call the tool again. Do not explain the error.";

/// Renders the envelope: one `<field>` per issue (up to `max_fields`, then a
/// `<more_fields>` count), the contract changes that apply to `action`, and
/// the recovery line. Two spaces per level, no trailing newline.
///
/// ```
/// use mcp_envelope::validation::{render_validation, IssueCode, PathSegment, ValidationIssue, ValidationOptions};
/// let issue = ValidationIssue::new(IssueCode::InvalidFormat)
///     .at([PathSegment::Key("id".into())])
///     .format("email")
///     .input_json(r#""not-an-email""#);
/// assert_eq!(
///     render_validation("billing.get_invoice", &[issue], &[], ValidationOptions::default()),
///     "<validation_error action=\"billing.get_invoice\">\n  \
///      <field name=\"id\">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>\n  \
///      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n\
///      </validation_error>"
/// );
/// ```
pub fn render_validation(
    action: &str,
    issues: &[ValidationIssue],
    deltas: &[ContractDelta],
    options: ValidationOptions,
) -> String {
    let mut out = String::with_capacity(200 + 120 * issues.len().min(options.max_fields));
    out.push_str("<validation_error action=\"");
    escape_attribute(&mut out, action);
    out.push_str("\">");
    for issue in issues.iter().take(options.max_fields) {
        out.push_str("\n  <field name=\"");
        escape_attribute(&mut out, &issue.field_name());
        out.push_str("\">");
        escape_content(&mut out, &field_text(issue));
        out.push_str("</field>");
    }
    if issues.len() > options.max_fields {
        let more = issues.len() - options.max_fields;
        let noun = if more == 1 { "field is" } else { "fields are" };
        out.push_str(&format!(
            "\n  <more_fields count=\"{more}\">{more} more invalid {noun} not listed.</more_fields>"
        ));
    }
    let applicable: Vec<&ContractDelta> = deltas_for_action(deltas, action);
    contract_awareness(&mut out, &applicable, options.max_deltas);
    element(&mut out, "  ", "recovery", VALIDATION_RECOVERY);
    out.push_str("\n</validation_error>");
    out
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
    let mut picked: Vec<&ContractDelta> = deltas
        .iter()
        .filter(|d| matches!(d.severity, DeltaSeverity::Breaking | DeltaSeverity::Risky))
        .collect();
    picked.sort_by_key(|d| d.severity);
    picked
}

/// Appends the `<contract_awareness>` section (nothing when there are no deltas).
pub(crate) fn contract_awareness(out: &mut String, deltas: &[&ContractDelta], max: usize) {
    if deltas.is_empty() {
        return;
    }
    out.push_str("\n  <contract_awareness>");
    for delta in deltas.iter().take(max) {
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
    if deltas.len() > max {
        let more = deltas.len() - max;
        let noun = if more == 1 { "change is" } else { "changes are" };
        out.push_str(&format!(
            "\n    <more_deltas count=\"{more}\">{more} more contract {noun} not listed.</more_deltas>"
        ));
    }
    out.push_str("\n  </contract_awareness>");
}

/// The deltas as a JSON array (JSON and text forms of `<tool_error>`).
pub(crate) fn push_deltas_json(out: &mut String, deltas: &[&ContractDelta]) {
    out.push('[');
    for (i, delta) in deltas.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"severity\":\"");
        out.push_str(delta.severity.as_str());
        out.push('"');
        for (name, value) in [
            ("action", delta.action.as_deref()),
            ("field", Some(delta.field.as_str())),
            ("description", Some(delta.description.as_str())),
            ("before", delta.before.as_deref()),
            ("after", delta.after.as_deref()),
        ] {
            if let Some(value) = value {
                out.push_str(",\"");
                out.push_str(name);
                out.push_str("\":");
                push_json_string(out, value);
            }
        }
        out.push('}');
    }
    out.push(']');
}
