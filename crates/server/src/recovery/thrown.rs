//! A thrown failure whose kind its structure tells, never its text: a system
//! error by its code (Node's `code`, Python's `errno`, Rust's `ErrorKind`, all
//! spelled as the POSIX names Node uses), an HTTP client's error by its
//! status, a timeout, an upstream that could not be reached. The integration
//! reads the structure; the core picks the code and words the message and
//! recovery itself, so no library text reaches the model. When the failing
//! path or URL is one of the call's arguments, the message names that
//! argument and quotes what the model sent (scrubbed), never the path the
//! server resolved it to.

use super::upstream::{upstream_error, UpstreamFailure, UNAVAILABLE_RECOVERY, UPSTREAM_UNAVAILABLE};
use crate::code::{self, Category};
use crate::locale::Locale;
use crate::scrub::scrub;
use crate::tool_error::model::ToolError;

/// What the structure of a thrown value says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KnownKind<'a> {
    /// A system error, by its POSIX name (`ENOENT`, `EACCES`, …), with the
    /// path (and a rename's destination) it names.
    System {
        /// The POSIX name: Node's `code`, Python's `errno.errorcode[errno]`.
        errno: &'a str,
        /// The path the failing call was given.
        path: Option<&'a str>,
        /// A rename's or copy's destination.
        dest: Option<&'a str>,
    },
    /// An HTTP client's error carrying the response's status.
    Status {
        /// The HTTP status, 400 to 599.
        status: u16,
        /// The response's `Retry-After` header.
        retry_after: Option<&'a str>,
        /// The URL requested.
        url: Option<&'a str>,
    },
    /// A timeout (`TimeoutError`, `AbortError`, `asyncio.TimeoutError`, reqwest's timeout).
    Timeout {
        /// The URL requested, when known.
        url: Option<&'a str>,
    },
    /// An upstream that could not be reached, with no system error code to say more.
    Unreachable {
        /// The URL requested, when known.
        url: Option<&'a str>,
    },
}

/// The system error codes the core knows: each one's code, and its message
/// naming the argument (`{}`) or, when no argument holds the path, without it
/// (docs/thrown-errors.md). An empty message: the code's own failure (a
/// timeout, an unreachable upstream), which names no path.
const SYSTEM_CODES: &[(&str, &str, &str, &str)] = &[
    (
        "ENOENT",
        code::NOT_FOUND,
        "No file or folder exists at {}.",
        "A file or folder this call needs does not exist.",
    ),
    (
        "ENOTDIR",
        code::NOT_FOUND,
        "A part of {} is not a folder.",
        "A path this call needs goes through something that is not a folder.",
    ),
    (
        "EISDIR",
        code::VALIDATION_ERROR,
        "A folder is at {}, where this call needs a file.",
        "This call needs a file and found a folder.",
    ),
    (
        "EACCES",
        code::FORBIDDEN,
        "The server is not allowed to access {}.",
        "The server is not allowed to access a file this call needs.",
    ),
    (
        "EPERM",
        code::FORBIDDEN,
        "The server is not allowed to access {}.",
        "The server is not allowed to access a file this call needs.",
    ),
    (
        "EEXIST",
        code::CONFLICT,
        "Something already exists at {}.",
        "Something this call would create already exists.",
    ),
    (
        "ENOTEMPTY",
        code::CONFLICT,
        "The folder at {} is not empty.",
        "A folder this call would remove is not empty.",
    ),
    ("ETIMEDOUT", code::TIMEOUT, "", ""),
    ("ECONNREFUSED", UPSTREAM_UNAVAILABLE, "", ""),
    ("ECONNRESET", UPSTREAM_UNAVAILABLE, "", ""),
    ("ENOTFOUND", UPSTREAM_UNAVAILABLE, "", ""),
    ("EAI_AGAIN", UPSTREAM_UNAVAILABLE, "", ""),
    ("EHOSTUNREACH", UPSTREAM_UNAVAILABLE, "", ""),
    ("ENETUNREACH", UPSTREAM_UNAVAILABLE, "", ""),
];

/// Whether the core knows the system error `errno`.
pub fn is_known_errno(errno: &str) -> bool {
    SYSTEM_CODES.iter().any(|row| row.0 == errno)
}

