//! Bounded backoff inside one tool call: a model that reads "retry in 30
//! seconds" retries on its next token, so a server absorbs a retryable
//! upstream failure itself while a deadline under the client's timeout
//! allows, and then answers with a terminal envelope saying not to retry.
//! The policy is a pure function of the attempt, the time spent and the
//! failure; a host only sleeps and sends the progress notification it names.
//!
//! The rules:
//! - A success, or a failure that is not retryable (by the error's own
//!   `retryable`, else its code's default; a `<validation_error>`, a partial
//!   result or an error with no envelope count as not retryable), is
//!   returned at once, as it is.
//! - A retryable failure is retried after its `retryAfter` when it states
//!   one, else after `baseMs × 2^(attempt−1)` (250 ms, 500, 1,000, ...). No
//!   randomness here: a host that wants jitter passes `random`, a whole
//!   number below 2^32, and the exponential wait loses `random / 2^32` of
//!   its half (integers only, so every host computes the same wait).
//! - When `attempt` reaches `maxAttempts` (default 4), or the wait would
//!   end past `deadlineMs`, the answer is terminal: the failure restated with
//!   `retryable: false`, no retry-after, a message saying how many attempts
//!   over how long, and a recovery saying not to retry; `decide` answers it
//!   `stop-and-tell`.
//!
//! ```
//! let step = mcp_envelope::raw::backoff(
//!     r#"{"attempt":1,"elapsedMs":40,"deadlineMs":3000,"failure":{"code":"TIMEOUT","message":"Billing is slow"}}"#,
//! ).unwrap();
//! assert_eq!(step, r#"{"waitMs":250,"progress":{"progress":1,"total":4,"message":"Attempt 1 of 4 failed (TIMEOUT); retrying in 250 ms."}}"#);
//! ```

use crate::error::SpecError;
use crate::json::{fail, object, push_json_string};
use crate::read::{read_tool_result, read_unwrapped, Reading};
use crate::tool_error::model::{Severity, ToolError, ToolFailureMeta};
use crate::tool_error::render::{call_tool_result, Format};

/// The first wait when the failure states no retry-after.
pub const DEFAULT_BASE_MS: u64 = 250;
/// Attempts in all, the first included.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 4;

/// What the host does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Sleep `wait_ms`, telling the client `progress` first (when its request
    /// carries a `progressToken`), then make attempt `progress.progress + 1`.
    Wait {
        /// How long to sleep, in milliseconds.
        wait_ms: u64,
        /// The MCP progress notification's `progress`, `total` and `message`.
        progress: Progress,
    },
    /// Send this `CallToolResult` JSON: the outcome as it is, or the terminal envelope.
    Result(String),
}

/// An MCP `notifications/progress` payload, less the token the host holds.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BackoffProgress"))]
pub struct Progress {
    /// The attempts made so far: increases with every notification.
    pub progress: u32,
    /// The most attempts there will be.
    pub total: u32,
    /// What happened and what comes next.
    pub message: String,
}

/// One request: where the retry loop stands.
#[derive(Debug, Clone)]
pub struct Request {
    /// The attempt that just ended, from 1.
    pub attempt: u32,
    /// Milliseconds since the first attempt began.
    pub elapsed_ms: u64,
    /// The budget in milliseconds from the first attempt: set it under the
    /// client's timeout, leaving room for one more attempt.
    pub deadline_ms: u64,
    /// Its outcome: a `CallToolResult` JSON, or an error spec's JSON.
    pub failure: String,
    /// The first exponential wait.
    pub base_ms: u64,
    /// Attempts in all (0 reads as 1).
    pub max_attempts: u32,
    /// A host's random whole number below 2^32 for jitter (`r / 2^32` of
    /// half the exponential wait is cut); `None`: no jitter.
    pub random: Option<u32>,
    /// The form of the terminal envelope when `failure` is a spec.
    pub format: Format,
}

