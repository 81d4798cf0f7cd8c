//! Hostile text for property tests: a small deterministic generator (a
//! failure names a reproducible round) over the pieces that break envelopes.

/// Markup, entities, CDATA, controls XML forbids, line ends, and unicode
/// that naive code mangles (ZWJ sequences, RTL marks, combining marks, astral).
pub const PIECES: &[&str] = &[
    "<",
    ">",
    "&",
    "\"",
    "'",
    "]]>",
    "]]",
    "\r",
    "\r\n",
    "\n",
    "\t",
    "\0",
    "\u{1}",
    "\u{b}",
    "\u{1f}",
    "\u{7f}",
    "\u{85}",
    "\u{fffe}",
    "\u{ffff}",
    "\u{fffd}",
    "\u{feff}",
    "\u{1F469}\u{200D}\u{1F467}",
    "\u{200F}",
    "e\u{301}",
    "\u{10FFFF}",
    "a",
    " ",
    "  ",
    "<tool_error code=\"X\">",
    "</message>",
    "<![CDATA[",
    "&amp;",
    "&#0;",
    "?>",
    "-->",
    "error_code: ",
    "{",
    "}",
    "\\",
    "\u{2028}",
];

/// Pieces that look like, or almost like, a cut marker.
pub const MARKERS: &[&str] = &[
    "… [12 characters cut]",
    "… [",
    " characters cut]",
    "… [7 caracteres cortados]",
    "… [0 characters cut]",
];

pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Up to 23 random pieces joined.
    pub fn text(&mut self) -> String {
        let len = self.next() % 24;
        (0..len)
            .map(|_| PIECES[(self.next() % PIECES.len() as u64) as usize])
            .collect()
    }

    /// Up to `runs - 1` runs of random pieces, some with (near) cut markers
    /// or long repeated words: text for the size caps to cut.
    #[allow(dead_code)] // the size-cap tests use it; the other includers do not
    #[allow(clippy::manual_is_multiple_of)] // is_multiple_of is newer than the core's rust-version
    pub fn long_text(&mut self, runs: u64) -> String {
        let mut text = String::new();
        for _ in 0..self.next() % runs {
            text.push_str(&self.text());
            if self.next() % 4 == 0 {
                text.push_str(MARKERS[(self.next() % MARKERS.len() as u64) as usize]);
            }
            if self.next() % 3 == 0 {
                text.push_str(&"long words ".repeat((self.next() % 40) as usize));
            }
        }
        text
    }
}
