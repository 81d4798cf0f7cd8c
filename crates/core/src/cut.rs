//! Cutting one text to a number of characters (Unicode scalar values), on a
//! character boundary, the cut always marked with how much went:
//! `… [N characters cut]` appended to the kept prefix.
//!
//! A text that already ends with a marker (an envelope read back) counts as
//! cut already: cutting it further counts from its original length, and a
//! text within its cap is never touched, so rendering a capped envelope again
//! gives the same bytes.
//!
//! Ours: the marker and its counting are the envelope's wire format, and no
//! crate cuts text that way.

use std::borrow::Cow;

use crate::locale::Locale;

/// The language of a cut marker: English, since markers steer the model,
/// unless the spec asks for steering lines in its locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Marker(Locale);

/// What every marker starts with: U+2026, a space, a bracket.
const OPENING: &str = "… [";
/// The longest marker's length in bytes (20 digits, the longest words of
/// any catalog): where to look for one at a text's end.
const LONGEST_MARKER: usize = OPENING.len() + 20 + longest_words();

const fn longest_words() -> usize {
    let mut longest = 0;
    let mut i = 0;
    while i < Locale::ALL.len() {
        let words = Locale::ALL[i].words().steering.cut.len();
        if words > longest {
            longest = words;
        }
        i += 1;
    }
    longest
}

impl Marker {
    /// The marker of the lines that steer the model in every locale.
    pub const ENGLISH: Marker = Marker(Locale::En);

    /// The marker for an error's locale and `localizeSteering`.
    pub(crate) fn of(locale: Locale, localize_steering: bool) -> Marker {
        Marker(locale.steering(localize_steering))
    }

    fn words(self) -> &'static str {
        self.0.words().steering.cut
    }

    /// The marker's length in characters for `cut` characters cut.
    fn chars(self, cut: usize) -> usize {
        // `… [` is three characters; the words are ASCII.
        3 + digits(cut) + self.words().len()
    }

    fn push(self, out: &mut String, cut: usize) {
        out.push_str(OPENING);
        out.push_str(&cut.to_string());
        out.push_str(self.words());
    }
}

fn digits(mut n: usize) -> usize {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

/// A text as an envelope shows it: a prefix of the original, then, when
/// anything was cut, the marker saying how many characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut<'a> {
    /// The part of the original shown.
    pub kept: &'a str,
    /// Characters of the original not shown; 0 when it is shown whole.
    pub cut: usize,
    pub marker: Marker,
}

impl<'a> Cut<'a> {
    /// The text shown whole.
    pub(crate) fn whole(text: &'a str, marker: Marker) -> Cut<'a> {
        Cut {
            kept: text,
            cut: 0,
            marker,
        }
    }

    /// `text` in at most `max` characters, marker included.
    ///
    /// A text whose byte length is within `max` is not even counted; a longer
    /// one is walked `max` characters in, and only one over the cap is
    /// counted to its end (once).
    pub(crate) fn capped(text: &'a str, max: usize, marker: Marker) -> Cut<'a> {
        if text.len() <= max {
            return Cut::whole(text, marker);
        }
        let Some((at, _)) = text.char_indices().nth(max) else {
            return Cut::whole(text, marker);
        };
        let chars = max + text[at..].chars().count();
        let read = Cut::read(text, marker);
        // A marker is ASCII but for its one three-byte `…`.
        let kept_chars = match read.cut {
            0 => chars,
            _ => chars - (text.len() - read.kept.len() - 2),
        };
        read.shortened(kept_chars, max, usize::MAX)
    }

    /// The text with a trailing marker taken as a cut already made.
    pub(crate) fn read(text: &'a str, marker: Marker) -> Cut<'a> {
        let whole = Cut::whole(text, marker);
        if !text.ends_with(']') {
            return whole;
        }
        let mut from = text.len().saturating_sub(LONGEST_MARKER);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let Some(at) = text[from..].rfind(OPENING).map(|at| from + at) else {
            return whole;
        };
        let rest = &text[at + OPENING.len()..];
        // A marker of any locale counts: a text is read back whatever its spec's locale.
        let Some(number) = Locale::ALL
            .iter()
            .find_map(|locale| rest.strip_suffix(locale.words().steering.cut))
        else {
            return whole;
        };
        let canonical = !number.is_empty() && !number.starts_with('0') && number.bytes().all(|b| b.is_ascii_digit());
        match number.parse::<usize>() {
            Ok(cut) if canonical => Cut {
                kept: &text[..at],
                cut,
                marker,
            },
            _ => whole,
        }
    }

    /// Takes a marker at the end of a text shown whole as a cut already made.
    pub(crate) fn reread(self) -> Cut<'a> {
        if self.cut == 0 {
            Cut::read(self.kept, self.marker)
        } else {
            self
        }
    }

    /// The length in characters as shown, marker included.
    pub(crate) fn chars(&self) -> usize {
        let kept = self.kept.chars().count();
        if self.cut == 0 {
            kept
        } else {
            kept + self.marker.chars(self.cut)
        }
    }

    /// The longest cut showing at most `max` characters, marker included,
    /// that keeps at most `keep_at_most` characters; `kept_chars` is the
    /// length of `kept`. The same cut when it already fits.
    pub(crate) fn shortened(self, kept_chars: usize, max: usize, keep_at_most: usize) -> Cut<'a> {
        let shown = |kept: usize, cut: usize| if cut == 0 { kept } else { kept + self.marker.chars(cut) };
        if keep_at_most >= kept_chars && shown(kept_chars, self.cut) <= max {
            return self;
        }
        let total = kept_chars + self.cut;
        // Shown length grows with the characters kept (one more kept is at
        // most one digit fewer cut), so the first digit count that fits
        // gives the most that can be kept.
        let words = self.marker.chars(0) - 1;
        let fits = (1..=20).find_map(|d| {
            let keep = max.checked_sub(words + d)?;
            (digits(total.saturating_sub(keep)) <= d).then_some(keep)
        });
        let keep = fits.unwrap_or(0).min(keep_at_most).min(kept_chars);
        let at = self.kept.char_indices().nth(keep).map_or(self.kept.len(), |(at, _)| at);
        Cut {
            kept: &self.kept[..at],
            cut: total - keep,
            marker: self.marker,
        }
    }

    /// The text as shown: borrowed when whole, the kept prefix and marker otherwise.
    pub(crate) fn text(&self) -> Cow<'a, str> {
        if self.cut == 0 {
            return Cow::Borrowed(self.kept);
        }
        let mut out = String::with_capacity(self.kept.len() + LONGEST_MARKER);
        out.push_str(self.kept);
        self.marker.push(&mut out, self.cut);
        Cow::Owned(out)
    }
}

