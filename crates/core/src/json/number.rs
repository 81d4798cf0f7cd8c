//! One spelling for every JSON number, whatever writer sent it, for the
//! field lines a model reads and for the canonical form (`Value::into_canonical`): `10001.0` (serde, Python's float) and `10001` (JavaScript) are
//! one value, and so are `1e21`, `1e+21` and `1000000000000000000000`. The
//! model must read the same line from every host, so the core writes each
//! number from its exact decimal digits, as ECMAScript's Number::toString
//! lays them out: plain from 10^-6 up to 10^21, an exponent beyond. Integers
//! stay plain up to 30 digits, and at any length when every digit was
//! written (a JavaScript host cannot send such digits, a Python or Rust host
//! sends them exact). No float is involved, so no digit is lost or invented.
//!
//! By hand: serde_json writes an f64 its own way (`1e21`, `10001.0`), and
//! converting to a float would round the integers beyond 2^53 that a
//! Python or Rust host sends exactly.

use std::borrow::Cow;
use std::cmp::Ordering;

/// Integer digits shown plain before the exponent form takes over.
const PLAIN_INTEGER_DIGITS: i64 = 30;

/// The canonical spelling of a JSON number's text; anything else unchanged.
pub(crate) fn canonical_number(text: &str) -> Cow<'_, str> {
    match parts(text) {
        Some((negative, digits, exponent)) => Cow::Owned(spell(negative, &digits, exponent)),
        None => Cow::Borrowed(text),
    }
}

/// How two JSON numbers' exact values compare, from their digits: no float
/// rounds `0.1` against `0.10000000000000001`, and `1e400` still compares.
/// `None` when either text is not a JSON number.
pub(crate) fn compare_numbers(a: &str, b: &str) -> Option<Ordering> {
    let (a, b) = (parts(a)?, parts(b)?);
    let sign = |(negative, digits, _): &(bool, String, i64)| match (*negative, digits == "0") {
        (_, true) => 0,
        (true, false) => -1,
        (false, false) => 1,
    };
    let order = sign(&a).cmp(&sign(&b));
    if order != Ordering::Equal || sign(&a) == 0 {
        return Some(order);
    }
    // Where the decimal point falls, counted from the first digit; then the
    // digits themselves, which have no trailing zeros, so text order is
    // numeric order.
    let point = |(_, digits, power): &(bool, String, i64)| (digits.len() as i64).saturating_add(*power);
    let magnitude = point(&a).cmp(&point(&b)).then_with(|| a.1.cmp(&b.1));
    Some(if a.0 { magnitude.reverse() } else { magnitude })
}

/// The nearest `f64` to a JSON number, `None` past its range (`1e400`).
/// Exact (one IEEE rounding) for up to 15 significant digits and a power of
/// ten within 22, which covers timestamps and the like; beyond that the
/// first 17 digits scaled, within an ulp or two. Written here because
/// `str::parse::<f64>` brings core's correctly rounding parser and its
/// tables, about 15 KB of the component, for the few numbers the core
/// does arithmetic on.
pub(crate) fn approximate_f64(text: &str) -> Option<f64> {
    let (negative, digits, power) = parts(text)?;
    let kept = digits.len().min(17);
    let power = power.saturating_add((digits.len() - kept) as i64);
    let mantissa = digits[..kept].parse::<u64>().ok()? as f64;
    let scaled = match power {
        0 => mantissa,
        1..=22 => mantissa * 10f64.powi(power as i32),
        -22..=-1 => mantissa / 10f64.powi(-power as i32),
        _ => mantissa * 10f64.powi(power.clamp(-400, 400) as i32),
    };
    let value = if negative { -scaled } else { scaled };
    value.is_finite().then_some(value)
}

/// `(negative, significant digits without leading or trailing zeros,
/// power of ten of the last digit)` of a JSON number; `None` for anything else.
fn parts(text: &str) -> Option<(bool, String, i64)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], rest[at + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let numeric = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !numeric(whole) || !numeric(fraction) || (mantissa.contains('.') && fraction.is_empty()) {
        return None;
    }
    let all = format!("{whole}{fraction}");
    let significant = all.trim_start_matches('0');
    let digits = significant.trim_end_matches('0');
    if digits.is_empty() {
        return Some((false, "0".into(), 0)); // -0 and 0.000 read as 0
    }
    let trailing = (significant.len() - digits.len()) as i64;
    let power = exponent.saturating_sub(fraction.len() as i64).saturating_add(trailing);
    Some((negative, digits.to_owned(), power))
}

