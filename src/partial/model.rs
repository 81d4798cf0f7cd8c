//! The partial-result model: what a call obtained, which items failed and
//! how, and what was already tried, as the caller describes it.
//!
//! Fields hold what the caller set; `None` (or an empty string) means "not
//! set". The accessors fill in what the envelope states when the caller is
//! silent: a failed item's category and retryability from its code's
//! defaults, the recovery from `PARTIAL_RECOVERY`, the summary and the
//! severity from the counts.

use crate::code::{self, Category};
use crate::model::Severity;

/// The code a partial result reads as (`read_envelope`, `error_of_result`).
pub const PARTIAL_CODE: &str = "PARTIAL_RESULT";

/// The recovery stated when the caller gives none: the coordinator keeps the
/// work done and decides only about what is left.
pub const PARTIAL_RECOVERY: &str = "Keep what was obtained and do not repeat what was tried. \
Retry only the failed items marked retryable; for the others, get access, use another source, or report the gap.";

/// One item that could not be obtained, and why.
///
/// Two items are equal when they say the same thing: an unset category or
/// retryability equals the code's default, an empty message an unset one.
#[derive(Debug, Clone, Default)]
pub struct FailedItem {
    /// What could not be obtained (`Company C`, `invoice inv_7`).
    pub item: String,
    /// Its error code, canonical or custom.
    pub code: String,
    /// What went wrong, in words.
    pub message: Option<String>,
    /// Which recovery branch it is on; the code's default when unset.
    pub category: Option<Category>,
    /// Whether another attempt can succeed; the code's default when unset.
    pub retryable: Option<bool>,
}

impl FailedItem {
    /// A failed item with what failed and its code (canonical or custom).
    pub fn new(item: impl Into<String>, code: impl Into<String>) -> Self {
        FailedItem {
            item: item.into(),
            code: code.into(),
            ..Default::default()
        }
    }

    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    pub fn category(mut self, category: Category) -> Self {
        self.category = Some(category);
        self
    }

    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = Some(retryable);
        self
    }

    /// The message, if set and not empty.
    pub fn message_text(&self) -> Option<&str> {
        non_empty(&self.message)
    }

    /// The category if set, else the code's default (`None` for a custom code).
    ///
    /// ```
    /// use mcp_envelope::{code, partial::FailedItem, Category};
    /// assert_eq!(FailedItem::new("Company C", code::FORBIDDEN).category_or_default(), Some(Category::Permission));
    /// assert_eq!(FailedItem::new("Company C", "FILING_SEALED").category_or_default(), None);
    /// ```
    pub fn category_or_default(&self) -> Option<Category> {
        self.category.or_else(|| code::defaults(&self.code).map(|d| d.category))
    }

    /// Whether another attempt can succeed: as set, else the code's default, else `false`.
    pub fn is_retryable(&self) -> bool {
        self.retryable
            .or_else(|| code::defaults(&self.code).map(|d| d.retryable))
            .unwrap_or(false)
    }
}

impl PartialEq for FailedItem {
    fn eq(&self, other: &Self) -> bool {
        self.item == other.item
            && self.code == other.code
            && self.message_text() == other.message_text()
            && self.category_or_default() == other.category_or_default()
            && self.is_retryable() == other.is_retryable()
    }
}

/// A partial failure, escalated: what was obtained, what failed, what was
/// tried, so a coordinator can decide without repeating the work.
///
/// ```
/// use mcp_envelope::{code, partial::{FailedItem, PartialResult}};
/// let p = PartialResult::new()
///     .task("Find filings for companies A, B and C")
///     .obtained(["Company A: 10-K 2024", "Company B: 10-K 2024"])
///     .failed(FailedItem::new("Company C", code::FORBIDDEN))
///     .tried(["Searched company C once; not retried"]);
/// assert_eq!(p.summary(), "Obtained 2 of 3 items; 1 failed.");
/// assert!(!p.is_error()); // something useful came back
/// ```
///
/// Two results are equal when they say the same thing (see [`FailedItem`];
/// an unset recovery equals `PARTIAL_RECOVERY`).
#[derive(Debug, Clone, Default)]
pub struct PartialResult {
    /// What was asked.
    pub task: Option<String>,
    /// What was obtained, one line each.
    pub obtained: Vec<String>,
    /// What could not be obtained; a partial result has at least one.
    pub failed: Vec<FailedItem>,
    /// What was already attempted, one line each.
    pub tried: Vec<String>,
    /// The next step for the coordinator; `PARTIAL_RECOVERY` when unset.
    pub recovery: Option<String>,
    /// The id under which the server logged the call.
    pub correlation_id: Option<String>,
}

impl PartialResult {
    /// An empty partial result, to be filled with the builder methods.
    pub fn new() -> Self {
        PartialResult::default()
    }

    pub fn task(mut self, task: impl Into<String>) -> Self {
        self.task = Some(task.into());
        self
    }

    /// Appends obtained lines.
    pub fn obtained<I, S>(mut self, lines: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.obtained.extend(lines.into_iter().map(Into::into));
        self
    }

    /// Appends a failed item.
    pub fn failed(mut self, item: FailedItem) -> Self {
        self.failed.push(item);
        self
    }

    /// Appends lines saying what was already attempted.
    pub fn tried<I, S>(mut self, lines: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tried.extend(lines.into_iter().map(Into::into));
        self
    }

    pub fn recovery(mut self, recovery: impl Into<String>) -> Self {
        self.recovery = Some(recovery.into());
        self
    }

    pub fn correlation_id(mut self, id: impl Into<String>) -> Self {
        self.correlation_id = Some(id.into());
        self
    }

    /// The one-line summary every form opens with, from the counts:
    /// `Obtained 2 of 3 items; 1 failed.`
    pub fn summary(&self) -> String {
        let (obtained, failed) = (self.obtained.len(), self.failed.len());
        let total = obtained.saturating_add(failed);
        let noun = if total == 1 { "item" } else { "items" };
        format!("Obtained {obtained} of {total} {noun}; {failed} failed.")
    }

    /// `Warning` when something was obtained (the call returned useful data,
    /// with a caveat), `Error` when nothing was.
    pub fn severity(&self) -> Severity {
        if self.obtained.is_empty() {
            Severity::Error
        } else {
            Severity::Warning
        }
    }

    /// Whether the `CallToolResult` is a failure (`isError`): only when nothing was obtained.
    pub fn is_error(&self) -> bool {
        self.severity().is_error()
    }

    /// Whether any failed item can succeed on another attempt.
    pub fn any_retryable(&self) -> bool {
        self.failed.iter().any(FailedItem::is_retryable)
    }

    pub fn task_text(&self) -> Option<&str> {
        non_empty(&self.task)
    }

    /// The recovery to state: as set, else `PARTIAL_RECOVERY`.
    pub fn recovery_text(&self) -> &str {
        non_empty(&self.recovery).unwrap_or(PARTIAL_RECOVERY)
    }

    pub fn correlation_id_text(&self) -> Option<&str> {
        non_empty(&self.correlation_id)
    }
}

impl PartialEq for PartialResult {
    fn eq(&self, other: &Self) -> bool {
        self.task_text() == other.task_text()
            && self.obtained == other.obtained
            && self.failed == other.failed
            && self.tried == other.tried
            && self.recovery_text() == other.recovery_text()
            && self.correlation_id_text() == other.correlation_id_text()
    }
}

fn non_empty(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|s| !s.is_empty())
}
