//! The caps every renderer applies (see `Limits`): what of an error an
//! envelope shows, and the cuts that bring a long envelope within its total.
//!
//! Each text is cut to `message_chars`, the lists to `actions` and `details`
//! items (the rest counted); then, only while the envelope is still longer
//! than `envelope_chars`, in this order: the details go (counted), the
//! actions go (counted), the listed contract changes go (counted), the
//! message is cut to its first line, the customer message is cut, and the
//! message's first line is cut further. The code, severity, recovery,
//! retry-after, category, retryable and correlation id are never dropped.
//!
//! Ours: the order of the cuts is the envelope format's rule (docs/size-caps.md).

use std::borrow::Cow;

use crate::count;
use crate::cut::{capped, Cut, Marker};
use crate::delta::{capped_delta, ContractDelta};
use crate::tool_error::limits::Limits;
use crate::tool_error::model::ToolError;
use crate::xml::replace_forbidden;

/// The least a cut of the total step leaves of the customer message or the
/// message, marker included: room for a marker and a few words.
const MIN_KEPT_CHARS: usize = Limits::MIN_MESSAGE_CHARS;

/// Listed details as shown: key and value, each cut to its cap.
type Details<'a> = Vec<(Cow<'a, str>, Cow<'a, str>)>;

/// An error as an envelope shows it, under its limits.
pub(crate) struct Capped<'a> {
    /// The fields shown as set: severity, retry-after, category, retryable.
    pub error: &'a ToolError,
    pub code: Cow<'a, str>,
    pub message: Cut<'a>,
    pub recovery: Option<Cow<'a, str>>,
    pub actions: Vec<Cow<'a, str>>,
    pub omitted_actions: usize,
    pub details: Details<'a>,
    pub omitted_details: usize,
    pub customer_message: Option<Cut<'a>>,
    pub correlation_id: Option<Cow<'a, str>>,
    pub deltas: Vec<Cow<'a, ContractDelta>>,
    pub omitted_deltas: usize,
}

