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

/// Integer digits shown plain before the exponent form takes over.
const PLAIN_INTEGER_DIGITS: i64 = 30;

/// The canonical spelling of a JSON number's text; anything else unchanged.
pub(crate) fn canonical_number(text: &str) -> Cow<'_, str> {
    match parts(text) {
        Some((negative, digits, exponent)) => Cow::Owned(spell(negative, &digits, exponent)),
        None => Cow::Borrowed(text),
    }
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
    use super::canonical_number;

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
