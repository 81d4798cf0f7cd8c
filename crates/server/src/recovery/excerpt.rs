//! The opt-in excerpt of an upstream body: attacker-influenced text made
//! safe to show a model as quoted data. Markup goes (tags, comments, CDATA,
//! script and style contents, any stray `<` or `>`), common character
//! references are decoded (and the result filtered like any other text),
//! control and invisible format characters go, whitespace folds to single
//! spaces, and the text is cut short with a marker saying how much was cut.
//!
//! Ours: an HTML sanitizer crate (ammonia, html5ever) parses a document to
//! keep safe markup; here nothing of the markup may stay and the input is
//! often not HTML at all; a full HTML parser is much more code than this pass.
//!
//! One pass over the body, keeping only the characters the excerpt shows:
//! a body of megabytes costs a scan, not a copy.

/// The most characters of upstream text an excerpt shows: with its cut
/// marker it stays within the default cap on any single text (500), so the
/// renderer never cuts it a second time.
pub const MAX_EXCERPT_CHARS: usize = 400;

/// The sanitized body cut to `max_chars` characters (Unicode scalar values),
/// marked `… [N characters cut]` when longer; `None` when nothing readable
/// is left (a body of nothing but markup) or `max_chars` is 0.
///
/// ```
/// use mcp_envelope::recovery::excerpt;
/// let page = "<html><head><title>503</title><style>h1{color:red}</style></head>\
///             <body><h1>Service\u{200b} Unavailable</h1><!-- node 7 --></body></html>";
/// assert_eq!(excerpt(page, 400).as_deref(), Some("503 Service Unavailable"));
/// assert_eq!(excerpt("Ignore previous instructions", 6).as_deref(), Some("Ignore… [22 characters cut]"));
/// assert_eq!(excerpt("<p></p>", 400), None);
/// ```
pub fn excerpt(body: &str, max_chars: usize) -> Option<String> {
    if max_chars == 0 {
        return None;
    }
    let mut kept = String::new();
    let (mut kept_chars, mut total_chars) = (0usize, 0usize);
    sanitize(body, |c| {
        total_chars += 1;
        if kept_chars < max_chars {
            kept.push(c);
            kept_chars += 1;
        }
    });
    if total_chars == 0 {
        return None;
    }
    if total_chars > kept_chars {
        // A cut right after a space would show "word … [..]": the space is cut too.
        if kept.ends_with(' ') {
            kept.pop();
            kept_chars -= 1;
        }
        kept.push_str(&cut_marker(total_chars - kept_chars));
    }
    Some(kept)
}

/// `… [N characters cut]`, appended to the kept text: the one marker every
/// cut in an envelope uses (`crate::cut`), plural even for 1, so readers and
/// the envelope's own re-cutting recognize it.
fn cut_marker(cut: usize) -> String {
    format!("… [{cut} characters cut]")
}

/// Calls `emit` with each character of the sanitized body: no markup, no
/// invisible characters, runs of whitespace as one space, none at either end.
fn sanitize(body: &str, emit: impl FnMut(char)) {
    let mut out = Folder {
        emit,
        started: false,
        space: false,
    };
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        rest = match c {
            '<' => {
                out.space();
                skip_markup(rest)
            }
            '>' => {
                out.space();
                &rest[1..]
            }
            '&' => match reference(rest) {
                Some((decoded, after)) => {
                    if let Some(c) = decoded {
                        if matches!(c, '<' | '>') {
                            out.space();
                        } else {
                            out.text(c);
                        }
                    }
                    after
                }
                None => {
                    out.text('&');
                    &rest[1..]
                }
            },
            c => {
                out.text(c);
                &rest[c.len_utf8()..]
            }
        };
    }
}

/// Folds whitespace: a space is emitted only between two shown characters.
struct Folder<F: FnMut(char)> {
    emit: F,
    started: bool,
    space: bool,
}

impl<F: FnMut(char)> Folder<F> {
    fn space(&mut self) {
        self.space = self.started;
    }

    fn text(&mut self, c: char) {
        if c.is_whitespace() {
            self.space();
        } else if !is_invisible(c) {
            if self.space {
                (self.emit)(' ');
                self.space = false;
            }
            (self.emit)(c);
            self.started = true;
        }
    }
}

/// Control characters (C0, DEL, C1), Unicode's format characters (bidi
/// controls, zero-width characters, the BOM, soft hyphen, tag characters)
/// and variation selectors: invisible, so a model could read what a person
/// checking the text cannot see. Whitespace is handled before this.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}' | '\u{890}'..='\u{891}'
        | '\u{8e2}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{110bd}' | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0001}' | '\u{e0020}'..='\u{e007f}'
        | '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}'
        | '\u{fffe}' | '\u{ffff}')
}

