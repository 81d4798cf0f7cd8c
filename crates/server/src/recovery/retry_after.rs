//! Reading an upstream's `Retry-After` header (RFC 9110, section 10.2.3):
//! delta-seconds, or an HTTP-date in any of the three forms a recipient
//! must accept (IMF-fixdate, the obsolete RFC 850 form and asctime's).
//!
//! The header is upstream text: a value that fits none of the forms is
//! reported as unreadable, never as an error of the call, so garbage from an
//! upstream cannot break the error path that is reporting its failure.
//!
//! The dates are read by the `httpdate` crate, with its rules: names and
//! `GMT` case-sensitive, as RFC 9110 defines HTTP-date; the day must exist in
//! its month; hours 00 to 23, minutes and seconds 00 to 59; years 1970 to
//! 9999. Where those rules differ from the hand-written reader this replaced,
//! the differences were decided so:
//!
//! - The RFC 850 form's two-digit year: httpdate uses a fixed pivot (70 to 99
//!   are the 1900s, 00 to 69 the 2000s), while RFC 9110 (section 5.6.7) places
//!   it against the current time: a year more than 50 years in the future is
//!   the most recent past year with the same last two digits. The vectors
//!   (`upstream-errors.json`) hold that rule (in 2026, `77` is 1977 and `76`
//!   is 2076), so it stays ours: httpdate reads the date, and
//!   [`HttpDate::seconds_after`] moves it to the century `now` says, keeping
//!   its month, day and time. Such a 29 February moved to a year that has
//!   none (2100) is 1 March, as before: harmless for a wait.
//! - The weekday: httpdate requires it to be the date's. That stands for
//!   IMF-fixdate and asctime (new: a wrong weekday makes the value
//!   unreadable; it used to be read by its date alone). For the RFC 850 form
//!   httpdate checks it against the date in its own century, which is the
//!   wrong one wherever our rule places the year in the other (2070 to 2076
//!   in 2026: the vectors' `Wednesday, 01-Jan-76` is a Wednesday in 2076, not
//!   in 1976), and the right century is only known once `now` is; so there
//!   the weekday must be one of the seven long names but is not checked, as
//!   before (the reader hands httpdate the name it expects).
//! - A leap second (`:60`) is now unreadable (it used to count as the next
//!   second), and so is a year before 1970 in the four-digit forms (it used
//!   to be a date already past, a wait of 0). Neither is an instant a Unix
//!   clock has.
//! - Around the value only spaces and tabs (RFC 9110's optional whitespace)
//!   are trimmed, as before: httpdate would also trim line breaks, which
//!   stay unreadable here.

use std::time::{SystemTime, UNIX_EPOCH};

/// What a `Retry-After` value says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RetryAfter {
    /// Wait this many seconds (beyond `u32::MAX` is held at `u32::MAX`).
    Seconds(u32),
    /// Retry at this time.
    Date(HttpDate),
}

/// An HTTP-date, whose RFC 850 two-digit year can only be placed in a
/// century once the current time is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HttpDate {
    /// Unix seconds, as httpdate read the date: for the RFC 850 form, with
    /// the year in httpdate's fixed century (1970 to 2069).
    at: i64,
    /// The RFC 850 form: the century is placed against `now`.
    two_digit_year: bool,
}

/// Reads a header value; `None` when it is none of the forms.
pub(crate) fn read_retry_after(value: &str) -> Option<RetryAfter> {
    let value = value.trim_matches([' ', '\t']);
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // All digits: only its size can fail to parse, and a size beyond u32
        // seconds (136 years) means "not in any useful time".
        let seconds = value.parse::<u32>().unwrap_or(u32::MAX);
        return Some(RetryAfter::Seconds(seconds));
    }
    // httpdate trims any whitespace; only spaces and tabs may surround a value.
    if value.trim() != value {
        return None;
    }
    let (read, two_digit_year) = match rfc850_rest(value) {
        Some(rest) => (any_weekday(rest)?, true),
        None => (httpdate::parse_http_date(value).ok()?, false),
    };
    let at = read.duration_since(UNIX_EPOCH).ok()?.as_secs();
    Some(RetryAfter::Date(HttpDate {
        at: i64::try_from(at).ok()?,
        two_digit_year,
    }))
}

impl HttpDate {
    /// Seconds from `now` (Unix seconds, may have a fraction) until this
    /// date, rounded up; a date already past is 0.
    pub(crate) fn seconds_after(&self, now: f64) -> u32 {
        let at = if self.two_digit_year {
            in_century_of(self.at, now)
        } else {
            self.at
        };
        let wait = (at as f64 - now).ceil();
        if wait <= 0.0 {
            0
        } else if wait >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            wait as u32
        }
    }
}

/// An RFC 850 date (Unix seconds, httpdate's century) moved to the century
/// RFC 9110's rule gives it at `now`: same month, day and time of day.
fn in_century_of(at: i64, now: f64) -> i64 {
    let (year, month, day) = civil_from_days(at.div_euclid(86_400));
    let year = rfc850_year(year.rem_euclid(100), now);
    days_from_civil(year, month, day) * 86_400 + at.rem_euclid(86_400)
}

/// RFC 9110: a two-digit year that would be more than 50 years in the
/// future is the most recent past year with the same last two digits.
fn rfc850_year(two_digits: i64, now: f64) -> i64 {
    let (this_year, _, _) = civil_from_days((now / 86_400.0).floor() as i64);
    let mut year = this_year - this_year.rem_euclid(100) + two_digits;
    if year > this_year + 50 {
        year -= 100;
    }
    year
}

