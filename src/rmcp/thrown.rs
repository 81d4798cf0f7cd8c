//! Failures a tool meets in the libraries it calls (std's `io::Error`,
//! reqwest's `Error`), read by their structure, never their text
//! (docs/thrown-errors.md): an io error by its `ErrorKind`, spelled as the
//! POSIX name the core knows, an HTTP error by its status, a timeout, a
//! connection that failed. The core picks the code and words the message
//! (`HandlerOutcome::Known`); the library's text, which holds paths, URLs and
//! their queries, goes to the log line only.
//!
//! A [`super::ToolCallError`] carrying such a failure is answered when rmcp
//! turns it into the call's result, inside the handler's future. So that the
//! answer can name the argument the path or URL came from, and its log line
//! go where the server's go, [`super::EnvelopeServer`] runs the handler in a
//! [`CallScope`] (a tokio task-local): the tool's name, the call's
//! arguments, the server's form, locale and log. Outside one (a server
//! without the wrapper, `into_result` called in a task the handler spawned),
//! the failure is answered alone: no argument named, XML unless the error
//! says otherwise, English, the log line to `tracing`.

use std::future::Future;
use std::io;
use std::path::Path;
use std::sync::Arc;

use ::rmcp::model::{CallToolResult, JsonObject};

use super::answer::{answer_result, LogLine};
use crate::handler::HandlerOutcome;
use crate::locale::Locale;
use crate::recovery::{exception_error, known_error, KnownKind};
use crate::tool_error::model::ToolError;
use crate::tool_error::render::Format;

/// What the structure of a thrown failure says, owned (a [`KnownKind`] borrows).
// Only a reqwest error is a status, a timeout or an unreachable upstream
// (an io error is a system error), so without the feature they stay unbuilt.
#[cfg_attr(not(feature = "reqwest"), allow(dead_code))]
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A system error by its POSIX name, with the paths the author gave.
    System {
        errno: &'static str,
        path: Option<String>,
        dest: Option<String>,
    },
    /// An HTTP status, with the URL requested.
    Status { status: u16, url: Option<String> },
    /// A timeout.
    Timeout { url: Option<String> },
    /// A connection that could not be made, or was lost.
    Unreachable { url: Option<String> },
    /// Nothing known: an internal error.
    Internal,
}

/// A failure raised by a library, classified: its kind, and its text for
/// the log line only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Thrown {
    kind: Kind,
    exception: String,
}

/// The POSIX name the core knows for an io error's kind (`recovery::thrown`'s
/// table); `None` for a kind it does not know, which stays an internal error.
/// std reads EACCES and EPERM both as `PermissionDenied`, which the core
/// answers alike.
pub(super) fn errno_of(kind: io::ErrorKind) -> Option<&'static str> {
    use io::ErrorKind::*;
    Some(match kind {
        NotFound => "ENOENT",
        PermissionDenied => "EACCES",
        AlreadyExists => "EEXIST",
        IsADirectory => "EISDIR",
        NotADirectory => "ENOTDIR",
        DirectoryNotEmpty => "ENOTEMPTY",
        TimedOut => "ETIMEDOUT",
        ConnectionRefused => "ECONNREFUSED",
        ConnectionReset => "ECONNRESET",
        HostUnreachable => "EHOSTUNREACH",
        NetworkUnreachable => "ENETUNREACH",
        _ => return None,
    })
}

impl Thrown {
    /// Anything else a tool failed with: an internal error, its text to the log.
    pub(super) fn internal(exception: String) -> Thrown {
        Thrown {
            kind: Kind::Internal,
            exception,
        }
    }

    /// An io error by its kind, with the path (and a rename's or copy's
    /// destination) the failing call was given, which std's error does not hold.
    pub(super) fn io(error: &io::Error, path: Option<&Path>, dest: Option<&Path>) -> Thrown {
        let text = |path: &Path| path.to_string_lossy().into_owned();
        let (path, dest) = (path.map(text), dest.map(text));
        // Its kind and its text, then the paths, for the operator.
        let mut exception = format!("{:?}: {error}", error.kind());
        if let Some(path) = &path {
            exception += &format!(", path '{path}'");
        }
        if let Some(dest) = &dest {
            exception += &format!(" -> '{dest}'");
        }
        let kind = match errno_of(error.kind()) {
            Some(errno) => Kind::System { errno, path, dest },
            None => Kind::Internal,
        };
        Thrown { kind, exception }
    }

