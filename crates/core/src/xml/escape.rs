//! Escaping that keeps any text well-formed XML: forbidden characters become
//! U+FFFD (visible, never dropped), and only what a parser would otherwise
//! change is escaped, so the text stays readable to a model.
//!
//! Ours: quick-xml's escaping escapes more than needed and keeps forbidden
//! characters, which would make an envelope unreadable to a parser.

/// Appends `\n{indent}<{name}>{escaped text}</{name}>`.
pub(crate) fn element(out: &mut String, indent: &str, name: &str, text: &str) {
    out.push('\n');
    out.push_str(indent);
    out.push('<');
    out.push_str(name);
    out.push('>');
    escape_content(out, text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// Appends `\n{indent}<{tag} count="N">N more {nouns} are not listed.</{tag}>`
/// (nothing when `count` is 0): how an envelope counts what it leaves out of
/// a list. "more" only when some items are listed; `one`/`many` are the
/// noun's two numbers.
pub(crate) fn more_line(
    out: &mut String,
    indent: &str,
    tag: &str,
    count: usize,
    none_listed: bool,
    nouns: (&str, &str),
) {
    if count == 0 {
        return;
    }
    let more = if none_listed { "" } else { " more" };
    let noun = if count == 1 { nouns.0 } else { nouns.1 };
    let verb = if count == 1 { "is" } else { "are" };
    out.push('\n');
    out.push_str(indent);
    out.push_str(&format!(
        "<{tag} count=\"{count}\">{count}{more} {noun} {verb} not listed.</{tag}>"
    ));
}

/// Whether XML 1.0 allows the character at all (its `Char` production).
/// Rust strings hold no surrogates, so only C0 controls and U+FFFE/U+FFFF fail.
fn is_xml_char(c: char) -> bool {
    !matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// What stands in for a character XML 1.0 forbids: visible, so nothing vanishes silently.
pub const REPLACEMENT: char = '\u{fffd}';

/// Escapes element content. Only `&` and `<` are escaped, as the specification
/// wants (`>` and quotes stay readable), plus the two cases that would
/// otherwise change the text: `>` after `]]` (the sequence `]]>` is not
/// allowed in content) and CR (which parsers turn into LF).
pub(crate) fn escape_content(out: &mut String, text: &str) {
    // By bytes: 0xEF leads every character from U+F000 up, U+FFFE and U+FFFF among them.
    let plain = |b: &u8| !matches!(b, b'&' | b'<' | b'>' | b'\r' | 0xEF) && (*b >= 0x20 || matches!(b, b'\t' | b'\n'));
    if text.as_bytes().iter().all(plain) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' if out.ends_with("]]") => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c if !is_xml_char(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
}

/// Escapes a double-quoted attribute value: also `"`, and the whitespace
/// characters that attribute-value normalization would turn into spaces.
pub(crate) fn escape_attribute(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if !is_xml_char(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
}

/// Replaces the characters XML 1.0 forbids, as every text renderer does.
pub(crate) fn replace_forbidden(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(is_xml_char) {
        std::borrow::Cow::Borrowed(text)
    } else {
        text.chars()
            .map(|c| if is_xml_char(c) { c } else { REPLACEMENT })
            .collect::<String>()
            .into()
    }
}