/// Renders `error` with `write` under its limits, the total cap included.
pub(crate) fn render_capped(error: &ToolError, write: fn(&Capped<'_>) -> String) -> String {
    let limits = error.limits_or_default();
    let mut view = Capped::new(error, limits);
    let mut out = write(&view);
    let steps: [fn(&mut Capped<'_>, usize, &Limits) -> bool; 6] = [
        drop_details,
        drop_actions,
        drop_deltas,
        message_first_line,
        cut_customer_message,
        cut_message_further,
    ];
    for step in steps {
        let over = overflow(&out, limits.envelope_chars);
        if over == 0 {
            break;
        }
        if step(&mut view, over, &limits) {
            out = write(&view);
        }
    }
    out
}

/// How many characters `out` is over `cap`; its bytes are counted only when
/// they are over.
pub(crate) fn overflow(out: &str, cap: usize) -> usize {
    if out.len() <= cap {
        return 0;
    }
    out.chars().count().saturating_sub(cap)
}

impl<'a> Capped<'a> {
    fn new(error: &'a ToolError, limits: Limits) -> Capped<'a> {
        let marker = Marker::of(error.locale, error.localize_steering);
        let max = limits.message_chars;
        let text = |t: &'a str| capped(t, max, marker);
        let (actions, omitted_actions) = error.listed_actions();
        let (deltas, omitted_deltas) = error.listed_deltas();
        let (details, omitted_details) = listed_details(error, max, marker);
        Capped {
            error,
            code: text(&error.code),
            message: Cut::capped(&error.message, max, marker),
            recovery: error.recovery().map(text),
            actions: actions.iter().map(|a| text(a)).collect(),
            omitted_actions,
            details,
            omitted_details,
            customer_message: error.customer_message_text().map(|t| Cut::capped(t, max, marker)),
            correlation_id: error.correlation_id_text().map(text),
            deltas: deltas.into_iter().map(|d| capped_delta(d, max, marker)).collect(),
            omitted_deltas,
        }
    }
}

/// The listed details with their texts cut. A key that would repeat a key
/// already listed as an envelope writes it (two long keys alike up to the
/// cut, or alike once the XML form replaces the characters XML forbids:
/// `"\0"` and `"\u{1}"` are both U+FFFD there) is not listed but counted,
/// so no form holds a key twice and every form lists the same details.
fn listed_details<'a>(error: &'a ToolError, max: usize, marker: Marker) -> (Details<'a>, usize) {
    let (listed, mut omitted) = error.listed_details();
    let mut shown: Details<'a> = Vec::with_capacity(listed.len());
    let mut altered_keys = 0;
    for (key, value) in listed {
        let key = capped(key, max, marker);
        let is_altered = matches!(key, Cow::Owned(_)) || matches!(replace_forbidden(&key), Cow::Owned(_));
        // Keys arrive unique, so only a key cut or replaced can repeat another.
        let repeats = (is_altered || altered_keys > 0)
            && shown
                .iter()
                .any(|(k, _)| replace_forbidden(k) == replace_forbidden(&key));
        if repeats {
            omitted += 1;
            continue;
        }
        altered_keys += usize::from(is_altered);
        shown.push((key, capped(value, max, marker)));
    }
    (shown, omitted)
}

fn drop_details(view: &mut Capped<'_>, _: usize, _: &Limits) -> bool {
    view.omitted_details = count::add(view.omitted_details, view.details.len());
    !std::mem::take(&mut view.details).is_empty()
}

fn drop_actions(view: &mut Capped<'_>, _: usize, _: &Limits) -> bool {
    view.omitted_actions = count::add(view.omitted_actions, view.actions.len());
    !std::mem::take(&mut view.actions).is_empty()
}

fn drop_deltas(view: &mut Capped<'_>, _: usize, _: &Limits) -> bool {
    view.omitted_deltas = count::add(view.omitted_deltas, view.deltas.len());
    !std::mem::take(&mut view.deltas).is_empty()
}

/// The message cut to its first line (up to the first CR or LF), when that
/// makes it shorter.
fn message_first_line(view: &mut Capped<'_>, _: usize, limits: &Limits) -> bool {
    cut_to_first_line(&mut view.message, limits.message_chars)
}

/// A text cut to its first line (up to its first CR or LF), marked, within
/// `max` characters, when that makes it shorter: the total step the tool
/// error's message and a partial result's failure messages share.
pub(crate) fn cut_to_first_line(text: &mut Cut<'_>, max: usize) -> bool {
    let current = text.reread();
    let Some(end) = current.kept.find(['\n', '\r']) else {
        return false;
    };
    let first_line = current.kept[..end].chars().count();
    let kept = first_line + current.kept[end..].chars().count();
    replace_if_shorter(text, current.shortened(kept, max, first_line))
}

fn cut_customer_message(view: &mut Capped<'_>, over: usize, _: &Limits) -> bool {
    match &mut view.customer_message {
        Some(text) => cut_by(text, over, usize::MAX),
        None => false,
    }
}

fn cut_message_further(view: &mut Capped<'_>, over: usize, _: &Limits) -> bool {
    cut_first_line_by(&mut view.message, over)
}

/// Shortens a text by `over` characters, keeping at most its first line,
/// but not below `MIN_KEPT_CHARS`.
pub(crate) fn cut_first_line_by(text: &mut Cut<'_>, over: usize) -> bool {
    let current = text.reread();
    let first_line = current
        .kept
        .find(['\n', '\r'])
        .map_or(usize::MAX, |end| current.kept[..end].chars().count());
    cut_by(text, over, first_line)
}

/// Shortens a text by `over` characters, but not below `MIN_KEPT_CHARS`.
/// Each character cut takes at least one character off the envelope (an
/// escape only adds), so one cut is enough unless the floor stops it.
pub(crate) fn cut_by(text: &mut Cut<'_>, over: usize, keep_at_most: usize) -> bool {
    // The length as shown now, before a marker it ends with is read back:
    // that marker may be in the other language, of another length.
    let shown = text.chars();
    let current = text.reread();
    let kept = current.kept.chars().count();
    let target = shown.saturating_sub(over).max(MIN_KEPT_CHARS);
    replace_if_shorter(text, current.shortened(kept, target, keep_at_most))
}

fn replace_if_shorter<'a>(text: &mut Cut<'a>, shorter: Cut<'a>) -> bool {
    if shorter.chars() < text.chars() {
        *text = shorter;
        true
    } else {
        false
    }
}