fn spell(negative: bool, digits: &str, power: i64) -> String {
    let k = digits.len() as i64;
    // ECMAScript's n: where the decimal point falls, counted from the first digit.
    let n = k.saturating_add(power);
    let sign = if negative { "-" } else { "" };
    // An integer whose digits were all written stays plain at any length
    // (the cut shows its length); zeros only an exponent implied are written
    // out up to 30 digits.
    if power == 0 || (power > 0 && n <= PLAIN_INTEGER_DIGITS) {
        return format!("{sign}{digits}{}", "0".repeat(power as usize));
    }
    if 0 < n && n <= 21 {
        let (whole, fraction) = digits.split_at(n as usize);
        return format!("{sign}{whole}.{fraction}");
    }
    if -6 < n && n <= 0 {
        return format!("{sign}0.{}{digits}", "0".repeat(n.unsigned_abs() as usize));
    }
    let e = n.saturating_sub(1);
    let e_sign = if e < 0 { '-' } else { '+' };
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() { "" } else { "." };
    format!("{sign}{first}{point}{rest}e{e_sign}{}", e.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering::{Equal, Greater, Less};

    use super::{approximate_f64, canonical_number, compare_numbers};

    #[test]
    fn numbers_compare_by_their_exact_values() {
        let cases = [
            ("1", "1.0", Equal),
            ("-0", "0.000", Equal),
            ("0.1", "0.10000000000000001", Less),
            ("9007199254740993", "9007199254740992", Greater),
            ("1e400", "1e399", Greater),
            ("-1e400", "-1e399", Less),
            ("-1", "0", Less),
            ("0", "-0.5", Greater),
            ("12", "1.3e1", Less),
            ("0.123", "0.12", Greater),
            ("-2.5e-10", "-2.5e-11", Less),
            ("150", "1.5e2", Equal),
        ];
        for (a, b, order) in cases {
            assert_eq!(compare_numbers(a, b), Some(order), "{a} against {b}");
            assert_eq!(compare_numbers(b, a), Some(order.reverse()), "{b} against {a}");
        }
        assert_eq!(compare_numbers("1", "x"), None);
    }

    #[test]
    fn approximate_floats_are_exact_on_the_fast_path() {
        for text in [
            "0",
            "1700000000",
            "1700000000.5",
            "253402300799",
            "0.1",
            "-2.5e-10",
            "123.456e-2",
            "1e22",
            "3.14159",
        ] {
            assert_eq!(approximate_f64(text), text.parse::<f64>().ok(), "{text}");
        }
        let far = approximate_f64("1.2345678901234567890123e100").unwrap();
        assert!((far / 1.2345678901234568e100 - 1.0).abs() < 1e-15);
        assert_eq!(approximate_f64("1e400"), None);
        assert_eq!(approximate_f64("-1e400"), None);
        assert_eq!(approximate_f64("1e-400"), Some(0.0));
        assert_eq!(approximate_f64("a"), None);
    }

    #[test]
    fn every_writer_spelling_of_a_number_reads_alike() {
        let cases = [
            ("10001.0", "10001"),
            ("10001", "10001"),
            ("-0", "0"),
            ("0.000", "0"),
            ("1.50", "1.5"),
            ("1e21", "1000000000000000000000"),
            ("1e+21", "1000000000000000000000"),
            ("1E21", "1000000000000000000000"),
            ("1.5e3", "1500"),
            ("12345678901234567890123", "12345678901234567890123"),
            ("1e29", "100000000000000000000000000000"),
            (
                "1234567890123456789012345678901234567",
                "1234567890123456789012345678901234567",
            ),
            ("1e30", "1e+30"),
            ("1.25e31", "1.25e+31"),
            ("0.000001", "0.000001"),
            ("1e-7", "1e-7"),
            ("1e-07", "1e-7"),
            ("-2.5e-10", "-2.5e-10"),
            ("123.456e-2", "1.23456"),
            ("1234567890123456789012.5", "1.2345678901234567890125e+21"),
            ("1e999999999999999999999", "1e999999999999999999999"),
            ("true", "true"),
            ("'x'", "'x'"),
            ("1.", "1."),
        ];
        for (written, shown) in cases {
            assert_eq!(canonical_number(written), shown, "{written}");
        }
    }
}