/// The argument (by name) whose value is `target`: the same text, or the
/// path's last segments (a server resolves `notes/a.txt` against its root),
/// so the message can quote what the model sent.
fn argument_for<'a>(target: &str, arguments: &'a [(String, String)]) -> Option<&'a (String, String)> {
    let target = target.trim_end_matches('/');
    arguments.iter().find(|(_, value)| {
        let sent = value.strip_prefix("./").unwrap_or(value).trim_end_matches('/');
        !sent.is_empty()
            && (target == sent
                || target
                    .strip_suffix(sent)
                    .is_some_and(|head| head.ends_with('/') || head.ends_with('\\')))
    })
}

/// `name "value"`, the value scrubbed: how a message names an argument.
fn quoted(argument: &(String, String)) -> String {
    format!("{} \"{}\"", argument.0, scrub(&argument.1))
}

/// The error for a known failure, the arguments of the call as (name, text)
/// pairs (`arguments_as_text`); `None` for a system error code the core does
/// not know, which stays an internal error.
///
/// ```
/// use mcp_envelope::recovery::{known_error, KnownKind};
/// use mcp_envelope::Locale;
/// let args = vec![("path".to_owned(), "notes/missing.txt".to_owned())];
/// let kind = KnownKind::System { errno: "ENOENT", path: Some("/srv/data/notes/missing.txt"), dest: None };
/// let e = known_error(&kind, &args, Locale::En).unwrap();
/// assert_eq!((e.code.as_str(), e.message.as_str()), ("NOT_FOUND", "No file or folder exists at path \"notes/missing.txt\"."));
/// ```
pub fn known_error(kind: &KnownKind<'_>, arguments: &[(String, String)], locale: Locale) -> Option<ToolError> {
    let named = |target: Option<&str>| target.and_then(|t| argument_for(t, arguments));
    let error = match *kind {
        KnownKind::System { errno, path, dest } => {
            let &(_, code, with_argument, without) = SYSTEM_CODES.iter().find(|row| row.0 == errno)?;
            if with_argument.is_empty() {
                return Some(upstream_failure(code, None, locale));
            }
            // What already exists, or is not empty, is a rename's destination when there is one.
            let order = if code == code::CONFLICT {
                [dest, path]
            } else {
                [path, dest]
            };
            let message = match order.into_iter().find_map(named) {
                Some(argument) => with_argument.replacen("{}", &quoted(argument), 1),
                None => without.to_owned(),
            };
            let customer = &locale.words().customer;
            let words = match code {
                code::NOT_FOUND => customer.not_found,
                code::FORBIDDEN => customer.forbidden,
                _ => "",
            };
            ToolError::new(code, message).customer_message(words).locale(locale)
        }
        KnownKind::Status {
            status,
            retry_after,
            url,
        } => {
            let service = named(url).map(|a| String::from("The service at ") + &quoted(a));
            let failure = UpstreamFailure {
                status,
                retry_after,
                service: service.as_deref(),
                locale,
                ..UpstreamFailure::default()
            };
            // A status outside 400..=599 says nothing known: an internal error.
            upstream_error(&failure).ok()?.error
        }
        KnownKind::Timeout { url } => upstream_failure(code::TIMEOUT, named(url), locale),
        KnownKind::Unreachable { url } => upstream_failure(UPSTREAM_UNAVAILABLE, named(url), locale),
    };
    Some(error)
}

/// TIMEOUT or UPSTREAM_UNAVAILABLE of a service the tool calls, naming the URL's argument when there is one.
fn upstream_failure(code: &str, named: Option<&(String, String)>, locale: Locale) -> ToolError {
    let customer = &locale.words().customer;
    let timeout = code == code::TIMEOUT;
    let message = match (named, timeout) {
        (Some(argument), true) => format!("The request to {} did not finish in time.", quoted(argument)),
        (Some(argument), false) => format!("The service at {} could not be reached.", quoted(argument)),
        (None, true) => "A service this tool depends on did not answer in time.".to_owned(),
        (None, false) => "A service this tool depends on could not be reached.".to_owned(),
    };
    let error = ToolError::new(code, message).locale(locale);
    if timeout {
        return error.customer_message(customer.timeout);
    }
    error
        .suggest(UNAVAILABLE_RECOVERY)
        .category(Category::Transient)
        .retryable(true)
        .customer_message(customer.unavailable)
}
