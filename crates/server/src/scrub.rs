//! The one scrubbing rule for text an exception carried to the model: an
//! author's own words (a thrown plain `Error`), a framework's error for the
//! model, an argument quoted back. Credentials that libraries and authors put
//! into messages are replaced by `[redacted]`; everything else stays, so the
//! model still reads what failed.
//!
//! What it replaces (docs/thrown-errors.md, "Scrubbing"):
//! - credentials in a URL: `scheme://user:password@host` keeps the scheme and host;
//! - `Bearer` and `Basic` credentials: a token-looking word after the scheme;
//! - secret-named pairs: `password=…`, `api_key=…` (a query parameter too),
//!   `"token": "…"`, `Password=…;` in a connection string: the value;
//! - SQL parameter dumps: SQLAlchemy's `[parameters: …]`, PostgreSQL's
//!   `Key (column)=(value)`, MySQL's `Duplicate entry '…'`: the values;
//! - a token with a well-known prefix (`sk-`, `ghp_`, `xoxb-`, `AKIA`, …), 16
//!   characters or more;
//! - the lines of a stack trace an author pasted into a message: JavaScript's
//!   indented `at …` frames, Python's `Traceback (most recent call last):`
//!   and its `File "…", line N` frames with their source lines. They name
//!   paths and code, and tell the model nothing it can act on.
//!
//! Ours: no crate scrubs text this way, and a regular-expression engine would
//! cost the component more than the whole rule. One scan tries every rule at
//! each position; every marker is ASCII, so the byte positions cut on
//! character boundaries.

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
    match without_stack(text) {
        Cow::Borrowed(text) => scrub_secrets(text),
        Cow::Owned(text) => Cow::Owned(scrub_secrets(&text).into_owned()),
    }
}

/// `text` without the lines of a stack trace; borrowed when it holds none.
fn without_stack(text: &str) -> Cow<'_, str> {
    // Python's frame is two lines: `File "…", line N, in f`, then the source line, indented deeper.
    let mut after_frame: Option<usize> = None;
    let mut kept: Vec<&str> = Vec::new();
    let mut dropped = false;
    for line in text.split('\n') {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        let is_source = after_frame.is_some_and(|frame| indent > frame && !body.is_empty());
        let python_frame = body.starts_with("File \"") && body.contains("\", line ");
        let frame = (indent > 0 && body.starts_with("at ") && body.len() > 3)
            || python_frame
            || body == "Traceback (most recent call last):"
            || is_source;
        after_frame = python_frame.then_some(indent);
        if frame {
            dropped = true;
        } else {
            kept.push(line);
        }
    }
    if !dropped {
        return Cow::Borrowed(text);
    }
    Cow::Owned(kept.join("\n").trim_end().to_owned())
}

fn scrub_secrets(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let (found, next) = secret_at(text, i);
        if let Some((start, end)) = found.filter(|&(start, end)| end > start && &text[start..end] != REDACTED) {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..start]);
            out.push_str(REDACTED);
            copied = end;
        }
        i = next.max(i + 1);
    }
    match out {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    }
}

/// What to replace at byte `i` (a range of `text`), and where to look next.
fn secret_at(text: &str, i: usize) -> (Option<(usize, usize)>, usize) {
    let bytes = text.as_bytes();
    // Bytes, not text: `i` may be inside a character; a marker found is ASCII, so cutting there is safe.
    let rest = &bytes[i..];
    // `scheme://userinfo@host`: the userinfo.
    if rest.starts_with(b"://") {
        let start = i + 3;
        let end = run_end(bytes, start, |b| !(b.is_ascii_whitespace() || b"/?#\"'<>".contains(&b)));
        return (text[start..end].rfind('@').map(|at| (start, start + at)), end);
    }
    // SQLAlchemy's `[parameters: …]`, to the bracket that closes it (its own brackets nest).
    if let Some(dump) = rest.strip_prefix(b"[parameters: ") {
        let start = text.len() - dump.len();
        let mut depth = 1usize;
        let end = dump
            .iter()
            .position(|&b| {
                depth = match b {
                    b'[' => depth + 1,
                    b']' => depth - 1,
                    _ => depth,
                };
                depth == 0
            })
            .map_or(text.len(), |n| start + n);
        return (Some((start, end)), end);
    }
    // PostgreSQL's `Key (column)=(value)`, MySQL's `Duplicate entry 'value'`.
    for (opening, closing) in [(")=(", ')'), ("Duplicate entry '", '\'')] {
        if rest.starts_with(opening.as_bytes()) {
            let start = i + opening.len();
            let end = text[start..].find(closing).map_or(text.len(), |n| start + n);
            return (Some((start, end)), end);
        }
    }
    if !is_key_byte(bytes[i]) || (i > 0 && is_key_byte(bytes[i - 1])) {
        return (None, i + 1);
    }
    let key_end = run_end(bytes, i, is_key_byte);
    let key = &text[i..key_end];
    // A token with a well-known prefix, wherever it stands.
    if key.len() >= 16 && TOKEN_PREFIXES.iter().any(|prefix| key.starts_with(prefix)) {
        return (Some((i, key_end)), key_end);
    }
    // `Bearer TOKEN`, `Basic CREDENTIALS`: the token, when it looks like one.
    if (key.eq_ignore_ascii_case("bearer") || key.eq_ignore_ascii_case("basic")) && bytes.get(key_end) == Some(&b' ') {
        let start = run_end(bytes, key_end, |b| b == b' ');
        let end = run_end(bytes, start, |b| !ends_value(b));
        return (looks_like_token(&bytes[start..end]).then_some((start, end)), end);
    }
    // `key=value`, `key:value`, `"key": "value"`: the value, when the key names a secret.
    let quote = if i > 0 { bytes[i - 1] } else { 0 };
    let quoted = matches!(quote, b'"' | b'\'') && bytes.get(key_end) == Some(&quote);
    let at = run_end(bytes, key_end + usize::from(quoted), |b| b == b' ');
    let pair = match bytes.get(at) {
        Some(b'=') => true,
        // A colon followed by a space is prose ("Invalid token: expired") unless the key was quoted.
        Some(b':') => quoted || bytes.get(at + 1) != Some(&b' '),
        _ => false,
    };
    if !pair || !names_secret(key) {
        return (None, key_end);
    }
    let value = run_end(bytes, at + 1, |b| b == b' ');
    let (start, end) = match bytes.get(value) {
        Some(&q @ (b'"' | b'\'')) => (
            value + 1,
            text[value + 1..].find(q as char).map_or(text.len(), |n| value + 1 + n),
        ),
        _ => (value, run_end(bytes, value, |b| !ends_value(b))),
    };
    (Some((start, end)), end)
}