/// The next step for a request.
///
/// ```
/// use mcp_envelope::backoff::{backoff, Request, Step};
/// use mcp_envelope::Format;
/// let request = Request {
///     attempt: 2, elapsed_ms: 900, deadline_ms: 1200, base_ms: 250, max_attempts: 4, random: None, format: Format::Text,
///     failure: r#"{"code":"RATE_LIMITED","message":"Too many lookups"}"#.into(),
/// };
/// let Ok(Step::Result(terminal)) = backoff(&request) else { panic!() };
/// assert!(terminal.contains(r#"what_failed: Too many lookups. 2 attempts inside this call failed, within its 1.2 s budget.\nnext_action: Do not retry"#));
/// ```
pub fn backoff(request: &Request) -> Result<Step, SpecError> {
    let (error, form, meta) = match failure_of(&request.failure, request.format)? {
        Failure::AsItIs(result) => return Ok(Step::Result(result)),
        Failure::Retryable { error, form, meta } => (*error, form, meta),
    };
    let max = request.max_attempts.max(1);
    let attempt = request.attempt.max(1);
    let wait_ms = match error.retry_after {
        Some(seconds) => u64::from(seconds) * 1000,
        None => {
            let exponential = request.base_ms.saturating_mul(1u64 << (attempt - 1).min(40));
            // random / 2^32 of half the wait, in integers: every host computes the same.
            let cut = request
                .random
                .map_or(0, |r| (exponential / 2).saturating_mul(u64::from(r)) >> 32);
            exponential - cut
        }
    };
    if attempt >= max || request.elapsed_ms.saturating_add(wait_ms) > request.deadline_ms {
        return Ok(Step::Result(call_tool_result(
            &terminal(error, attempt, request.deadline_ms, meta),
            form,
        )));
    }
    Ok(Step::Wait {
        wait_ms,
        progress: Progress {
            progress: attempt,
            total: max,
            message: format!(
                "Attempt {attempt} of {max} failed ({}); retrying in {wait_ms} ms.",
                error.code
            ),
        },
    })
}

enum Failure {
    /// Not retried: the result to send.
    AsItIs(String),
    /// Retried: the error, the form its result used, whether it had ToolFailure metadata.
    Retryable {
        error: Box<ToolError>,
        form: Format,
        meta: bool,
    },
}

fn failure_of(failure: &str, format: Format) -> Result<Failure, SpecError> {
    let is_result = object(failure, &"\"failure\"")?.iter().any(|(key, _)| key == "content");
    if !is_result {
        let error = crate::tool_error::spec::from_json(failure)?;
        if error.is_error() && error.is_retryable() {
            return Ok(Failure::Retryable {
                error: Box::new(error),
                form: format,
                meta: false,
            });
        }
        return Ok(Failure::AsItIs(call_tool_result(&error, format)));
    }
    let read = read_tool_result(failure, false)?;
    let text = read.text;
    match read_unwrapped(&text) {
        Ok(Reading::ToolError(error)) if read.is_error && error.is_retryable() => Ok(Failure::Retryable {
            error: Box::new(error),
            form: crate::tool_error::parse::form_of(&text),
            meta: read.tool_failure_meta,
        }),
        _ => Ok(Failure::AsItIs(crate::json::compact(failure))),
    }
}

/// The failure restated as final: not retryable, how many attempts within
/// which budget, and not to retry. The budget is the host's deadline, not the
/// time measured: the same failure must read the same from every server, and
/// a clock never measures the same twice.
fn terminal(error: ToolError, attempts: u32, deadline_ms: u64, meta: bool) -> ToolError {
    let plural = if attempts == 1 { "" } else { "s" };
    let (seconds, tenths) = (deadline_ms / 1000, deadline_ms % 1000 / 100);
    let budget = if tenths == 0 {
        format!("{seconds}")
    } else {
        format!("{seconds}.{tenths}")
    };
    let stop = if error.message.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    let tool_failure = match error.tool_failure {
        None if meta && error.correlation_id_text().is_some() => Some(ToolFailureMeta::default()),
        kept => kept,
    };
    // Field by field: `ToolError` is non-exhaustive outside the core crate.
    let mut spent = error;
    spent.message = format!(
        "{}{stop} {attempts} attempt{plural} inside this call failed, within its {budget} s budget.",
        spent.message
    );
    spent.suggestion = Some(
        "Do not retry: the server already retried this call until its time ran out. Tell the user the service is not answering now and to try again later."
            .to_owned(),
    );
    spent.severity = Severity::Error;
    spent.category = spent.category_or_default();
    spent.retryable = Some(false);
    spent.retry_after = None;
    spent.tool_failure = tool_failure;
    spent
}

impl Step {
    /// `{"waitMs", "progress": {"progress", "total", "message"}}` or
    /// `{"result": CallToolResult}`, written by hand (no serializer of its
    /// own in the component).
    pub fn to_json(&self) -> String {
        match self {
            Step::Result(result) => ["{\"result\":", result, "}"].concat(),
            Step::Wait { wait_ms, progress } => {
                let mut out = format!(
                    "{{\"waitMs\":{wait_ms},\"progress\":{{\"progress\":{},\"total\":{},\"message\":",
                    progress.progress, progress.total
                );
                push_json_string(&mut out, &progress.message);
                out.push_str("}}");
                out
            }
        }
    }
}

/// What [`backoff_json`] reads and writes, member by member, as shapes for
/// the schema alone: the wrappers' `BackoffRequest` and `BackoffStep` (a
/// `BackoffWait` or a `BackoffResult`). `wire_schema`'s tests validate the
/// shared vectors' requests and steps against them, so they cannot drift
/// from the reader and the writer.
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: their schemas are all they are for
pub mod shapes {
    use schemars::JsonSchema;
    use serde_json::{Map, Value};