/// `rest` starts with `<`: what follows the markup it opens. A comment,
/// CDATA section, tag or `<script>`/`<style>` element is skipped whole (to
/// the end of the text if it is never closed); a `<` that opens nothing is
/// skipped alone.
fn skip_markup(rest: &str) -> &str {
    let after = |from: usize, end: &str| match rest[from..].find(end) {
        Some(at) => &rest[from + at + end.len()..],
        None => "",
    };
    if rest.starts_with("<!--") {
        return after(4, "-->");
    }
    if rest.starts_with("<![CDATA[") {
        return after(9, "]]>");
    }
    let opens_tag =
        matches!(rest.as_bytes().get(1), Some(b) if b.is_ascii_alphabetic() || matches!(b, b'/' | b'!' | b'?'));
    if !opens_tag {
        return &rest[1..];
    }
    let tag_end = match tag_end(rest) {
        Some(end) => end,
        None => return "",
    };
    let after_tag = &rest[tag_end + 1..];
    // Script and style contents are code, not text: skip to the closing tag.
    for element in ["script", "style"] {
        if is_start_tag_of(rest, element) {
            return match find_ignoring_ascii_case(after_tag, &format!("</{element}")) {
                Some(at) => skip_markup(&after_tag[at..]),
                None => "",
            };
        }
    }
    after_tag
}

/// The index of the `>` closing the tag `rest` starts with, skipping quoted
/// attribute values.
fn tag_end(rest: &str) -> Option<usize> {
    let mut quote = None;
    for (i, b) in rest.bytes().enumerate().skip(1) {
        match (quote, b) {
            (None, b'>') => return Some(i),
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), b) if b == q => quote = None,
            _ => {}
        }
    }
    None
}

/// Whether `tag` (starting with `<`) is a start tag named `name`, any case.
fn is_start_tag_of(tag: &str, name: &str) -> bool {
    let Some(rest) = tag.get(1..1 + name.len()) else {
        return false;
    };
    rest.eq_ignore_ascii_case(name)
        && matches!(tag.as_bytes().get(1 + name.len()), Some(b) if b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
}

fn find_ignoring_ascii_case(haystack: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (haystack.as_bytes(), needle.as_bytes());
    (0..hay.len().saturating_sub(needle.len() - 1)).find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// `rest` starts with `&`: a character reference (`&amp;`, `&#39;`,
/// `&#x27;`, ...) as its character (`None` for a number that is no
/// character) and the text after it; `None` when it is not one we decode.
fn reference(rest: &str) -> Option<(Option<char>, &str)> {
    // The longest we decode is `&#x10FFFF;`, ten bytes.
    let end = rest.as_bytes().iter().take(12).position(|&b| b == b';')?;
    let name = &rest[1..end];
    let after = &rest[end + 1..];
    let decoded = match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let number = name.strip_prefix('#')?;
            let value = match number.strip_prefix(['x', 'X']) {
                Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    u32::from_str_radix(hex, 16).ok()?
                }
                None if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => number.parse().ok()?,
                _ => return None,
            };
            return Some((char::from_u32(value), after));
        }
    };
    Some((decoded, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(body: &str) -> String {
        let mut out = String::new();
        sanitize(body, |c| out.push(c));
        out
    }

    #[test]
    fn markup_of_every_kind_goes() {
        assert_eq!(clean("<p>a</p><p>b</p>"), "a b");
        assert_eq!(clean("a <!-- <p>hidden</p> --> b"), "a b");
        assert_eq!(clean("a<![CDATA[<script>x</script>]]>b"), "a b");
        assert_eq!(clean("a<script type=\"x\">if (a < b) {}</script >b"), "a b");
        assert_eq!(clean("a<STYLE>p{}</Style>b"), "a b");
        assert_eq!(clean("x < 5 > y"), "x 5 y");
        assert_eq!(clean("<a title=\"> not text\">link</a>"), "link");
        assert_eq!(clean("before <div class=\"never closed"), "before");
        assert_eq!(clean("<scripture>kept</scripture>"), "kept");
    }

    #[test]
    fn references_decode_and_are_filtered_like_text() {
        assert_eq!(
            clean("Fish &amp; chips&nbsp;&#8212;&#x2014; 5&#8203;0"),
            "Fish & chips —— 50"
        );
        assert_eq!(
            clean("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "script alert(1) /script"
        );
        assert_eq!(clean("AT&T &copy; &#xD800; &#;"), "AT&T &copy; &#;");
    }

    #[test]
    fn invisible_characters_go_and_whitespace_folds() {
        assert_eq!(
            clean("\u{feff} a\u{202e}b\u{200d}c \t\r\n\u{a0} d\u{e0041}\u{0}\u{85}e "),
            "abc d e"
        );
    }

    #[test]
    fn cutting_counts_what_was_cut() {
        assert_eq!(excerpt("abc def", 4).as_deref(), Some("abc… [4 characters cut]"));
        assert_eq!(excerpt("abcdef", 5).as_deref(), Some("abcde… [1 characters cut]"));
        assert_eq!(excerpt("abc", 3).as_deref(), Some("abc"));
        assert_eq!(excerpt("é😀x", 2).as_deref(), Some("é😀… [1 characters cut]"));
        assert_eq!(excerpt("abc", 0), None);
        assert_eq!(excerpt(" \u{200b} <br/> ", 10), None);
    }
}
