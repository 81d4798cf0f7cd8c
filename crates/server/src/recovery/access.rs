//! Permission and authentication failures, worded so neither sends the
//! model the wrong way: FORBIDDEN never reveals whether the object exists
//! (it reads the same either way, so it cannot be used to probe), and
//! AUTH_REQUIRED addresses its fix to the host, since signing in is the MCP
//! client's job and a model told "authentication failed" goes looking for a
//! token to paste into an argument.

use serde::Deserialize;

use super::given_text;
use crate::code;
use crate::error::SpecError;
use crate::json::{given, missing, read_input};
use crate::locale::Locale;
use crate::tool_error::model::ToolError;

/// Which access failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    /// The caller is known and may not do this: FORBIDDEN.
    Forbidden,
    /// The caller is not signed in (or no longer): AUTH_REQUIRED.
    AuthRequired,
}

string_enum!(AccessKind { Forbidden = "forbidden", AuthRequired = "auth-required" });

/// What the host must do for AUTH_REQUIRED, written after the failure.
pub(crate) const HOST_SIGN_IN: &str =
    "For the MCP client (host): sign the user in through this server's authorization flow, then repeat the call.";

/// The model's part in AUTH_REQUIRED: no credentials from it, words for the user.
pub(crate) const AUTH_RECOVERY: &str = "Do not look for, ask for or pass a token, password or other credentials, \
in tool arguments or in the chat. Tell the user they need to sign in; their app handles the sign-in.";

/// The error for an access failure. `action` is a verb ("refund"),
/// `resource` what it applies to ("order A-8812"); either may be left out.
/// The wording depends on nothing else, so it cannot tell whether the object
/// exists. The customer message is generic, in `locale`.
///
/// ```
/// use mcp_envelope::recovery::{access_error, AccessKind};
/// use mcp_envelope::Locale;
/// let e = access_error(AccessKind::AuthRequired, None, None, Locale::PtBr).correlation_id("req-1");
/// assert_eq!(e.code, "AUTH_REQUIRED");
/// assert!(e.message.contains("For the MCP client (host): sign the user in"));
/// assert_eq!(e.customer_message.as_deref(), Some("Você precisa fazer login para continuar."));
/// ```
pub fn access_error(kind: AccessKind, action: Option<&str>, resource: Option<&str>, locale: Locale) -> ToolError {
    let attempted = attempted(action, resource);
    match kind {
        AccessKind::Forbidden => {
            let what = attempted.as_deref().unwrap_or("do this");
            // The code's default recovery ("Do not retry or probe...") is the
            // one wanted: it is left to the code, and to the locale's catalog.
            ToolError::new(code::FORBIDDEN, format!("Not permitted: the caller may not {what}."))
                .customer_message(locale.words().customer.forbidden)
                .locale(locale)
        }
        AccessKind::AuthRequired => {
            let what = attempted.map(|what| format!(" to {what}")).unwrap_or_default();
            ToolError::new(
                code::AUTH_REQUIRED,
                format!("Authentication required{what}. {HOST_SIGN_IN}"),
            )
            .suggest(AUTH_RECOVERY)
            .customer_message(locale.words().customer.sign_in)
            .locale(locale)
        }
    }
}

/// What the caller tried, as a verb phrase: `refund order A-8812`, `refund`,
/// `access order A-8812`; `None` when neither is given (empty is not given).
fn attempted(action: Option<&str>, resource: Option<&str>) -> Option<String> {
    match (action.filter(|s| !s.is_empty()), resource.filter(|s| !s.is_empty())) {
        (Some(action), Some(resource)) => Some(format!("{action} {resource}")),
        (Some(action), None) => Some(action.to_owned()),
        (None, Some(resource)) => Some(format!("access {resource}")),
        (None, None) => None,
    }
}

const WHAT: &str = "the access-error input";

/// The `access-error` input as written; with the `schema` feature also the
/// wrappers' `AccessOptions`.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an access-error input object"
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "AccessOptions",
        description = "The options of `accessError`: the caller's words only, never whether the object exists.",
        extend("required" = ["kind"])
    )
)]
#[doc(hidden)]
pub struct AccessInput {
    /// `forbidden` (not allowed) or `auth-required` (not signed in).
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "AccessKind"))]
    kind: Option<AccessKind>,
    /// What the caller tried, as a verb phrase (`refund`).
    action: Option<String>,
    /// What it was tried on (`order A-8812`).
    resource: Option<String>,
    /// The id that finds this failure in the server's log.
    correlation_id: Option<String>,
    /// The catalog of the customer message and the code's default recovery (English by default).
    locale: Option<Locale>,
}

/// The JSON entry point behind `mcp_envelope::raw::access_error`.
#[inline]
pub fn access_error_json(text: &str) -> Result<String, SpecError> {
    let input: AccessInput = read_input(text, WHAT)?;
    let (action, resource) = (given_text(input.action), given_text(input.resource));
    let chosen = input.locale.unwrap_or(Locale::En);
    let Some(kind) = input.kind else {
        return missing("missing \"kind\": \"forbidden\" (not allowed) or \"auth-required\" (not signed in)");
    };
    let mut error = access_error(kind, action.as_deref(), resource.as_deref(), chosen);
    error.correlation_id = given_text(input.correlation_id);
    Ok(crate::tool_error::spec::to_json(&error))
}
