//! The one scrubbing rule for text an exception carried to the model: an
//! author's own words (a thrown plain `Error`), a framework's error for the
//! model, an argument quoted back. Credentials that libraries and authors put
//! into messages are replaced by `[redacted]`; everything else stays, so the
//! model still reads what failed.
//!
//! What it replaces, in this order (docs/thrown-errors.md, "Scrubbing"):
//! - key material: a PEM block (`-----BEGIN … PRIVATE KEY-----` to its end);
//! - credentials in a URL: `scheme://user:password@host` keeps the scheme and host;
//! - `Bearer` and `Basic` credentials: a token-looking word after the scheme;
//! - secret-named pairs: `password=…`, `api_key=…` (a query parameter too),
//!   `"token": "…"`, `Password=…;` in a connection string: the value;
//! - SQL parameter dumps: SQLAlchemy's `[parameters: …]`, PostgreSQL's
//!   `Key (column)=(value)`, MySQL's `Duplicate entry '…'`: the values;
//! - tokens with a well-known prefix (`sk-`, `ghp_`, `xoxb-`, `AKIA`, …).
//!
//! Ours: no crate scrubs text this way, and a regular-expression engine would
//! cost the component more than the whole rule. Every marker is ASCII, so the
//! byte positions cut on character boundaries.

use std::borrow::Cow;

/// What a scrubbed value becomes.
pub const REDACTED: &str = "[redacted]";

/// `text` with its credentials replaced by [`REDACTED`]; borrowed when
/// nothing was replaced.
///
/// ```
/// use mcp_envelope::scrub;
/// assert_eq!(
///     scrub("GET https://bot:hunter2@api.example.com/v1?q=x&api_key=sk123 failed"),
///     "GET https://[redacted]@api.example.com/v1?q=x&api_key=[redacted] failed"
/// );
/// assert_eq!(scrub("Entity with name Nobody not found"), "Entity with name Nobody not found");
/// ```
pub fn scrub(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    let passes: [Pass; 9] = [
        key_blocks,
        url_credentials,
        |text| scheme_tokens(text, "bearer "),
        |text| scheme_tokens(text, "basic "),
        secret_pairs,
        sql_parameters,
        |text| quoted_values(text, ")=(", ')'),
        |text| quoted_values(text, "Duplicate entry '", '\''),
        prefixed_tokens,
    ];
    for pass in passes {
        if let Some(changed) = pass(&out) {
            out = Cow::Owned(changed);
        }
    }
    out
}

/// A pass: the text with its replacements, or `None` when it found nothing.
type Pass = fn(&str) -> Option<String>;

/// Builds a pass's output: the text between replacements copied as it is.
struct Rewrite<'a> {
    text: &'a str,
    out: Option<String>,
    copied: usize,
}

impl<'a> Rewrite<'a> {
    fn new(text: &'a str) -> Self {
        Rewrite { text, out: None, copied: 0 }
    }

    /// Replaces `text[start..end]` with `with`; replacements come in text order.
    fn replace(&mut self, start: usize, end: usize, with: &str) {
        let out = self.out.get_or_insert_with(|| String::with_capacity(self.text.len()));
        out.push_str(&self.text[self.copied..start]);
        out.push_str(with);
        self.copied = end;
    }

    fn finish(self) -> Option<String> {
        let mut out = self.out?;
        out.push_str(&self.text[self.copied..]);
        Some(out)
    }
}

/// Whether a byte ends a value written without quotes.
fn ends_value(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'&' | b';' | b',' | b')' | b']' | b'}' | b'"' | b'\'' | b'<' | b'>')
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end of the run of bytes from `start` that `keep` accepts.
fn run_end(bytes: &[u8], start: usize, keep: impl Fn(u8) -> bool) -> usize {
    bytes[start..].iter().position(|&b| !keep(b)).map_or(bytes.len(), |n| start + n)
}

