//! The `<validation_error>` envelope and the `<contract_awareness>` section
//! it shares with `<tool_error>`.

use super::field_text::field_text;
use super::model::{ValidationIssue, ValidationOptions};
use std::borrow::Cow;

use super::FIELD_CHARS;
use crate::cut::{capped, Marker};
use crate::delta::{capped_delta, contract_awareness, deltas_for_action, ContractDelta};
use crate::xml::{element, escape_attribute, escape_content};

/// The last line of every validation envelope, part of the wire format.
pub const VALIDATION_RECOVERY: &str = "Fix the fields above and call the tool again. Do not explain the error.";

/// Renders the envelope: one `<field>` per issue (up to `max_fields`, then a
/// `<more_fields>` count), the contract changes that apply to `action`, and
/// the recovery line. Two spaces per level, no trailing newline. Every text
/// is at most `FIELD_CHARS` characters, cut marked as a tool error's are.
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
    escape_attribute(&mut out, &capped(action, FIELD_CHARS, Marker::English));
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
    let omitted = applicable.len().saturating_sub(options.max_deltas);
    let listed: Vec<Cow<'_, ContractDelta>> = applicable
        .into_iter()
        .take(options.max_deltas)
        .map(|d| capped_delta(d, FIELD_CHARS, Marker::English))
        .collect();
    contract_awareness(&mut out, &listed.iter().map(|d| &**d).collect::<Vec<_>>(), omitted);
    element(&mut out, "  ", "recovery", VALIDATION_RECOVERY);
    out.push_str("\n</validation_error>");
    out
}
