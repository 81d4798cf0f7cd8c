//! The caps every form of a partial result applies (see `PartialLimits`):
//! what of a result an envelope shows, and the cuts that bring a long
//! envelope within its total.
//!
//! Each text is cut to `message_chars` and each list to `items` entries (the
//! rest counted). Then, only while the envelope is still longer than
//! `envelope_chars`, in this order: the task is cut; the attempts are
//! dropped from the last (counted); the obtained lines are dropped from the
//! last (counted); the failed items' messages are cut to their first line,
//! the last first; and they are cut further, the last first. What a
//! coordinator needs most is never dropped or cut by the total: the summary,
//! each listed failed item's item, code, category, retryability and
//! retry-after, the recovery and the correlation id.

use std::borrow::Cow;

use super::limits::PartialLimits;
use super::model::{FailedItem, PartialResult};
use crate::code::Category;
use crate::count;
use crate::cut::{capped, Cut, Marker};
use crate::tool_error::model::Severity;
use crate::tool_error::render::capped::{cut_by, cut_first_line_by, cut_to_first_line, overflow};

/// The marker of every cut in a partial result: English, since it steers the
/// coordinating model, and the spec has no locale.
const MARKER: Marker = Marker::ENGLISH;

/// A failed item as an envelope shows it: its texts cut to their cap.
pub(crate) struct ShownFailure<'a> {
    pub item: Cow<'a, str>,
    pub code: Cow<'a, str>,
    pub message: Option<Cut<'a>>,
    pub category: Option<Category>,
    pub retryable: bool,
    pub retry_after: Option<u32>,
}

impl<'a> ShownFailure<'a> {
    fn new(failed: &'a FailedItem, max: usize) -> ShownFailure<'a> {
        ShownFailure {
            item: capped(&failed.item, max, MARKER),
            code: capped(&failed.code, max, MARKER),
            message: failed.message_text().map(|m| Cut::capped(m, max, MARKER)),
            category: failed.category_or_default(),
            retryable: failed.is_retryable(),
            retry_after: failed.retry_after,
        }
    }
}

/// One list as an envelope shows it: its first `listed` entries, then a
/// count of the rest and of those counted before (`counted`).
pub(crate) struct ShownList<T> {
    entries: Vec<T>,
    listed: usize,
    counted: usize,
}

impl<T> ShownList<T> {
    fn new(entries: Vec<T>, counted: usize) -> ShownList<T> {
        let listed = entries.len();
        ShownList {
            entries,
            listed,
            counted,
        }
    }

    /// The entries listed.
    pub fn listed(&self) -> &[T] {
        &self.entries[..self.listed]
    }

    /// How many more are only counted.
    pub fn omitted(&self) -> usize {
        count::add(self.counted, self.entries.len() - self.listed)
    }
}

/// A partial result as an envelope shows it, under its limits.
pub(crate) struct Shown<'a> {
    pub severity: Severity,
    /// Written from every count, listed or not, before any cut: the total
    /// step only moves entries from a list to its count.
    pub summary: String,
    pub task: Option<Cut<'a>>,
    pub obtained: ShownList<Cow<'a, str>>,
    pub failed: ShownList<ShownFailure<'a>>,
    pub tried: ShownList<Cow<'a, str>>,
    pub recovery: Cow<'a, str>,
    pub correlation_id: Option<Cow<'a, str>>,
}

