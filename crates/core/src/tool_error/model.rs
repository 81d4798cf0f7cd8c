//! The error model: one tool error as the caller describes it.
//!
//! Fields hold what the caller set; `None` (or an empty string) means "not
//! set". The accessors `recovery`, `category_or_default` and `is_retryable`
//! fill in the code's defaults, which is what the renderers use.

use crate::code::Category;
use crate::code::{self, CodeDefaults};
use crate::count;
use crate::delta::{shown_deltas, ContractDelta, DEFAULT_MAX_DELTAS};
use crate::locale::Locale;
use crate::tool_error::limits::Limits;

/// How bad the failure is. `Error` and `Critical` mark the result `isError: true`;
/// `Warning` is guidance on a result that still succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Severity {
    /// The call failed (`isError: true`); the default.
    #[default]
    Error,
    /// The call failed and must not be retried blindly (`isError: true`), as in the repeat ledger's stop envelope.
    Critical,
    /// The call succeeded with a caveat (`isError: false`), such as a deprecated parameter used or a fallback applied.
    Warning,
}

string_enum!(Severity { Error = "error", Critical = "critical", Warning = "warning" });

impl Severity {
    /// Whether a result carrying this severity is a failure (`isError: true`).
    pub fn is_error(self) -> bool {
        self != Severity::Warning
    }
}

/// One tool error, built fluently.
///
/// ```
/// use mcp_envelope::{code, render_xml, ToolError};
///
/// let e = ToolError::new(code::NOT_FOUND, "No invoice with that ID")
///     .suggest("List invoices first, then retry with a real ID")
///     .actions(["billing.list_invoices"])
///     .detail("requestedId", "inv_2026_9999")
///     .retry_after(30);
/// assert!(render_xml(&e).starts_with("<tool_error code=\"NOT_FOUND\" severity=\"error\">"));
/// ```
///
/// Two errors are equal when they say the same thing: an unset field equals
/// that field set to its code's default, an empty optional string equals an
/// unset one, and of actions, details and contract changes only those an
/// envelope lists count, with how many more it counts. Texts compare whole:
/// an error and its envelope with a text cut (see `Limits`) differ.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ToolError {
    /// The stable code the model branches on: canonical (`NOT_FOUND`) or custom.
    pub code: String,
    /// What failed, in a sentence the model reads.
    pub message: String,
    /// Rendered as the recovery; the code's default is used when unset.
    pub suggestion: Option<String>,
    /// Names of actions the model can call instead, in order.
    pub available_actions: Vec<String>,
    /// Actions that exist beyond those in `available_actions`, only counted
    /// (an envelope read back states how many it left out).
    pub omitted_actions: usize,
    /// Ordered key/value pairs; the builder keeps keys unique.
    pub details: Vec<(String, String)>,
    /// Details beyond those in `details`, only counted.
    pub omitted_details: usize,
    /// Whole seconds before a retry can help.
    pub retry_after: Option<u32>,
    /// How bad the failure is; [`Severity::Error`] unless set.
    pub severity: Severity,
    /// The recovery branch; `None` means the code's default (see [`ToolError::category_or_default`]).
    pub category: Option<Category>,
    /// Whether another call can succeed; `None` means the code's default (see [`ToolError::is_retryable`]).
    pub retryable: Option<bool>,
    /// Words safe to pass on to a person.
    pub customer_message: Option<String>,
    /// The id under which the server logged the failure.
    pub correlation_id: Option<String>,
    /// Contract changes since the contract the model learned; the BREAKING
    /// and RISKY ones are rendered, most severe first, at most five.
    pub deltas: Vec<ContractDelta>,
    /// Contract changes beyond those in `deltas`, only counted.
    pub omitted_deltas: usize,
    /// The catalog for words the core supplies (the default recovery hints,
    /// customer messages); English by default. The caller's own words are never translated.
    pub locale: Locale,
    /// Whether the fixed lines that steer the model follow `locale` too.
    pub localize_steering: bool,
    /// The caps this error is rendered under; `None` means `Limits::DEFAULT`.
    pub limits: Option<Limits>,
    /// Attach `_meta["io.modelcontextprotocol/toolFailure"]` to the `CallToolResult`.
    pub tool_failure: Option<ToolFailureMeta>,
}