    /// A reqwest error: its status, a timeout, or a connection that failed
    /// (a refused or reset connection, an unreachable host, a name that did
    /// not resolve), the URL requested with each, so the core names the
    /// argument it came from; anything else (a body that could not be read
    /// or decoded, a redirect loop, a request that could not be built) an
    /// internal error.
    #[cfg(feature = "reqwest")]
    pub(super) fn reqwest(error: &reqwest::Error) -> Thrown {
        let url = error.url().map(|url| url.as_str().to_owned());
        let io_kind = io_kind_in(error);
        let kind = match (error.status(), io_kind) {
            (Some(status), _) => Kind::Status {
                status: status.as_u16(),
                url,
            },
            // reqwest's own timeout, or the system's (ETIMEDOUT) in its source chain.
            _ if error.is_timeout() => Kind::Timeout { url },
            (None, Some(kind)) if errno_of(kind).is_some_and(is_network) => Kind::Unreachable { url },
            _ if error.is_connect() => Kind::Unreachable { url },
            _ => Kind::Internal,
        };
        Thrown {
            kind,
            exception: with_sources(error),
        }
    }

    /// The kind as the core reads it; `None` for an internal error.
    fn known_kind(&self) -> Option<KnownKind<'_>> {
        Some(match &self.kind {
            Kind::System { errno, path, dest } => KnownKind::System {
                errno,
                path: path.as_deref(),
                dest: dest.as_deref(),
            },
            Kind::Status { status, url } => KnownKind::Status {
                status: *status,
                retry_after: None,
                url: url.as_deref(),
            },
            Kind::Timeout { url } => KnownKind::Timeout { url: url.as_deref() },
            Kind::Unreachable { url } => KnownKind::Unreachable { url: url.as_deref() },
            Kind::Internal => return None,
        })
    }

    /// The error it stands for on its own: no argument named, in English,
    /// without a correlation id (the answer to a call gives one).
    pub(super) fn error_alone(&self) -> ToolError {
        self.known_kind()
            .and_then(|kind| known_error(&kind, &[], Locale::En))
            .unwrap_or_else(|| exception_error("", "", Locale::En))
    }

    /// The result of the call it failed, as the core answers it: within an
    /// [`EnvelopeServer`](super::EnvelopeServer)'s call, with the call's
    /// arguments and the server's form (unless `format` sets one), locale and
    /// log; outside one, alone.
    pub(super) fn result(&self, format: Option<Format>) -> CallToolResult {
        let scoped = CALL.try_with(|call| {
            let arguments = call.arguments.as_ref().map(arguments_as_text).unwrap_or_default();
            let format = format.unwrap_or(call.format);
            self.answer(&call.tool, &arguments, format, call.locale, call.log.as_ref())
        });
        scoped.unwrap_or_else(|_| {
            let log = |line: &str| tracing::error!(target: "mcp_envelope", "{line}");
            self.answer("", &[], format.unwrap_or(Format::Xml), Locale::En, &log)
        })
    }

    fn answer(
        &self,
        tool: &str,
        arguments: &[(String, String)],
        format: Format,
        locale: Locale,
        log: &(dyn Fn(&str) + Send + Sync),
    ) -> CallToolResult {
        let outcome = match self.known_kind() {
            Some(kind) => HandlerOutcome::Known {
                kind,
                exception: &self.exception,
                arguments,
            },
            None => HandlerOutcome::Exception(&self.exception),
        };
        answer_result(tool, outcome, format, locale, log)
    }
}

/// Whether a system error is a connection's failure (the core answers each
/// UPSTREAM_UNAVAILABLE), which reqwest's error answers naming its URL.
#[cfg(feature = "reqwest")]
fn is_network(errno: &str) -> bool {
    matches!(errno, "ECONNREFUSED" | "ECONNRESET" | "EHOSTUNREACH" | "ENETUNREACH")
}

/// The kind of the first io error in `error`'s source chain.
#[cfg(feature = "reqwest")]
fn io_kind_in(error: &(dyn std::error::Error + 'static)) -> Option<io::ErrorKind> {
    let mut source = error.source();
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<io::Error>() {
            return Some(io.kind());
        }
        source = cause.source();
    }
    None
}

