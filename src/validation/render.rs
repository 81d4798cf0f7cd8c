//! The `<validation_error>` envelope and the `<contract_awareness>` section
//! it shares with `<tool_error>`.

use super::field_text::field_text;
use super::model::{ValidationIssue, ValidationOptions};
use crate::delta::{contract_awareness, deltas_for_action, ContractDelta};
use crate::xml::{element, escape_attribute, escape_content};

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
    let mut applicable: Vec<&ContractDelta> = deltas_for_action(deltas, action);
    let omitted = applicable.len().saturating_sub(options.max_deltas);
    applicable.truncate(options.max_deltas);
    contract_awareness(&mut out, &applicable, omitted);
    element(&mut out, "  ", "recovery", VALIDATION_RECOVERY);
    out.push_str("\n</validation_error>");
    out
}