impl<'a> Shown<'a> {
    fn new(partial: &'a PartialResult, limits: &PartialLimits) -> Shown<'a> {
        let max = limits.message_chars;
        let text = |t: &'a str| capped(t, max, MARKER);
        let lines =
            |(lines, counted): (&'a [String], usize)| ShownList::new(lines.iter().map(|l| text(l)).collect(), counted);
        let (failed, omitted_failed) = partial.listed_failed();
        Shown {
            severity: partial.severity(),
            summary: partial.summary(),
            task: partial.task_text().map(|t| Cut::capped(t, max, MARKER)),
            obtained: lines(partial.listed_obtained()),
            failed: ShownList::new(
                failed.iter().map(|f| ShownFailure::new(f, max)).collect(),
                omitted_failed,
            ),
            tried: lines(partial.listed_tried()),
            recovery: text(partial.recovery_text()),
            correlation_id: partial.correlation_id_text().map(text),
        }
    }
}

/// How one form writes: the whole envelope, and one failed item (what a cut
/// of its message saves is measured on the item alone).
pub(crate) struct Writer {
    pub envelope: fn(&Shown<'_>) -> String,
    pub failure: fn(&mut String, &ShownFailure<'_>),
}

type Step = fn(&mut Shown<'_>, &Writer, &mut String, &PartialLimits);

/// Renders `partial` with `writer` under its limits, the total cap included.
pub(crate) fn render_capped(partial: &PartialResult, writer: &Writer) -> String {
    let limits = partial.limits_or_default();
    let mut view = Shown::new(partial, &limits);
    let mut out = (writer.envelope)(&view);
    let steps: [Step; 5] = [
        cut_task,
        drop_tried,
        drop_obtained,
        failure_messages_to_first_line,
        cut_failure_messages,
    ];
    for step in steps {
        if overflow(&out, limits.envelope_chars) == 0 {
            break;
        }
        step(&mut view, writer, &mut out, &limits);
    }
    out
}

/// The task cut by as many characters as the envelope is over, not below 40.
fn cut_task(view: &mut Shown<'_>, writer: &Writer, out: &mut String, limits: &PartialLimits) {
    let over = overflow(out, limits.envelope_chars);
    if let Some(task) = &mut view.task {
        if cut_by(task, over, usize::MAX) {
            *out = (writer.envelope)(view);
        }
    }
}

fn drop_tried(view: &mut Shown<'_>, writer: &Writer, out: &mut String, limits: &PartialLimits) {
    drop_from_the_last(view, writer, out, limits, |view| &mut view.tried.listed);
}

fn drop_obtained(view: &mut Shown<'_>, writer: &Writer, out: &mut String, limits: &PartialLimits) {
    drop_from_the_last(view, writer, out, limits, |view| &mut view.obtained.listed);
}

/// Lists fewer of a list's entries, dropping from the last (counted), as
/// few as bring the envelope within its total; when none does, all, but only
/// if that makes the envelope shorter (one short entry can take fewer
/// characters than the count line that would replace it).
///
/// Once one entry is dropped the list's count is shown, and each further
/// entry dropped shortens the envelope: an entry takes more characters than
/// its count adds (a digit, a plural). So the most entries that fit are
/// found by halving, in a few renders however long the list.
fn drop_from_the_last(
    view: &mut Shown<'_>,
    writer: &Writer,
    out: &mut String,
    limits: &PartialLimits,
    listed: for<'v, 's> fn(&'v mut Shown<'s>) -> &'v mut usize,
) {
    let all = *listed(view);
    if all == 0 {
        return;
    }
    // The most that fit is in lo..=hi; 0 when none does.
    let (mut lo, mut hi) = (0, all - 1);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        *listed(view) = mid;
        if overflow(&(writer.envelope)(view), limits.envelope_chars) == 0 {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    *listed(view) = lo;
    let fewer = (writer.envelope)(view);
    if overflow(&fewer, limits.envelope_chars) > 0 && fewer.chars().count() >= out.chars().count() {
        *listed(view) = all;
        return;
    }
    *out = fewer;
}

fn failure_messages_to_first_line(view: &mut Shown<'_>, writer: &Writer, out: &mut String, limits: &PartialLimits) {
    shorten_failure_messages(view, writer, out, limits, |message, _, limits| {
        cut_to_first_line(message, limits.message_chars)
    });
}

fn cut_failure_messages(view: &mut Shown<'_>, writer: &Writer, out: &mut String, limits: &PartialLimits) {
    shorten_failure_messages(view, writer, out, limits, |message, over, _| {
        cut_first_line_by(message, over)
    });
}

/// Shortens the listed failed items' messages with `cut` (given how many
/// characters the envelope is still over), the last first, each only while
/// the envelope is still over. What each cut saves is measured on its item
/// alone, as the form writes it, so the envelope is written once, at the end.
fn shorten_failure_messages(
    view: &mut Shown<'_>,
    writer: &Writer,
    out: &mut String,
    limits: &PartialLimits,
    cut: fn(&mut Cut<'_>, usize, &PartialLimits) -> bool,
) {
    let mut over = overflow(out, limits.envelope_chars);
    let mut scratch = String::new();
    let mut measure = |failure: &ShownFailure<'_>| {
        scratch.clear();
        (writer.failure)(&mut scratch, failure);
        scratch.chars().count()
    };
    let listed = view.failed.listed;
    let mut changed = false;
    for failure in view.failed.entries[..listed].iter_mut().rev() {
        if over == 0 {
            break;
        }
        let before = measure(failure);
        let Some(message) = &mut failure.message else {
            continue;
        };
        if cut(message, over, limits) {
            over = over.saturating_sub(before.saturating_sub(measure(failure)));
            changed = true;
        }
    }
    if changed {
        *out = (writer.envelope)(view);
    }
}
