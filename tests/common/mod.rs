//! Helpers shared by the Rust vector runners.

pub mod calls;
pub mod json;
pub mod vectors;

/// Compares two strings; on a mismatch, says where they part, briefly (some are 1 MB).
pub fn same(what: &str, got: &str, want: &str) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let at = got.bytes().zip(want.bytes()).take_while(|(a, b)| a == b).count();
    let around = |s: &str| -> String {
        // By hand: `floor_char_boundary` is newer than the crate's MSRV.
        let mut start = at.saturating_sub(40).min(s.len());
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 80).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        format!("{:?}", &s[start..end])
    };
    Err(format!(
        "{what} differs at byte {at} (got {} bytes, want {}):\n  got:  {}\n  want: {}",
        got.len(),
        want.len(),
        around(got),
        around(want)
    ))
}
