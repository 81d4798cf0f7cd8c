//! Counts an envelope states: how many actions, details, contract changes or
//! items it left out of a list.
//!
//! One bound in every host: a count is at most [`MAX_COUNT`], the largest a
//! 32-bit component's `usize` holds, so the component and a native build
//! write and read the same digits. A larger count, stated in a spec or read
//! back from an envelope, is held there, and sums stop there. No list that
//! long fits in memory, so the bound only decides what a stated count says.
//! This module imports nothing, so every reader and renderer can use it.

/// The largest count an envelope states, in every host: 4,294,967,295.
///
/// ```
/// use mcp_envelope::{render_json, spec};
/// let e = spec::from_json(r#"{"code":"X","message":"m","omittedActions":5000000000}"#).unwrap();
/// assert!(render_json(&e).contains(r#""omittedActions":4294967295"#));
/// ```
pub const MAX_COUNT: usize = u32::MAX as usize;

/// `a + b`, held at [`MAX_COUNT`].
pub(crate) fn add(a: usize, b: usize) -> usize {
    a.saturating_add(b).min(MAX_COUNT)
}

/// A whole number read as a count, held at [`MAX_COUNT`].
pub(crate) fn from_u64(n: u64) -> usize {
    // MAX_COUNT fits in u64 and, by its definition, in usize.
    n.min(MAX_COUNT as u64) as usize
}

/// A count written as ASCII digits only (no sign, no spaces), held at
/// [`MAX_COUNT`]; `None` for anything else.
pub(crate) fn from_digits(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let significant = text.trim_start_matches('0');
    // Beyond 20 digits u64 cannot hold it, and it is past the bound anyway.
    if significant.len() > 19 {
        return Some(MAX_COUNT);
    }
    Some(from_u64(significant.parse().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_held_at_the_bound() {
        assert_eq!(from_digits("0"), Some(0));
        assert_eq!(from_digits("0007"), Some(7));
        assert_eq!(from_digits("4294967295"), Some(MAX_COUNT));
        assert_eq!(from_digits("4294967296"), Some(MAX_COUNT));
        assert_eq!(from_digits(&"9".repeat(40)), Some(MAX_COUNT));
        for refused in ["", "+5", "-1", " 5", "5 ", "1e3", "٣"] {
            assert_eq!(from_digits(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn sums_stop_at_the_bound() {
        assert_eq!(add(MAX_COUNT, 3), MAX_COUNT);
        assert_eq!(add(2, 3), 5);
        assert_eq!(from_u64(u64::MAX), MAX_COUNT);
    }
}