/// Whether a byte ends a value written without quotes.
fn ends_value(b: u8) -> bool {
    b.is_ascii_whitespace() || b"&;,)]}\"'<>".contains(&b)
}

fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// The end of the run of bytes from `start` that `keep` accepts.
fn run_end(bytes: &[u8], start: usize, keep: fn(u8) -> bool) -> usize {
    bytes[start..]
        .iter()
        .position(|&b| !keep(b))
        .map_or(bytes.len(), |n| start + n)
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

/// Prefixes of API keys and tokens whose services publish them (OpenAI and
/// Stripe `sk-`/`sk_`, GitHub, Slack, GitLab, AWS access keys, Google API keys).
const TOKEN_PREFIXES: &[&str] = &[
    "sk-",
    "sk_",
    "rk_live_",
    "ghp_",
    "gho_",
    "ghs_",
    "github_pat_",
    "xoxb-",
    "xoxp-",
    "glpat-",
    "AKIA",
    "AIza",
];

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
        check(
            "see https://example.com/a@b for more",
            "see https://example.com/a@b for more",
        );
    }

    #[test]
    fn secret_named_pairs_lose_their_values() {
        check("GET /v1?api_key=abc123&q=1", "GET /v1?api_key=[redacted]&q=1");
        check(
            r#"{"password": "hunter2", "user": "jo"}"#,
            r#"{"password": "[redacted]", "user": "jo"}"#,
        );
        check(
            "Server=db;User Id=sa;Password=Pa55w0rd;",
            "Server=db;User Id=sa;Password=[redacted];",
        );
        check("token:abc", "token:[redacted]");
        check("Invalid token: expired", "Invalid token: expired");
        check("X-Amz-Signature=deadbeef", "X-Amz-Signature=[redacted]");
    }

    #[test]
    fn auth_schemes_lose_their_tokens_but_not_prose() {
        check(
            "Authorization: Bearer eyJhbGciOi.J9x",
            "Authorization: Bearer [redacted]",
        );
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
        check(
            "Duplicate entry 'jo@example.com' for key 'email'",
            "Duplicate entry '[redacted]' for key 'email'",
        );
    }

    #[test]
    fn prefixed_tokens_go_wherever_they_stand() {
        check("OpenAI refused sk-proj-abcdef0123456789", "OpenAI refused [redacted]");
        check("a task-abcdefghijklmnopq", "a task-abcdefghijklmnopq");
    }

    #[test]
    fn stack_traces_lose_their_frames() {
        check(
            "Failed to create issue: fetch failed\nStack: TypeError: fetch failed\n    at node:internal/deps/undici/undici:13510:13\n    at async createIssue (/app/dist/issues.js:10:5)",
            "Failed to create issue: fetch failed\nStack: TypeError: fetch failed",
        );
        check(
            "boom\nTraceback (most recent call last):\n  File \"/app/server.py\", line 12, in call\n    do(x)\nKeyError: 'x'",
            "boom\nKeyError: 'x'",
        );
        check("Send at least 1 item.\nat most 3", "Send at least 1 item.\nat most 3");
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