/// `find`, ASCII case-insensitive, from `from`.
fn find_ignoring_case(text: &str, needle: &str, from: usize) -> Option<usize> {
    let (hay, needle) = (text.as_bytes(), needle.as_bytes());
    (from..=hay.len().saturating_sub(needle.len()))
        .find(|&i| hay.len() >= i + needle.len() && hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// `-----BEGIN …-----` to the matching `-----END …-----`, or to the text's end.
fn key_blocks(text: &str) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    let mut from = 0;
    while let Some(start) = text[from..].find("-----BEGIN ").map(|n| from + n) {
        let end = match text[start..].find("-----END ") {
            Some(n) => {
                let after = start + n + "-----END ".len();
                text[after..].find("-----").map_or(text.len(), |m| after + m + "-----".len())
            }
            None => text.len(),
        };
        rewrite.replace(start, end, REDACTED);
        from = end;
    }
    rewrite.finish()
}

/// `scheme://userinfo@host`: the userinfo.
fn url_credentials(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut rewrite = Rewrite::new(text);
    let mut from = 0;
    while let Some(at) = text[from..].find("://").map(|n| from + n) {
        let start = at + 3;
        let end = run_end(bytes, start, |b| !(b.is_ascii_whitespace() || b"/?#\"'<>".contains(&b)));
        if let Some(last_at) = text[start..end].rfind('@') {
            if last_at > 0 {
                rewrite.replace(start, start + last_at, REDACTED);
            }
        }
        from = end.max(start);
    }
    rewrite.finish()
}

/// Whether a word looks like a credential rather than prose: eight or more
/// characters with a digit, a symbol of the token alphabets, or both cases.
fn looks_like_token(word: &[u8]) -> bool {
    let has = |f: fn(&u8) -> bool| word.iter().any(f);
    word.len() >= 8
        && (has(u8::is_ascii_digit)
            || has(|b| b"._-+/=~".contains(b))
            || (has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase)))
}

/// `SCHEME TOKEN` (`scheme` lower-case, with its space; matched in any
/// case, as a word): the token, when it looks like one.
fn scheme_tokens(text: &str, scheme: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut rewrite = Rewrite::new(text);
    let mut from = 0;
    while let Some(start) = find_ignoring_case(text, scheme, from) {
        from = start + scheme.len();
        if start > 0 && is_word_byte(bytes[start - 1]) {
            continue;
        }
        let token_start = run_end(bytes, from, |b| b == b' ');
        let token_end = run_end(bytes, token_start, |b| !ends_value(b));
        if looks_like_token(&bytes[token_start..token_end]) {
            rewrite.replace(token_start, token_end, REDACTED);
            from = token_end;
        }
    }
    rewrite.finish()
}

/// The last part of a key (split at `_`, `-`, `.`) that names a secret.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "key",
    "apikey",
    "sig",
    "signature",
    "auth",
    "authorization",
    "credential",
    "credentials",
    "cookie",
    "session",
    "sessionid",
];

/// Whether a key names a secret: its last part is one of [`SECRET_WORDS`], or it is `pass`.
fn names_secret(key: &str) -> bool {
    let last = key.rsplit(['_', '-', '.']).next().unwrap_or(key);
    key.eq_ignore_ascii_case("pass") || SECRET_WORDS.iter().any(|word| last.eq_ignore_ascii_case(word))
}

/// `key=value`, `key: value` (a quoted key, or no space after the colon),
/// `"key": "value"`: the value, when the key names a secret.
fn secret_pairs(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut rewrite = Rewrite::new(text);
    let mut i = 0;
    while i < bytes.len() {
        if !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') || (i > 0 && is_key_byte(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let key_end = run_end(bytes, i, is_key_byte);
        let key = &text[i..key_end];
        let quoted = i > 0 && matches!(bytes[i - 1], b'"' | b'\'') && bytes.get(key_end) == Some(&bytes[i - 1]);
        let mut j = key_end + usize::from(quoted);
        j = run_end(bytes, j, |b| b == b' ');
        let separator = bytes.get(j).copied();
        let spaced = bytes.get(j + 1) == Some(&b' ');
        let pair = match separator {
            Some(b'=') => true,
            Some(b':') => quoted || !spaced,
            _ => false,
        };
        if !pair || !names_secret(key) {
            i = key_end;
            continue;
        }
        j = run_end(bytes, j + 1, |b| b == b' ');
        let (start, end) = match bytes.get(j) {
            Some(&quote @ (b'"' | b'\'')) => {
                let start = j + 1;
                (start, text[start..].find(quote as char).map_or(bytes.len(), |n| start + n))
            }
            _ => (j, run_end(bytes, j, |b| !ends_value(b))),
        };
        if end > start && &text[start..end] != REDACTED {
            rewrite.replace(start, end, REDACTED);
        }
        i = end.max(key_end);
    }
    rewrite.finish()
}

fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// SQLAlchemy's `[parameters: …]`: the dump, to the bracket that closes it
/// (its own brackets nest).
fn sql_parameters(text: &str) -> Option<String> {
    const OPENING: &str = "[parameters: ";
    let bytes = text.as_bytes();
    let mut rewrite = Rewrite::new(text);
    let mut from = 0;
    while let Some(found) = text[from..].find(OPENING).map(|n| from + n) {
        let start = found + OPENING.len();
        let mut depth = 1usize;
        let end = bytes[start..]
            .iter()
            .position(|&b| {
                match b {
                    b'[' => depth += 1,
                    b']' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(bytes.len(), |n| start + n);
        rewrite.replace(start, end, REDACTED);
        from = end;
    }
    rewrite.finish()
}

/// Each text between `opening` and the next `closing`: PostgreSQL's
/// `Key (column)=(value)` detail, MySQL's `Duplicate entry '…'`.
fn quoted_values(text: &str, opening: &str, closing: char) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    let mut from = 0;
    while let Some(found) = text[from..].find(opening).map(|n| from + n) {
        let start = found + opening.len();
        let end = text[start..].find(closing).map_or(text.len(), |n| start + n);
        rewrite.replace(start, end, REDACTED);
        from = end;
    }
    rewrite.finish()
}

/// Well-known token prefixes (OpenAI and Stripe `sk-`/`sk_`, GitHub, Slack,
/// GitLab, AWS access keys, Google API keys).
const TOKEN_PREFIXES: &[&str] = &[
    "sk-", "sk_live_", "sk_test_", "rk_live_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "xoxb-", "xoxp-",
    "xapp-", "glpat-", "AKIA", "AIza",
];

/// A word starting with a [`TOKEN_PREFIXES`] prefix, 16 characters or more.
fn prefixed_tokens(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut rewrite = Rewrite::new(text);
    let mut i = 0;
    while i < bytes.len() {
        let at_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b'-'));
        let end = run_end(bytes, i, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
        if at_word && end - i >= 16 && TOKEN_PREFIXES.iter().any(|p| text[i..end].starts_with(p)) {
            rewrite.replace(i, end, REDACTED);
        }
        i = end.max(i + 1);
    }
    rewrite.finish()
}

#[cfg(test)]
mod tests {
    use super::scrub;

    #[track_caller]
    fn check(raw: &str, scrubbed: &str) {
        assert_eq!(scrub(raw), scrubbed);
    }

    #[test]
    fn url_credentials_keep_the_scheme_and_host() {
        check(
            "connect postgres://admin:s3cr3t@db.internal:5432/app failed",
            "connect postgres://[redacted]@db.internal:5432/app failed",
        );
        check("see https://example.com/a@b for more", "see https://example.com/a@b for more");
    }

    #[test]
    fn secret_named_pairs_lose_their_values() {
        check("GET /v1?api_key=abc123&q=1", "GET /v1?api_key=[redacted]&q=1");
        check(r#"{"password": "hunter2", "user": "jo"}"#, r#"{"password": "[redacted]", "user": "jo"}"#);
        check("Server=db;User Id=sa;Password=Pa55w0rd;", "Server=db;User Id=sa;Password=[redacted];");
        check("token:abc", "token:[redacted]");
        check("Invalid token: expired", "Invalid token: expired");
        check("X-Amz-Signature=deadbeef", "X-Amz-Signature=[redacted]");
    }

    #[test]
    fn auth_schemes_lose_their_tokens_but_not_prose() {
        check("Authorization: Bearer eyJhbGciOi.J9x", "Authorization: Bearer [redacted]");
        check("Basic dXNlcjpwYXNz was refused", "Basic [redacted] was refused");
        check("Bearer authentication failed", "Bearer authentication failed");
        check("Basic information is missing", "Basic information is missing");
    }

    #[test]
    fn sql_dumps_lose_their_values() {
        check(
            "(sqlite3.IntegrityError) UNIQUE constraint failed: users.email\n[SQL: INSERT INTO users (email, ssn) VALUES (?, ?)]\n[parameters: ('jo@example.com', '123-45-6789')]",
            "(sqlite3.IntegrityError) UNIQUE constraint failed: users.email\n[SQL: INSERT INTO users (email, ssn) VALUES (?, ?)]\n[parameters: [redacted]]",
        );
        check(
            "DETAIL:  Key (email)=(jo@example.com) already exists.",
            "DETAIL:  Key (email)=([redacted]) already exists.",
        );
        check("Duplicate entry 'jo@example.com' for key 'email'", "Duplicate entry '[redacted]' for key 'email'");
    }

    #[test]
    fn key_material_and_prefixed_tokens_go() {
        check(
            "bad key -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- end",
            "bad key [redacted] end",
        );
        check("OpenAI refused sk-proj-abcdef0123456789", "OpenAI refused [redacted]");
        check("a task-abcdefghijklmnopq", "a task-abcdefghijklmnopq");
    }

    #[test]
    fn prose_and_non_ascii_pass_unchanged() {
        for text in [
            "Access denied - path outside allowed directories: /etc/passwd not in /data",
            "Entity with name Nobody not found",
            "Fatura não encontrada: ção=1 ✓",
            "",
        ] {
            assert!(matches!(scrub(text), std::borrow::Cow::Borrowed(_)), "{text}");
        }
    }
}