const LONG_DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// What follows the weekday of an RFC 850 date (`Sunday, 06-Nov-94 …`):
/// only that form starts with a long weekday name.
fn rfc850_rest(value: &str) -> Option<&str> {
    let (name, rest) = value.split_once(", ")?;
    LONG_DAYS.contains(&name).then_some(rest)
}

/// The RFC 850 date httpdate reads with the weekday it expects for its own
/// century, which is not necessarily ours (module doc): the weekday is not
/// checked in this form.
fn any_weekday(rest: &str) -> Option<SystemTime> {
    // httpdate 1.0.3 does not look at the space between date and time in
    // this form (`06-Nov-94x08:49:37 GMT` would pass): checked here.
    if rest.as_bytes().get(9) != Some(&b' ') {
        return None;
    }
    LONG_DAYS
        .iter()
        .find_map(|name| httpdate::parse_http_date(&format!("{name}, {rest}")).ok())
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The year, month and day of a day counted from 1970-01-01 (Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400;
    (if month <= 2 { year + 1 } else { year }, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 1994-11-06T08:49:37Z, RFC 9110's example.
    const EXAMPLE: f64 = 784_111_777.0;

    fn wait(value: &str, now: f64) -> Option<u32> {
        match read_retry_after(value)? {
            RetryAfter::Seconds(s) => Some(s),
            RetryAfter::Date(d) => Some(d.seconds_after(now)),
        }
    }

    #[test]
    fn the_three_date_forms_name_the_same_instant() {
        for form in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(wait(form, EXAMPLE - 90.0), Some(90), "{form}");
            assert_eq!(wait(form, EXAMPLE + 5.0), Some(0), "{form}");
        }
    }

    #[test]
    fn a_fraction_of_now_rounds_the_wait_up() {
        assert_eq!(wait("Sun, 06 Nov 1994 08:49:37 GMT", EXAMPLE - 89.5), Some(90));
    }

    #[test]
    fn delta_seconds_and_garbage() {
        assert_eq!(wait(" 120\t", 0.0), Some(120));
        assert_eq!(wait("99999999999999999999", 0.0), Some(u32::MAX));
        for garbage in [
            "",
            "soon",
            "-5",
            "1.5",
            "12 s",
            "sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(read_retry_after(garbage), None, "{garbage:?}");
        }
    }

    #[test]
    fn an_rfc850_year_more_than_50_years_ahead_is_in_the_past_century() {
        let now_2026 = days_from_civil(2026, 6, 1) as f64 * 86_400.0;
        assert_eq!(rfc850_year(76, now_2026), 2076);
        assert_eq!(rfc850_year(77, now_2026), 1977);
        // Through the reader (httpdate reads 76 as 1976), and with a weekday
        // that is neither year's: the RFC 850 weekday is not checked.
        let at = |y, m, d| days_from_civil(y, m, d) as f64 * 86_400.0;
        let until = |text| wait(text, now_2026).map(f64::from);
        assert_eq!(until("Monday, 01-Jan-76 00:00:00 GMT"), Some(at(2076, 1, 1) - now_2026));
        assert_eq!(until("Monday, 01-Jan-77 00:00:00 GMT"), Some(0.0));
        assert_eq!(wait("Monday, 01-Jan-77 00:00:00 GMT", at(1976, 12, 31)), Some(86_400));
        // A 29 February moved to a year without one is 1 March.
        let now_2100 = at(2100, 1, 15);
        assert_eq!(
            wait("Tuesday, 29-Feb-00 00:00:00 GMT", now_2100).map(f64::from),
            Some(at(2100, 3, 1) - now_2100)
        );
    }

    #[test]
    fn httpdate_rules_decided_in_the_module_doc() {
        // The weekday of the four-digit forms must be the date's.
        assert_eq!(read_retry_after("Mon, 06 Nov 1994 08:49:37 GMT"), None);
        assert_eq!(read_retry_after("Mon Nov  6 08:49:37 1994"), None);
        // The RFC 850 weekday must still be a long weekday name, and the
        // date and time are apart by a space.
        assert_eq!(read_retry_after("Sunday, 06-Nov-94x08:49:37 GMT"), None);
        assert_eq!(read_retry_after("Sun, 06-Nov-94 08:49:37 GMT"), None);
        assert_eq!(read_retry_after("Someday, 06-Nov-94 08:49:37 GMT"), None);
        // No leap second; no year before 1970.
        assert_eq!(read_retry_after("Sun, 06 Nov 1994 08:49:60 GMT"), None);
        assert_eq!(read_retry_after("Wed, 31 Dec 1969 23:59:59 GMT"), None);
        // Only spaces and tabs around the value.
        assert_eq!(wait(" \tSun, 06 Nov 1994 08:49:37 GMT\t ", EXAMPLE - 1.0), Some(1));
        assert_eq!(read_retry_after("Sun, 06 Nov 1994 08:49:37 GMT\r\n"), None);
        // The last readable second.
        assert_eq!(wait("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_790.0), Some(9));
    }

    #[test]
    fn civil_dates_round_trip() {
        for (y, m, d) in [
            (1970, 1, 1),
            (2000, 2, 29),
            (1969, 12, 31),
            (2026, 12, 31),
            (2100, 3, 1),
        ] {
            assert_eq!(civil_from_days(days_from_civil(y, m, d)), (y, m, d));
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
    }
}
