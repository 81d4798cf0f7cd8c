//! Reading an upstream's `Retry-After` header (RFC 9110, section 10.2.3):
//! delta-seconds, or an HTTP-date in any of the three forms a recipient
//! must accept (IMF-fixdate, the obsolete RFC 850 form and asctime's).
//!
//! The header is upstream text: a value that fits none of the forms is
//! reported as unreadable, never as an error of the call, so garbage from an
//! upstream cannot break the error path that is reporting its failure.

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
    /// Four digits; for the RFC 850 form, the two the header gave.
    year: i64,
    two_digit_year: bool,
    month: i64,
    day: i64,
    /// Seconds into the day (a leap second's 60 counts as the next second).
    second_of_day: i64,
}

/// Reads a header value; `None` when it is none of the forms.
///
/// Names and `GMT` are case-sensitive, as RFC 9110 defines HTTP-date. The
/// weekday must be a real weekday name of the form's kind but is not checked
/// against the date: the date alone says when to retry.
pub(crate) fn read_retry_after(value: &str) -> Option<RetryAfter> {
    let value = value.trim_matches([' ', '\t']);
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // All digits: only its size can fail to parse, and a size beyond u32
        // seconds (136 years) means "not in any useful time".
        let seconds = value.parse::<u32>().unwrap_or(u32::MAX);
        return Some(RetryAfter::Seconds(seconds));
    }
    imf_fixdate(value)
        .or_else(|| rfc850_date(value))
        .or_else(|| asctime_date(value))
        .map(RetryAfter::Date)
}

impl HttpDate {
    /// Seconds from `now` (Unix seconds, may have a fraction) until this
    /// date, rounded up; a date already past is 0.
    pub(crate) fn seconds_after(&self, now: f64) -> u32 {
        let year = if self.two_digit_year {
            rfc850_year(self.year, now)
        } else {
            self.year
        };
        let at = days_from_civil(year, self.month, self.day) * 86_400 + self.second_of_day;
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

/// RFC 9110: a two-digit year that would be more than 50 years in the
/// future is the most recent past year with the same last two digits.
fn rfc850_year(two_digits: i64, now: f64) -> i64 {
    let this_year = civil_year((now / 86_400.0).floor() as i64);
    let mut year = this_year - this_year.rem_euclid(100) + two_digits;
    if year > this_year + 50 {
        year -= 100;
    }
    year
}

const SHORT_DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LONG_DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `Sun, 06 Nov 1994 08:49:37 GMT`
fn imf_fixdate(text: &str) -> Option<HttpDate> {
    let (day_name, rest) = text.split_once(", ")?;
    SHORT_DAYS.contains(&day_name).then_some(())?;
    let mut parts = rest.split(' ');
    let day = digits(parts.next()?, 2)?;
    let month = month(parts.next()?)?;
    let year = digits(parts.next()?, 4)?;
    let second_of_day = time_of_day(parts.next()?)?;
    (parts.next()? == "GMT" && parts.next().is_none()).then_some(())?;
    date(year, false, month, day, second_of_day)
}

/// `Sunday, 06-Nov-94 08:49:37 GMT`
fn rfc850_date(text: &str) -> Option<HttpDate> {
    let (day_name, rest) = text.split_once(", ")?;
    LONG_DAYS.contains(&day_name).then_some(())?;
    let mut parts = rest.split(' ');
    let mut date2 = parts.next()?.split('-');
    let day = digits(date2.next()?, 2)?;
    let month = month(date2.next()?)?;
    let year = digits(date2.next()?, 2)?;
    date2.next().is_none().then_some(())?;
    let second_of_day = time_of_day(parts.next()?)?;
    (parts.next()? == "GMT" && parts.next().is_none()).then_some(())?;
    date(year, true, month, day, second_of_day)
}

/// `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
fn asctime_date(text: &str) -> Option<HttpDate> {
    let day_name = text.get(..4)?.strip_suffix(' ')?;
    SHORT_DAYS.contains(&day_name).then_some(())?;
    let month = month(text.get(4..7)?)?;
    let day_text = text.get(7..10)?.strip_prefix(' ')?;
    let day = match day_text.strip_prefix(' ') {
        Some(one) => digits(one, 1)?,
        None => digits(day_text, 2)?,
    };
    let rest = text.get(10..)?.strip_prefix(' ')?;
    let (time, year) = rest.split_once(' ')?;
    date(digits(year, 4)?, false, month, day, time_of_day(time)?)
}

/// `08:49:37` as seconds into the day.
fn time_of_day(text: &str) -> Option<i64> {
    let mut parts = text.split(':');
    let hour = digits(parts.next()?, 2)?;
    let minute = digits(parts.next()?, 2)?;
    let second = digits(parts.next()?, 2)?;
    let valid = parts.next().is_none() && hour <= 23 && minute <= 59 && second <= 60;
    valid.then_some(hour * 3600 + minute * 60 + second)
}

fn month(text: &str) -> Option<i64> {
    MONTHS.iter().position(|m| *m == text).map(|i| i as i64 + 1)
}

/// Exactly `len` ASCII digits.
fn digits(text: &str, len: usize) -> Option<i64> {
    let valid = text.len() == len && text.bytes().all(|b| b.is_ascii_digit());
    valid.then(|| text.parse().ok()).flatten()
}

/// The date if the day exists in its month. An RFC 850 year's century is not
/// known yet: its 29 February is accepted in any year divisible by four (the
/// one miss, 2100, would be read as 1 March: harmless for a wait).
fn date(year: i64, two_digit_year: bool, month: i64, day: i64, second_of_day: i64) -> Option<HttpDate> {
    let leap = if two_digit_year {
        year % 4 == 0
    } else {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    };
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=days_in_month).contains(&day).then_some(HttpDate {
        year,
        two_digit_year,
        month,
        day,
        second_of_day,
    })
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

/// The year of a day counted from 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_year(days: i64) -> i64 {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let year = year_of_era + era * 400;
    if month_index >= 10 {
        year + 1
    } else {
        year
    }
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
        let date = |text| match read_retry_after(text) {
            Some(RetryAfter::Date(d)) => d,
            other => panic!("{other:?}"),
        };
        assert_eq!(rfc850_year(date("Monday, 01-Jan-76 00:00:00 GMT").year, now_2026), 2076);
        assert_eq!(rfc850_year(date("Monday, 01-Jan-77 00:00:00 GMT").year, now_2026), 1977);
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
            assert_eq!(civil_year(days_from_civil(y, m, d)), y);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
    }
}
