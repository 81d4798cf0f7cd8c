//! The canonical error codes and what each implies when the caller does not say.
//!
//! Codes are closed-then-open: these 17 are known (and have defaults), any
//! other non-empty string is a custom code with no defaults. Each default
//! recovery hint comes from the locale catalogs (`crate::locale`): `defaults`
//! gives the English one, `default_recovery` the one of a locale.

use crate::error::SpecError;
use crate::json::{fail, missing, two_members};
use crate::locale::{CodeRecovery, Locale};

/// The code of a framework's own error for the model. Not a canonical code:
/// nothing is known of it but its text, so it says nothing of retrying, and
/// a rule-based client stops and tells (docs/decide.md).
pub const TOOL_ERROR: &str = "TOOL_ERROR";

/// A 401 or 403 whose Bearer challenge says `insufficient_scope`: the token
/// works but lacks scopes the request needs. A custom code, permission
/// category, not retryable as it is: the host authorizes again asking for
/// the scopes named (the [`SCOPES_DETAIL`]), then the call can be made again.
/// Nothing for the model to fix or retry.
pub const INSUFFICIENT_SCOPE: &str = "INSUFFICIENT_SCOPE";
/// The detail key of the scopes a step-up asks for, space-separated as the challenge gives them.
pub const SCOPES_DETAIL: &str = "requiredScopes";

/// The JSON-RPC code of a URL elicitation a call needs (MCP 2025-11-25).
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// Which recovery branch a failure is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Timeout, rate limit, a dependency briefly down: wait and retry.
    Transient,
    /// The arguments were wrong: fix them and call again.
    Validation,
    /// A rule forbids it: explain or escalate, do not retry.
    Business,
    /// The caller may not do this: stop, do not probe.
    Permission,
    /// The server failed: do not retry blindly.
    Internal,
}

string_enum!(Category {
    Transient = "transient",
    Validation = "validation",
    Business = "business",
    Permission = "permission",
    Internal = "internal"
});

/// What a canonical code implies: its category, whether another call can
/// succeed, and the recovery hint rendered when the caller gives none (in
/// English here: the `code-defaults` export's shape; see [`default_recovery`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(description = "A canonical code's defaults, the recovery in the asked locale.")
)]
pub struct CodeDefaults {
    /// The recovery branch the code implies when the caller sets no category.
    pub category: Category,
    /// Whether another call can succeed when the caller does not say.
    pub retryable: bool,
    /// The recovery hint rendered when the caller gives no suggestion (English
    /// here; the `code-defaults` export gives it in the asked locale).
    pub recovery: &'static str,
}

impl CodeDefaults {
    /// `{"category","retryable","recovery"}`, as the component gives it.
    pub fn to_json(&self) -> String {
        crate::json::to_json(self)
    }
}

/// The JSON entry point behind `mcp_envelope::raw::code_defaults`.
#[inline]
pub fn code_defaults_json(input: &str) -> Result<String, SpecError> {
    let [code, locale] = two_members(input, "the request", ["code", "locale"])?;
    let code = code
        .map(|raw| crate::json::string(&raw, &crate::json::Quoted("code")))
        .transpose()?;
    let locale = match locale {
        None => Locale::En,
        Some(raw) => crate::json::variant(&raw, "locale", Locale::ALL, Locale::from_wire)?,
    };
    let code = match code {
        Some(code) if code.is_empty() => return fail("\"code\" must not be empty"),
        Some(code) => code,
        None => return missing("missing \"code\": name the code whose defaults you want"),
    };
    Ok(match (defaults(&code), default_recovery(&code, locale)) {
        (Some(d), Some(recovery)) => CodeDefaults { recovery, ..d }.to_json(),
        _ => "null".to_owned(),
    })
}

macro_rules! canonical_codes {
    ($($name:ident => $hint:ident, $category:ident, $retryable:expr;)*) => {
        $(
            #[doc = concat!("The canonical code `", stringify!($name), "`.")]
            pub const $name: &str = stringify!($name);
        )*

        /// The canonical codes, in the order the envelope specification lists them.
        pub const CANONICAL_CODES: &[&str] = &[$($name),*];

        /// Each canonical code with its category, whether it is retryable,
        /// and where a catalog keeps its recovery hint: one table that both
        /// lookups below read, so a code is matched by name in one place.
        const ROWS: &[Row] = &[$(($name, Category::$category, $retryable, |hints| hints.$hint)),*];
    };
}

/// A canonical code, its category, whether it is retryable, and its hint in a catalog.
type Row = (&'static str, Category, bool, fn(&CodeRecovery) -> &'static str);

/// The row of a canonical code; `None` for a custom code.
fn row(code: &str) -> Option<&'static Row> {
    ROWS.iter().find(|(name, ..)| *name == code)
}

/// The defaults of a canonical code, or `None` for a custom code.
///
/// ```
/// use mcp_envelope::{code, Category};
/// let d = code::defaults(code::RATE_LIMITED).unwrap();
/// assert_eq!((d.category, d.retryable), (Category::Transient, true));
/// assert!(code::defaults("ORDER_NOT_FOUND").is_none());
/// ```
pub fn defaults(code: &str) -> Option<CodeDefaults> {
    let &(_, category, retryable, hint) = row(code)?;
    Some(CodeDefaults {
        category,
        retryable,
        recovery: hint(&Locale::En.words().recovery),
    })
}

/// The recovery hint a canonical code renders when the caller gives
/// none, in the locale's words; `None` for a custom code.
///
/// ```
/// use mcp_envelope::{code, Locale};
/// assert_eq!(
///     code::default_recovery(code::UNKNOWN_ACTION, Locale::PtBr),
///     Some("Chame a tool de novo com uma das ações disponíveis.")
/// );
/// assert_eq!(code::default_recovery("ORDER_NOT_FOUND", Locale::PtBr), None);
/// ```
pub fn default_recovery(code: &str, locale: Locale) -> Option<&'static str> {
    let &(.., hint) = row(code)?;
    Some(hint(&locale.words().recovery))
}

// Each row: the code, its hint in the catalogs (`Words::recovery`), its
// category and whether it is retryable. Keep it in step with
// docs/envelope.md's "Per-code defaults" table.
canonical_codes! {
    MISSING_DISCRIMINATOR => missing_discriminator, Validation, true;
    UNKNOWN_ACTION => unknown_action, Validation, true;
    VALIDATION_ERROR => validation_error, Validation, true;
    MISSING_REQUIRED_FIELD => missing_required_field, Validation, true;
    INTERNAL_ERROR => internal_error, Internal, false;
    RATE_LIMITED => rate_limited, Transient, true;
    UNAUTHORIZED => unauthorized, Permission, false;
    FORBIDDEN => forbidden, Permission, false;
    NOT_FOUND => not_found, Business, false;
    CONFLICT => conflict, Business, false;
    TIMEOUT => timeout, Transient, true;
    SERVER_BUSY => server_busy, Transient, true;
    DEPRECATED => deprecated, Validation, true;
    AUTH_REQUIRED => auth_required, Permission, false;
    HANDOFF_UPSTREAM_UNAVAILABLE => handoff_upstream_unavailable, Transient, true;
    HANDOFF_NAMESPACE_MISMATCH => handoff_namespace_mismatch, Validation, true;
    HANDOFF_CONNECTING => handoff_connecting, Transient, true;
}
