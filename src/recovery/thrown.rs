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

/// The system error codes the core knows, each with its code: what the
/// docs' table lists (docs/thrown-errors.md).
const SYSTEM_CODES: &[(&str, &str)] = &[
    ("ENOENT", code::NOT_FOUND),
    ("ENOTDIR", code::NOT_FOUND),
    ("EISDIR", code::VALIDATION_ERROR),
    ("EACCES", code::FORBIDDEN),
    ("EPERM", code::FORBIDDEN),
    ("EEXIST", code::CONFLICT),
    ("ENOTEMPTY", code::CONFLICT),
    ("ETIMEDOUT", code::TIMEOUT),
    ("ECONNREFUSED", UPSTREAM_UNAVAILABLE),
    ("ECONNRESET", UPSTREAM_UNAVAILABLE),
    ("ENOTFOUND", UPSTREAM_UNAVAILABLE),
    ("EAI_AGAIN", UPSTREAM_UNAVAILABLE),
    ("EHOSTUNREACH", UPSTREAM_UNAVAILABLE),
    ("ENETUNREACH", UPSTREAM_UNAVAILABLE),
];

/// Whether the core knows the system error `errno`.
pub fn is_known_errno(errno: &str) -> bool {
    SYSTEM_CODES.iter().any(|(name, _)| *name == errno)
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
    let customer = &locale.words().customer;
    let error = match *kind {
        KnownKind::System { errno, path, dest } => {
            let code = SYSTEM_CODES.iter().find(|(name, _)| *name == errno)?.1;
            // What already exists, or is not empty, is a rename's destination when there is one.
            let order = if matches!(errno, "EEXIST" | "ENOTEMPTY") { [dest, path] } else { [path, dest] };
            let named = order.into_iter().flatten().find_map(|p| argument_for(p, arguments));
            if code == UPSTREAM_UNAVAILABLE {
                return Some(unreachable(None, locale));
            }
            if code == code::TIMEOUT {
                return Some(timed_out(None, locale));
            }
            let (message, customer) = system_message(errno, named.map(quoted), customer);
            let error = ToolError::new(code, message);
            match customer {
                Some(text) => error.customer_message(text),
                None => error,
            }
        }
        KnownKind::Status { status, retry_after, url } => {
            let service = url.and_then(|u| argument_for(u, arguments)).map(|a| format!("The service at {}", quoted(a)));
            let failure = UpstreamFailure {
                status,
                retry_after,
                service: service.as_deref(),
                locale,
                ..UpstreamFailure::default()
            };
            // A status outside 400..=599 says nothing known: an internal error.
            return upstream_error(&failure).ok().map(|report| report.error);
        }
        KnownKind::Timeout { url } => return Some(timed_out(url.and_then(|u| argument_for(u, arguments)), locale)),
        KnownKind::Unreachable { url } => {
            return Some(unreachable(url.and_then(|u| argument_for(u, arguments)), locale))
        }
    };
    Some(error.locale(locale))
}

/// The message (and customer words) of a path's system error, naming the argument when there is one.
fn system_message(
    errno: &str,
    named: Option<String>,
    customer: &crate::locale::CustomerWords,
) -> (String, Option<&'static str>) {
    let (with_argument, without): (fn(&str) -> String, &str) = match errno {
        "ENOENT" => (|a| format!("No file or folder exists at {a}."), "A file or folder this call needs does not exist."),
        "ENOTDIR" => (
            |a| format!("{a} goes through something that is not a folder."),
            "A path this call needs goes through something that is not a folder.",
        ),
        "EISDIR" => (|a| format!("{a} is a folder; this call needs a file."), "This call needs a file and found a folder."),
        "EACCES" | "EPERM" => (
            |a| format!("The server is not allowed to access {a}."),
            "The server is not allowed to access a file this call needs.",
        ),
        "EEXIST" => (|a| format!("{a} already exists."), "Something this call would create already exists."),
        _ => (|a| format!("{a} is a folder that is not empty."), "A folder this call would remove is not empty."),
    };
    let message = named.map_or_else(|| without.to_owned(), |a| with_argument(&a));
    let words = match errno {
        "ENOENT" | "ENOTDIR" => Some(customer.not_found),
        "EACCES" | "EPERM" => Some(customer.forbidden),
        "EEXIST" | "ENOTEMPTY" => Some(customer.conflict),
        _ => None,
    };
    (message, words)
}

/// TIMEOUT, naming the URL's argument when there is one.
fn timed_out(named: Option<&(String, String)>, locale: Locale) -> ToolError {
    let message = match named {
        Some(argument) => format!("The request to {} did not finish in time.", quoted(argument)),
        None => "A service this tool depends on did not answer in time.".to_owned(),
    };
    ToolError::new(code::TIMEOUT, message)
        .customer_message(locale.words().customer.timeout)
        .locale(locale)
}

/// UPSTREAM_UNAVAILABLE, naming the URL's argument when there is one.
fn unreachable(named: Option<&(String, String)>, locale: Locale) -> ToolError {
    let message = match named {
        Some(argument) => format!("The service at {} could not be reached.", quoted(argument)),
        None => "A service this tool depends on could not be reached.".to_owned(),
    };
    ToolError::new(UPSTREAM_UNAVAILABLE, message)
        .suggest(UNAVAILABLE_RECOVERY)
        .category(Category::Transient)
        .retryable(true)
        .customer_message(locale.words().customer.unavailable)
        .locale(locale)
}