/// `text` in at most `max` characters, marker included, as shown.
pub fn capped(text: &str, max: usize, marker: Marker) -> Cow<'_, str> {
    Cut::capped(text, max, marker).text()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(text: &str, max: usize) -> String {
        capped(text, max, Marker::ENGLISH).into_owned()
    }

    #[test]
    fn a_text_within_its_cap_is_shown_whole() {
        assert_eq!(cap("short", 40), "short");
        // 40 characters in 120 bytes: within the cap though longer in bytes.
        let cjk = "漢".repeat(40);
        assert_eq!(cap(&cjk, 40), cjk);
    }

    #[test]
    fn a_longer_text_is_cut_to_exactly_its_cap_marker_included() {
        let text = "x".repeat(100);
        let shown = cap(&text, 40);
        assert_eq!(shown, format!("{}… [81 characters cut]", "x".repeat(19)));
        assert_eq!(shown.chars().count(), 40);
    }

    #[test]
    fn the_marker_length_follows_the_digits_of_the_count() {
        // 99 cut needs two digits, 100 three: the kept prefix gives way.
        for len in 100..1200 {
            let shown = cap(&"y".repeat(len), 60);
            assert_eq!(shown.chars().count(), 60, "{len}");
            let read = Cut::read(&shown, Marker::ENGLISH);
            assert_eq!(read.kept.len() + read.cut, len, "{len}");
        }
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        let text = "😀".repeat(100);
        let shown = cap(&text, 40);
        assert_eq!(shown, format!("{}… [81 characters cut]", "😀".repeat(19)));
    }

    #[test]
    fn a_capped_text_is_not_cut_again_and_a_recut_counts_from_the_original() {
        let text = "z".repeat(1000);
        let once = cap(&text, 100);
        assert_eq!(cap(&once, 100), once);
        let again = cap(&once, 50);
        assert_eq!(again, format!("{}… [972 characters cut]", "z".repeat(28)));
    }

    #[test]
    fn only_a_well_formed_marker_is_read_as_one() {
        for text in [
            "a… [012 characters cut]",
            "a… [ characters cut]",
            "a… [1x characters cut]",
            "a [5 characters cut]",
        ] {
            assert_eq!(Cut::read(text, Marker::ENGLISH).cut, 0, "{text}");
        }
        let read = Cut::read("abc… [5 caracteres cortados]", Marker::ENGLISH);
        assert_eq!((read.kept, read.cut), ("abc", 5));
    }

    #[test]
    fn the_portuguese_marker() {
        let shown = capped(&"p".repeat(100), 40, Marker::of(Locale::PtBr, true)).into_owned();
        assert_eq!(shown, format!("{}… [86 caracteres cortados]", "p".repeat(14)));
    }

    #[test]
    fn shortened_keeps_at_most_what_it_is_told() {
        let cut = Cut::whole("first line\nsecond line", Marker::ENGLISH);
        let first = cut.shortened(22, 40, 10);
        assert_eq!(first.text(), "first line… [12 characters cut]");
    }
}
