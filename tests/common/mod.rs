//! Helpers shared by the Rust vector runners.

pub mod calls;
pub mod vectors;

/// Compares two strings; on a mismatch, says where they part, briefly (some are 1 MB).
pub fn same(what: &str, got: &str, want: &str) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let at = got.bytes().zip(want.bytes()).take_while(|(a, b)| a == b).count();
    let around = |s: &str| -> String {
        let start = s.floor_char_boundary(at.saturating_sub(40));
        let end = s.ceil_char_boundary((at + 80).min(s.len()));
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
