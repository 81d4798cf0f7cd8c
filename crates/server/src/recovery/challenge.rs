//! Reading an upstream's `WWW-Authenticate` header (RFC 9110, section
//! 11.6.1) for a Bearer challenge's `error` and `scope` (RFC 6750, section
//! 3): `insufficient_scope` is a step-up, the host authorizing again with the
//! scopes named, not a refusal to stop at. Written by hand: the grammar is
//! small, and no well-kept crate reads challenges without an HTTP stack.
//!
//! Like `Retry-After`, the header is upstream text: what does not parse is
//! no challenge, never an error of the call.

/// A Bearer challenge's parameters that decide the answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct BearerChallenge {
    /// `error`, such as `insufficient_scope` or `invalid_token`.
    pub error: Option<String>,
    /// `scope`: space-separated scope names.
    pub scope: Option<String>,
    /// `resource_metadata` (RFC 9728): where the protected resource's
    /// metadata is, for the host's authorization; kept for the log.
    pub resource_metadata: Option<String>,
}

/// The first Bearer challenge in `header`, if any.
///
/// A header is a list of challenges, each a scheme then comma-separated
/// `name=value` parameters, a value a token or a quoted string with `\`
/// escapes. The next challenge begins where a comma is followed by a token
/// with no `=` after it.
pub(crate) fn bearer_challenge(header: &str) -> Option<BearerChallenge> {
    let mut rest = header;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        let (scheme, after) = token(rest)?;
        let (challenge, next) = parameters(after);
        if scheme.eq_ignore_ascii_case("bearer") {
            return Some(challenge);
        }
        rest = next?;
    }
}

/// A token (RFC 9110 `tchar`s) at the start of `text`, and what follows it.
fn token(text: &str) -> Option<(&str, &str)> {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)))
        .unwrap_or(text.len());
    (end > 0).then(|| (&text[..end], &text[end..]))
}

/// A challenge's parameters, and where the next challenge starts (if one does).
fn parameters(mut text: &str) -> (BearerChallenge, Option<&str>) {
    let mut challenge = BearerChallenge::default();
    loop {
        text = text.trim_start_matches([' ', '\t', ',']);
        let Some((name, after)) = token(text) else {
            return (challenge, None);
        };
        let after = after.trim_start_matches([' ', '\t']);
        let Some(value_text) = after.strip_prefix('=') else {
            // A token without `=`: the next challenge's scheme.
            return (challenge, Some(text));
        };
        let value_text = value_text.trim_start_matches([' ', '\t']);
        let (value, rest) = match value_text.strip_prefix('"') {
            Some(quoted) => match quoted_string(quoted) {
                Some(read) => read,
                None => return (challenge, None),
            },
            None => match token(value_text) {
                Some((value, rest)) => (value.to_owned(), rest),
                None => return (challenge, None),
            },
        };
        let slot = match name.to_ascii_lowercase().as_str() {
            "error" => &mut challenge.error,
            "scope" => &mut challenge.scope,
            "resource_metadata" => &mut challenge.resource_metadata,
            _ => {
                text = rest;
                continue;
            }
        };
        // A parameter given twice: the first counts (RFC 9110 makes it invalid; the first is what a reader sees first).
        slot.get_or_insert(value);
        text = rest;
    }
}

/// The rest of a quoted string after its opening quote: its value and what follows the closing quote.
fn quoted_string(text: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((value, &text[at + 1..])),
            '\\' => value.push(chars.next()?.1),
            c => value.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_bearer_challenge_among_others() {
        let header = r#"Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource""#;
        assert_eq!(
            bearer_challenge(header),
            Some(BearerChallenge {
                error: Some("insufficient_scope".into()),
                scope: Some("files:read files:write".into()),
                resource_metadata: Some("https://mcp.example.com/.well-known/oauth-protected-resource".into()),
            })
        );
    }

    #[test]
    fn token_values_escapes_and_garbage() {
        let read = bearer_challenge(r#"bearer error=invalid_token, scope="a \"b\"""#).unwrap();
        assert_eq!(
            (read.error.as_deref(), read.scope.as_deref()),
            (Some("invalid_token"), Some("a \"b\""))
        );
        assert_eq!(bearer_challenge(r#"Basic realm="x""#), None);
        assert_eq!(bearer_challenge(""), None);
        assert_eq!(
            bearer_challenge("Bearer error=\"unterminated"),
            Some(BearerChallenge::default())
        );
        assert_eq!(bearer_challenge("Bearer"), Some(BearerChallenge::default()));
    }
}