/// An error's text and its sources', for the log line.
#[cfg(feature = "reqwest")]
fn with_sources(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        // hyper and reqwest often repeat their source's words.
        if !text.ends_with(&said) {
            text += ": ";
            text += &said;
        }
        source = cause.source();
    }
    text
}

/// The call's arguments as (name, text) pairs, as the core flattens them
/// (`handler::arguments_as_text`): read once from their JSON text, on a
/// failure only.
fn arguments_as_text(arguments: &JsonObject) -> Vec<(String, String)> {
    let read = serde_json::to_string(arguments)
        .ok()
        .and_then(|text| crate::json::value(&text, &"the call's arguments").ok());
    read.map(|value| crate::handler::arguments_as_text(&value))
        .unwrap_or_default()
}

/// The call a handler's future runs for, as [`Thrown::result`] reads it.
pub(super) struct CallScope {
    /// The tool called.
    pub(super) tool: String,
    /// Its arguments, as the client sent them.
    pub(super) arguments: Option<JsonObject>,
    /// The server's form, locale and log.
    pub(super) format: Format,
    pub(super) locale: Locale,
    pub(super) log: LogLine,
}

tokio::task_local! {
    static CALL: Arc<CallScope>;
}

/// `future`, polled within `scope`.
pub(super) async fn within<F: Future>(scope: Arc<CallScope>, future: F) -> F::Output {
    CALL.scope(scope, future).await
}

/// `make`, run within `scope`: a handler may answer before its future exists.
pub(super) fn within_sync<R>(scope: Arc<CallScope>, make: impl FnOnce() -> R) -> R {
    CALL.sync_scope(scope, make)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_the_core_knows_has_its_posix_name() {
        use io::ErrorKind::*;
        for (kind, errno) in [
            (NotFound, "ENOENT"),
            (PermissionDenied, "EACCES"),
            (AlreadyExists, "EEXIST"),
            (IsADirectory, "EISDIR"),
            (NotADirectory, "ENOTDIR"),
            (DirectoryNotEmpty, "ENOTEMPTY"),
            (TimedOut, "ETIMEDOUT"),
            (ConnectionRefused, "ECONNREFUSED"),
            (ConnectionReset, "ECONNRESET"),
            (HostUnreachable, "EHOSTUNREACH"),
            (NetworkUnreachable, "ENETUNREACH"),
        ] {
            assert_eq!(errno_of(kind), Some(errno));
            assert!(crate::recovery::is_known_errno(errno), "{errno}");
        }
        for unknown in [InvalidData, UnexpectedEof, WouldBlock, Other, Interrupted] {
            assert_eq!(errno_of(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn a_permission_error_is_forbidden_naming_no_path_alone() {
        // As root, a real one cannot be raised in a test: the kind is what counts.
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        let thrown = Thrown::io(&denied, Some(Path::new("/srv/keys/id_rsa")), None);
        let error = thrown.error_alone();
        assert_eq!(error.code, "FORBIDDEN");
        assert_eq!(
            error.message,
            "The server is not allowed to access a file this call needs."
        );
        assert_eq!(
            thrown.exception,
            "PermissionDenied: permission denied, path '/srv/keys/id_rsa'"
        );
    }

    #[test]
    fn an_io_kind_the_core_does_not_know_is_an_internal_error() {
        let thrown = Thrown::io(&io::Error::other("disk quota at /srv exceeded"), None, None);
        assert_eq!(thrown.kind, Kind::Internal);
        assert_eq!(thrown.error_alone().code, "INTERNAL_ERROR");
        assert_eq!(thrown.exception, "Other: disk quota at /srv exceeded");
    }

    #[test]
    fn answered_alone_it_names_no_argument_and_logs_to_tracing() {
        let missing = io::Error::from(io::ErrorKind::NotFound);
        let thrown = Thrown::io(&missing, Some(Path::new("notes/a.txt")), None);
        let result = thrown.result(Some(Format::Text));
        let text = &result.content[0].as_text().unwrap().text;
        assert!(
            text.starts_with("error_code: NOT_FOUND\nwhat_failed: A file or folder this call needs does not exist.\n"),
            "{text}"
        );
        assert!(text.contains("correlation_id: err_"), "{text}");
        assert!(!text.contains("notes/a.txt"));
    }
}