    use super::Progress;

    fn default_base_ms() -> u64 {
        super::DEFAULT_BASE_MS
    }

    fn default_max_attempts() -> u32 {
        super::DEFAULT_MAX_ATTEMPTS
    }

    /// The `backoff` request: where the retry loop stands.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[schemars(rename = "BackoffRequest")]
    pub struct Request {
        /// The attempt that just ended, from 1.
        #[schemars(range(min = 1))]
        attempt: u32,
        /// Milliseconds since the first attempt began.
        elapsed_ms: u64,
        /// The budget in milliseconds from the first attempt: set it under
        /// the client's timeout, leaving room for one more attempt.
        deadline_ms: u64,
        /// The attempt's outcome: its `CallToolResult`, or an error spec.
        failure: Map<String, Value>,
        /// The first exponential wait, in milliseconds.
        #[serde(default = "default_base_ms")]
        base_ms: u64,
        /// Attempts in all, the first included (0 reads as 1).
        #[serde(default = "default_max_attempts")]
        max_attempts: u32,
        /// A whole number below 2^32 for jitter: `random / 2^32` of half the
        /// exponential wait is cut. Left out, or 0: no jitter.
        #[serde(default)]
        random: u32,
    }

    /// Sleep `waitMs`, telling the client `progress` first (when its request
    /// carries a `progressToken`), then make the next attempt.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[schemars(rename = "BackoffWait")]
    #[doc(hidden)]
    pub struct Wait {
        /// How long to sleep, in milliseconds.
        wait_ms: u64,
        /// The MCP progress notification's `progress`, `total` and `message`.
        progress: Progress,
    }

    /// Send `result`: the outcome as it is, or the terminal envelope (not retryable).
    #[derive(JsonSchema)]
    #[schemars(rename = "BackoffResult")]
    #[doc(hidden)]
    pub struct Done {
        /// The `CallToolResult` to send.
        result: Map<String, Value>,
    }

    /// What the host does next (`backoff`).
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[schemars(rename = "BackoffStep")]
    #[allow(missing_docs)] // each variant is named after the shape it holds
    pub enum Step {
        Wait(Wait),
        Result(Done),
    }
}

const KEYS: &str = "attempt, elapsedMs, deadlineMs, failure, baseMs, maxAttempts, random";

/// A whole number from `min` to `max`, read by hand rather than through
/// serde for the component's size.
#[inline(never)]
fn whole(key: &str, raw: &str, min: u64, max: u64) -> Result<u64, SpecError> {
    match raw
        .parse::<u64>()
        .ok()
        .filter(|_| raw.bytes().all(|b| b.is_ascii_digit()))
    {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => fail(format!(
            "\"{key}\" must be a whole number from {min} to {max}, not {raw}"
        )),
    }
}

/// The JSON entry point behind `mcp_envelope::raw::backoff`.
#[inline]
pub fn backoff_json(text: &str) -> Result<String, SpecError> {
    let members = object(text, &"the backoff request")?;
    let (mut attempt, mut elapsed_ms, mut deadline_ms, mut failure) = (None, None, None, None);
    let mut request = Request {
        attempt: 0,
        elapsed_ms: 0,
        deadline_ms: 0,
        failure: String::new(),
        base_ms: DEFAULT_BASE_MS,
        max_attempts: DEFAULT_MAX_ATTEMPTS,
        random: None,
        format: Format::Xml,
    };
    const U32: u64 = u32::MAX as u64;
    for (key, raw) in &members {
        let raw = raw.trim();
        match key.as_ref() {
            "attempt" => attempt = Some(whole(key, raw, 1, U32)? as u32),
            "elapsedMs" => elapsed_ms = Some(whole(key, raw, 0, u64::MAX)?),
            "deadlineMs" => deadline_ms = Some(whole(key, raw, 0, u64::MAX)?),
            "baseMs" => request.base_ms = whole(key, raw, 0, u64::MAX)?,
            "maxAttempts" => request.max_attempts = whole(key, raw, 0, U32)? as u32,
            "failure" => failure = Some(raw.to_owned()),
            "random" => request.random = Some(whole(key, raw, 0, U32)? as u32),
            other => {
                return fail(format!(
                    "unknown key {other:?} in the backoff request; the keys are {KEYS}"
                ))
            }
        }
    }
    let (Some(attempt), Some(elapsed_ms), Some(deadline_ms), Some(failure)) =
        (attempt, elapsed_ms, deadline_ms, failure)
    else {
        return crate::json::missing(
            "the backoff request needs \"attempt\" (from 1), \"elapsedMs\", \"deadlineMs\" and \"failure\"",
        );
    };
    (
        request.attempt,
        request.elapsed_ms,
        request.deadline_ms,
        request.failure,
    ) = (attempt, elapsed_ms, deadline_ms, failure);
    backoff(&request).map(|step| step.to_json())
}
