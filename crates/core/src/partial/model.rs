//! The partial-result model: what a call obtained, which items failed and
//! how, and what was already tried, as the caller describes it.
//!
//! Fields hold what the caller set; `None` (or an empty string) means "not
//! set". The accessors fill in what the envelope states when the caller is
//! silent: a failed item's category and retryability from its code's
//! defaults (its retry-after has none: unset, it is not stated), the recovery from `PARTIAL_RECOVERY`, the summary and the
//! severity from the counts.
//!
//! Each list may come with a count of entries beyond it (`omitted_obtained`,
//! `omitted_failed`, `omitted_tried`): what a capped envelope read back
//! states. The summary and the severity count them, listed or not.

use super::limits::PartialLimits;
use crate::code::{self, Category};
use crate::count;
use crate::tool_error::model::Severity;

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
    /// How many seconds to wait before another attempt, as the failure
    /// stated it (a RATE_LIMITED's `retry_after`); not stated when unset.
    pub retry_after: Option<u32>,
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

    /// Sets what went wrong, in words.
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Sets the item's recovery branch, in place of its code's default.
    pub fn category(mut self, category: Category) -> Self {
        self.category = Some(category);
        self
    }

    /// Sets whether another attempt can succeed, in place of its code's default.
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = Some(retryable);
        self
    }

    /// Sets how many seconds to wait before another attempt.
    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
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
            && self.retry_after == other.retry_after
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
/// an unset recovery equals `PARTIAL_RECOVERY`), and, as `ToolError` does,
/// when their lists show the same entries under their caps and count the same
/// number beyond them: 25 obtained lines equal their first 20 with
/// `omitted_obtained: 5`. The limits themselves are not compared.
#[derive(Debug, Clone, Default)]
pub struct PartialResult {
    /// What was asked.
    pub task: Option<String>,
    /// What was obtained, one line each.
    pub obtained: Vec<String>,
    /// Obtained entries not in `obtained`, only counted (a capped envelope's).
    pub omitted_obtained: usize,
    /// What could not be obtained; a partial result has at least one.
    pub failed: Vec<FailedItem>,
    /// Failed items not in `failed`, only counted.
    pub omitted_failed: usize,
    /// What was already attempted, one line each.
    pub tried: Vec<String>,
    /// Attempts not in `tried`, only counted.
    pub omitted_tried: usize,
    /// The next step for the coordinator; `PARTIAL_RECOVERY` when unset.
    pub recovery: Option<String>,
    /// The id under which the server logged the call.
    pub correlation_id: Option<String>,
    /// The caps it is rendered under; `PartialLimits::DEFAULT` when unset.
    pub limits: Option<PartialLimits>,
}

impl PartialResult {
    /// An empty partial result, to be filled with the builder methods.
    pub fn new() -> Self {
        PartialResult::default()
    }

    /// Sets what was asked: the task the coordinator delegated.
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

    /// Sets the next step for the coordinator, in place of [`PARTIAL_RECOVERY`].
    pub fn recovery(mut self, recovery: impl Into<String>) -> Self {
        self.recovery = Some(recovery.into());
        self
    }

    /// Sets the id under which the server logged the call.
    pub fn correlation_id(mut self, id: impl Into<String>) -> Self {
        self.correlation_id = Some(id.into());
        self
    }

    /// Caps other than the defaults for this result.
    pub fn limits(mut self, limits: PartialLimits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// The caps in force: as set, else the defaults.
    pub fn limits_or_default(&self) -> PartialLimits {
        self.limits.unwrap_or_default()
    }

    /// How many things were obtained, listed or only counted.
    pub fn obtained_count(&self) -> usize {
        count::add(self.obtained.len(), self.omitted_obtained)
    }

    /// How many items failed, listed or only counted.
    pub fn failed_count(&self) -> usize {
        count::add(self.failed.len(), self.omitted_failed)
    }

    /// The obtained lines an envelope lists (at most `limits.items`), and how many more it only counts.
    pub fn listed_obtained(&self) -> (&[String], usize) {
        listed(&self.obtained, self.omitted_obtained, self.limits_or_default().items)
    }

    /// The failed items an envelope lists (at most `limits.items`), and how many more it only counts.
    pub fn listed_failed(&self) -> (&[FailedItem], usize) {
        listed(&self.failed, self.omitted_failed, self.limits_or_default().items)
    }

    /// The attempts an envelope lists (at most `limits.items`), and how many more it only counts.
    pub fn listed_tried(&self) -> (&[String], usize) {
        listed(&self.tried, self.omitted_tried, self.limits_or_default().items)
    }

    /// The one-line summary every form opens with, from the counts (listed
    /// or not): `Obtained 2 of 3 items; 1 failed.`
    ///
    /// ```
    /// use mcp_envelope::partial::{FailedItem, PartialResult};
    /// let mut p = PartialResult::new().obtained(["Company A"]).failed(FailedItem::new("Company C", "FORBIDDEN"));
    /// p.omitted_obtained = 24;
    /// assert_eq!(p.summary(), "Obtained 25 of 26 items; 1 failed.");
    /// ```
    pub fn summary(&self) -> String {
        let (obtained, failed) = (self.obtained_count(), self.failed_count());
        let total = count::add(obtained, failed);
        let noun = if total == 1 { "item" } else { "items" };
        format!("Obtained {obtained} of {total} {noun}; {failed} failed.")
    }

    /// `Warning` when something was obtained (the call returned useful data,
    /// with a caveat), `Error` when nothing was.
    pub fn severity(&self) -> Severity {
        if self.obtained_count() == 0 {
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

    /// The task, if set and not empty.
    pub fn task_text(&self) -> Option<&str> {
        non_empty(&self.task)
    }

    /// The recovery to state: as set, else `PARTIAL_RECOVERY`.
    pub fn recovery_text(&self) -> &str {
        non_empty(&self.recovery).unwrap_or(PARTIAL_RECOVERY)
    }

    /// The correlation id, if set and not empty.
    pub fn correlation_id_text(&self) -> Option<&str> {
        non_empty(&self.correlation_id)
    }
}

impl PartialEq for PartialResult {
    fn eq(&self, other: &Self) -> bool {
        self.task_text() == other.task_text()
            && self.listed_obtained() == other.listed_obtained()
            && self.listed_failed() == other.listed_failed()
            && self.listed_tried() == other.listed_tried()
            && self.recovery_text() == other.recovery_text()
            && self.correlation_id_text() == other.correlation_id_text()
    }
}

/// The first `cap` entries, and how many more are only counted: those given
/// as counted and those beyond the cap.
fn listed<T>(entries: &[T], counted: usize, cap: usize) -> (&[T], usize) {
    let shown = &entries[..entries.len().min(cap)];
    (shown, count::add(counted, entries.len() - shown.len()))
}

fn non_empty(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|s| !s.is_empty())
}