/// Asks for the proposed ToolFailure metadata (SEP-3313) on the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ToolFailureMeta {
    /// The current time, Unix epoch milliseconds: `retryNotBefore` is this plus the retry-after.
    pub now_ms: Option<u64>,
}

impl ToolError {
    /// A new error with a code (canonical or custom) and a message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        ToolError {
            code: code.into(),
            message: message.into(),
            ..Default::default()
        }
    }

    /// Sets the next step for the model, rendered as the recovery.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// Appends action names the model can call instead.
    pub fn actions<I, S>(mut self, actions: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.available_actions.extend(actions.into_iter().map(Into::into));
        self
    }

    /// Sets a detail; a key set twice keeps its first position and its last value.
    pub fn detail(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let (key, value) = (key.into(), value.into());
        match self.details.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.details.push((key, value)),
        }
        self
    }

    /// Sets how many seconds to wait before a retry can help.
    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// Sets how bad the failure is: error (the default), critical or warning.
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Shorthand for `.severity(Severity::Critical)`.
    pub fn critical(self) -> Self {
        self.severity(Severity::Critical)
    }

    /// Shorthand for `.severity(Severity::Warning)`: guidance on a successful result.
    pub fn warning(self) -> Self {
        self.severity(Severity::Warning)
    }

    /// Sets the recovery branch, in place of the code's default.
    pub fn category(mut self, category: Category) -> Self {
        self.category = Some(category);
        self
    }

    /// Sets whether another call can succeed, in place of the code's default.
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = Some(retryable);
        self
    }

    /// Sets the words safe to pass on to a person.
    pub fn customer_message(mut self, text: impl Into<String>) -> Self {
        self.customer_message = Some(text.into());
        self
    }

    /// Sets the id under which the server logged the failure, so support can find it.
    pub fn correlation_id(mut self, id: impl Into<String>) -> Self {
        self.correlation_id = Some(id.into());
        self
    }

    /// Adds a contract change to tell the model about.
    pub fn delta(mut self, delta: ContractDelta) -> Self {
        self.deltas.push(delta);
        self
    }

    /// Chooses the catalog for the words the core supplies (default recovery hints).
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// Lets the fixed lines that steer the model follow the locale too.
    pub fn localize_steering(mut self, on: bool) -> Self {
        self.localize_steering = on;
        self
    }

    /// Caps other than the defaults for this error.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// Attaches the proposed ToolFailure metadata to the `CallToolResult`.
    pub fn tool_failure_meta(mut self, meta: ToolFailureMeta) -> Self {
        self.tool_failure = Some(meta);
        self
    }

    /// The caps in force: as set, else the defaults.
    pub fn limits_or_default(&self) -> Limits {
        self.limits.unwrap_or_default()
    }

    /// The contract changes the envelope lists, and how many more it only counts.
    pub fn listed_deltas(&self) -> (Vec<&ContractDelta>, usize) {
        let mut shown = shown_deltas(&self.deltas);
        let omitted = shown.len().saturating_sub(DEFAULT_MAX_DELTAS);
        shown.truncate(DEFAULT_MAX_DELTAS);
        (shown, count::add(self.omitted_deltas, omitted))
    }

    /// The actions the envelope lists (at most `limits.actions`), and how many more it only counts.
    pub fn listed_actions(&self) -> (&[String], usize) {
        let listed = &self.available_actions[..self.available_actions.len().min(self.limits_or_default().actions)];
        let omitted = self.available_actions.len() - listed.len();
        (listed, count::add(self.omitted_actions, omitted))
    }

    /// The details the envelope lists (at most `limits.details`), and how many more it only counts.
    pub fn listed_details(&self) -> (&[(String, String)], usize) {
        let listed = &self.details[..self.details.len().min(self.limits_or_default().details)];
        let omitted = self.details.len() - listed.len();
        (listed, count::add(self.omitted_details, omitted))
    }

    /// The defaults of this error's code, if it is canonical.
    pub fn defaults(&self) -> Option<CodeDefaults> {
        code::defaults(&self.code)
    }

    /// The recovery to render: the suggestion if set, else the code's default
    /// in this error's locale.
    ///
    /// ```
    /// use mcp_envelope::{code, Locale, ToolError};
    /// let e = ToolError::new(code::CONFLICT, "Invoice changed").locale(Locale::PtBr);
    /// assert_eq!(e.recovery(), Some("Leia o estado atual de novo e decida se a alteração ainda se aplica."));
    /// ```
    pub fn recovery(&self) -> Option<&str> {
        non_empty(&self.suggestion).or_else(|| self.default_recovery())
    }

    /// The code's default recovery hint in this error's locale, if the code is canonical.
    pub fn default_recovery(&self) -> Option<&'static str> {
        code::default_recovery(&self.code, self.locale)
    }

    /// The category if set, else the code's default.
    pub fn category_or_default(&self) -> Option<Category> {
        self.category.or_else(|| self.defaults().map(|d| d.category))
    }

    /// Whether another call can succeed: as set, else the code's default, else `false`.
    pub fn is_retryable(&self) -> bool {
        self.retryable
            .or_else(|| self.defaults().map(|d| d.retryable))
            .unwrap_or(false)
    }

    /// Whether the result is a failure (`isError`), from the severity.
    pub fn is_error(&self) -> bool {
        self.severity.is_error()
    }

    /// The customer message, if set and not empty.
    pub fn customer_message_text(&self) -> Option<&str> {
        non_empty(&self.customer_message)
    }

    /// The correlation id, if set and not empty.
    pub fn correlation_id_text(&self) -> Option<&str> {
        non_empty(&self.correlation_id)
    }

    /// The same error with every field that only repeats a default unset:
    /// the smallest spec that renders the same envelope. A suggestion is a
    /// default when it equals the hint of the error's own locale.
    ///
    /// ```
    /// use mcp_envelope::{code, spec, Locale, ToolError};
    /// let pt = ToolError::new(code::CONFLICT, "m").locale(Locale::PtBr);
    /// let stated = pt.clone().suggest(pt.recovery().unwrap());
    /// assert_eq!(spec::to_json(&stated), r#"{"code":"CONFLICT","message":"m","locale":"pt-BR"}"#);
    /// // The English hint is no default of a pt-BR error: it is the caller's choice.
    /// let english = pt.suggest(code::defaults(code::CONFLICT).unwrap().recovery);
    /// assert!(english.minimal().suggestion.is_some());
    /// ```
    pub fn minimal(&self) -> ToolError {
        let defaults = self.defaults();
        let default_recovery = self.default_recovery();
        ToolError {
            code: self.code.clone(),
            message: self.message.clone(),
            suggestion: non_empty(&self.suggestion)
                .filter(|s| default_recovery != Some(*s))
                .map(str::to_owned),
            available_actions: self.available_actions.clone(),
            omitted_actions: self.omitted_actions,
            details: self.details.clone(),
            omitted_details: self.omitted_details,
            retry_after: self.retry_after,
            severity: self.severity,
            category: self.category.filter(|c| defaults.is_none_or(|d| d.category != *c)),
            retryable: self.retryable.filter(|r| defaults.is_none_or(|d| d.retryable != *r)),
            customer_message: self.customer_message_text().map(str::to_owned),
            correlation_id: self.correlation_id_text().map(str::to_owned),
            deltas: self.deltas.clone(),
            omitted_deltas: self.omitted_deltas,
            locale: self.locale,
            localize_steering: self.localize_steering,
            limits: self.limits,
            tool_failure: self.tool_failure,
        }
    }
}

impl PartialEq for ToolError {
    fn eq(&self, other: &Self) -> bool {
        self.code == other.code
            && self.message == other.message
            && self.recovery() == other.recovery()
            && self.listed_actions() == other.listed_actions()
            && self.listed_details() == other.listed_details()
            && self.retry_after == other.retry_after
            && self.severity == other.severity
            && self.category_or_default() == other.category_or_default()
            && self.is_retryable() == other.is_retryable()
            && self.customer_message_text() == other.customer_message_text()
            && self.correlation_id_text() == other.correlation_id_text()
            && self.listed_deltas() == other.listed_deltas()
    }
}

fn non_empty(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|s| !s.is_empty())
}
