//! The `<validation_error>` envelope and the `<contract_awareness>` section
//! it shares with `<tool_error>`.

use super::field_text::field_text_in;
use super::model::{ValidationIssue, ValidationOptions};
use super::FIELD_CHARS;
use crate::cut::{capped, Marker};
use crate::delta::{capped_delta, contract_awareness, deltas_for_action, ContractDelta};
use crate::locale::Locale;
use crate::xml::{element, escape_attribute, escape_content};
use std::borrow::Cow;

/// The last line of every validation envelope, part of the wire format.
pub const VALIDATION_RECOVERY: &str = Locale::En.words().steering.validation_recovery;

/// The recovery line in pt-BR, rendered only when a spec asks for steering
/// lines in its locale (`localizeSteering`): "Do not explain the error" is
/// the instruction that keeps a model from apologising instead of calling again.
pub const VALIDATION_RECOVERY_PT_BR: &str = Locale::PtBr.words().steering.validation_recovery;

/// The recovery line the options ask for: English unless `localize_steering`.
///
/// ```
/// use mcp_envelope::validation::{validation_recovery, ValidationOptions, VALIDATION_RECOVERY};
/// use mcp_envelope::Locale;
/// let pt = ValidationOptions { locale: Locale::PtBr, ..ValidationOptions::default() };
/// assert_eq!(validation_recovery(pt), VALIDATION_RECOVERY);
/// let steered = ValidationOptions { localize_steering: true, ..pt };
/// assert!(validation_recovery(steered).starts_with("Corrija os campos acima"));
/// ```
pub fn validation_recovery(options: ValidationOptions) -> &'static str {
    options
        .locale
        .steering(options.localize_steering)
        .words()
        .steering
        .validation_recovery
}

/// Renders the envelope: one `<field>` per issue (up to `max_fields`, then a
/// `<more_fields>` count), the contract changes that apply to `action`, and
/// the recovery line. Two spaces per level, no trailing newline. The field
/// lines are in `options.locale`; the recovery line see [`validation_recovery`].
/// Every text is at most `FIELD_CHARS` characters, cut marked as a tool error's are.
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
    escape_attribute(&mut out, &capped(action, FIELD_CHARS, Marker::ENGLISH));
    out.push_str("\">");
    for issue in issues.iter().take(options.max_fields) {
        out.push_str("\n  <field name=\"");
        escape_attribute(&mut out, &issue.field_name());
        out.push_str("\">");
        escape_content(&mut out, &field_text_in(issue, options.locale));
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
        .map(|d| capped_delta(d, FIELD_CHARS, Marker::ENGLISH))
        .collect();
    contract_awareness(&mut out, &listed.iter().map(|d| &**d).collect::<Vec<_>>(), omitted);
    element(&mut out, "  ", "recovery", validation_recovery(options));
    out.push_str("\n</validation_error>");
    out
}
