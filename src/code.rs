//! The canonical error codes and what each implies when the caller does not say.
//!
//! Codes are closed-then-open: these 17 are known (and have defaults), any
//! other non-empty string is a custom code with no defaults.

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
/// succeed, and the recovery hint rendered when the caller gives none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDefaults {
    pub category: Category,
    pub retryable: bool,
    pub recovery: &'static str,
}

impl CodeDefaults {
    /// `{"category","retryable","recovery"}`, as the component gives it.
    pub fn to_json(&self) -> String {
        let mut out = format!(
            "{{\"category\":\"{}\",\"retryable\":{},\"recovery\":",
            self.category, self.retryable
        );
        crate::json::push_json_string(&mut out, self.recovery);
        out.push('}');
        out
    }
}

macro_rules! canonical_codes {
    ($($name:ident => $category:ident, $retryable:expr, $recovery:expr;)*) => {
        $(
            #[doc = concat!("The canonical code `", stringify!($name), "`.")]
            pub const $name: &str = stringify!($name);
        )*

        /// The canonical codes, in the order the envelope specification lists them.
        pub const CANONICAL_CODES: &[&str] = &[$($name),*];

        /// The defaults of a canonical code, or `None` for a custom code.
        ///
        /// ```
        /// use mcp_envelope::{code, Category};
        /// let d = code::defaults(code::RATE_LIMITED).unwrap();
        /// assert_eq!((d.category, d.retryable), (Category::Transient, true));
        /// assert!(code::defaults("ORDER_NOT_FOUND").is_none());
        /// ```
        pub fn defaults(code: &str) -> Option<CodeDefaults> {
            match code {
                $($name => Some(CodeDefaults {
                    category: Category::$category,
                    retryable: $retryable,
                    recovery: $recovery,
                }),)*
                _ => None,
            }
        }
    };
}

// Keep this table in step with the README's "Per-code defaults" table.
canonical_codes! {
    MISSING_DISCRIMINATOR => Validation, true,
        "Add the action argument naming one of the available actions, then call the tool again.";
    UNKNOWN_ACTION => Validation, true,
        "Call the tool again with one of the available actions.";
    VALIDATION_ERROR => Validation, true,
        "Fix the arguments named above and call the tool again.";
    MISSING_REQUIRED_FIELD => Validation, true,
        "Add the missing field and call the tool again.";
    INTERNAL_ERROR => Internal, false,
        "Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.";
    RATE_LIMITED => Transient, true,
        "Wait for the retry-after period, then make the same call again.";
    UNAUTHORIZED => Permission, false,
        "Do not retry. The credentials were rejected; ask the user to sign in again.";
    FORBIDDEN => Permission, false,
        "Do not retry or probe. Tell the user this needs access they do not have.";
    NOT_FOUND => Business, false,
        "Check the identifier: look the item up or list the available ones, then call again with a real one.";
    CONFLICT => Business, false,
        "Read the current state again, then decide whether the change still applies.";
    TIMEOUT => Transient, true,
        "Retry once after a short wait; if it times out again, tell the user the service is slow.";
    SERVER_BUSY => Transient, true,
        "The server is shedding load: wait, then make the same call again.";
    DEPRECATED => Validation, true,
        "Use the replacement named in the message and call again.";
    AUTH_REQUIRED => Permission, false,
        "Ask the user to authenticate, then call again. Never pass credentials as tool arguments.";
    HANDOFF_UPSTREAM_UNAVAILABLE => Transient, true,
        "The upstream server is unavailable: wait, then make the same call again.";
    HANDOFF_NAMESPACE_MISMATCH => Validation, true,
        "Call the tool under the namespace named in the message.";
    HANDOFF_CONNECTING => Transient, true,
        "The upstream connection is still being set up: wait a moment, then make the same call again.";
}
