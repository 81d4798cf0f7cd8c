//! A `tools/call` answer as the protocol revision its request negotiated
//! wants it on the wire. A server that speaks both revisions in force answers
//! one handler's outcome in two shapes, and which shape is decided here once,
//! so every integration sends the same bytes:
//!
//! - **2026-07-28 and later** (the stateless revision): every result carries
//!   `resultType` (`"complete"` when the handler set none); the codes
//!   -32020 to -32099 are reserved and only those the revision defines are
//!   sent (-32020, -32021, -32022); -32042 and -32002 are never sent again.
//!   A URL elicitation a call needs (2025-11-25's error -32042, with
//!   `data.elicitations`) becomes an `InputRequiredResult`: `resultType:
//!   "input_required"` and one `elicitation/create` request per elicitation
//!   in `inputRequests`, keyed by its `elicitationId`, which 2026-07-28
//!   removed from the params (the key names the request). Any other reserved
//!   code the revision does not define becomes -32603 with the same message
//!   and data.
//! - **2025-11-25 and earlier**: results have no `resultType`, so
//!   `"complete"` is dropped; an `input_required` result whose requests are
//!   all URL elicitations becomes the error -32042 that revision defines
//!   (`data.elicitations`, the SDKs' message), each elicitation's
//!   `elicitationId` (required there) its key unless it names one; an
//!   `input_required` result
//!   that revision cannot carry (form elicitation, sampling, roots, or
//!   `requestState` alone) becomes -32603 saying so, since a client of that
//!   revision would read it as an empty result.
//!
//! Everything else is sent as it came. The schema's types are not used:
//! the answer is the handler's JSON, passed through member for member, and
//! only the members these rules name are read or written.

use crate::error::SpecError;
use crate::json::{fail, missing, to_json, two_members, Map, Number, Value};

/// The first revision with `resultType` and the reserved code range.
pub const STATELESS_REVISION: &str = "2026-07-28";

pub use crate::code::URL_ELICITATION_REQUIRED;

/// JSON-RPC's internal error, for an answer the revision cannot carry.
const INTERNAL_ERROR: i64 = -32603;

/// The reserved codes 2026-07-28 defines: header mismatch, missing client
/// capability, unsupported protocol version.
const DEFINED_RESERVED: [i64; 3] = [-32020, -32021, -32022];

/// Whether `revision` (`YYYY-MM-DD`) is 2026-07-28 or later; `None` when it
/// is not a date-shaped revision.
///
/// ```
/// use mcp_envelope::revision::is_stateless;
/// assert_eq!(is_stateless("2026-07-28"), Some(true));
/// assert_eq!(is_stateless("2025-11-25"), Some(false));
/// assert_eq!(is_stateless("latest"), None);
/// ```
pub fn is_stateless(revision: &str) -> Option<bool> {
    let bytes = revision.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    shaped.then(|| revision >= STATELESS_REVISION)
}

/// The JSON entry point behind `mcp_envelope::raw::answer_for_revision`.
#[inline]
pub fn answer_for_revision_json(text: &str) -> Result<String, SpecError> {
    let [revision, answer] = two_members(text, "the answer-for-revision input", ["revision", "answer"])?;
    let revision = revision
        .map(|raw| crate::json::string(&raw, &crate::json::Quoted("revision")))
        .transpose()?;
    let answer = answer
        .map(|raw| crate::json::value(&raw, &crate::json::Quoted("answer")))
        .transpose()?;
    let Some(revision) = revision else {
        return missing("missing \"revision\": the protocol revision the request negotiated, such as \"2025-11-25\"");
    };
    let Some(answer) = answer else {
        return missing("missing \"answer\": {\"result\": <the result>} or {\"error\": <the JSON-RPC error>}");
    };
    let Some(stateless) = is_stateless(&revision) else {
        return fail(format!(
            "\"revision\" must be a protocol revision such as \"2025-11-25\", not {revision:?}"
        ));
    };
    let one_member = match answer {
        Value::Object(answer) if answer.len() == 1 => answer.into_iter().next(),
        _ => None,
    };
    let Some((key, body)) = one_member else {
        return fail("\"answer\" must be {\"result\": <the result>} or {\"error\": <the JSON-RPC error>}");
    };
    let Value::Object(body) = body else {
        return fail(format!("\"answer.{key}\" must be an object"));
    };
    let sent = match (key.as_str(), stateless) {
        ("result", true) => Sent::Result(result_for_stateless(body)),
        ("result", false) => result_for_legacy(body, &revision),
        ("error", true) => error_for_stateless(body)?,
        ("error", false) => Sent::Error(checked_error(body)?),
        _ => return fail("\"answer\" must be {\"result\": <the result>} or {\"error\": <the JSON-RPC error>}"),
    };
    Ok(sent.into_json())
}

/// What goes on the wire.
enum Sent {
    Result(Map),
    Error(Map),
}

impl Sent {
    fn into_json(self) -> String {
        let (key, body) = match self {
            Sent::Result(body) => ("result", body),
            Sent::Error(body) => ("error", body),
        };
        to_json(&Value::Object(Map::from_iter([(key.to_owned(), Value::Object(body))])))
    }
}

fn result_for_stateless(mut result: Map) -> Map {
    if result.get("resultType").is_none() {
        result.insert("resultType".to_owned(), Value::String("complete".to_owned()));
    }
    result
}

fn result_for_legacy(mut result: Map, revision: &str) -> Sent {
    match result.get("resultType").and_then(Value::as_str) {
        Some("complete") => {
            result.remove("resultType");
            Sent::Result(result)
        }
        Some("input_required") => match url_elicitations(&result) {
            Some(elicitations) => {
                let message = if elicitations.len() > 1 {
                    "URL elicitations required"
                } else {
                    "URL elicitation required"
                };
                let data = Map::from_iter([("elicitations".to_owned(), Value::Array(elicitations))]);
                Sent::Error(error(URL_ELICITATION_REQUIRED, message, Some(Value::Object(data))))
            }
            None => Sent::Error(error(
                INTERNAL_ERROR,
                &format!(
                    "The tool needs input (resultType input_required) that protocol revision {revision} cannot ask for in a result."
                ),
                None,
            )),
        },
        _ => Sent::Result(result),
    }
}

/// The params of every request in an `input_required` result's
/// `inputRequests`, when there is at least one and each is a URL-mode
/// `elicitation/create`; otherwise `None`.
fn url_elicitations(result: &Map) -> Option<Vec<Value>> {
    let requests = result.get("inputRequests")?.as_object()?;
    let params: Option<Vec<Value>> = requests
        .iter()
        .map(|(key, request)| {
            let params = request.get("params")?;
            let is_url = request.get("method")?.as_str() == Some("elicitation/create")
                && params.get("mode")?.as_str() == Some("url");
            let mut params = params.as_object().filter(|_| is_url)?.clone();
            if params.get("elicitationId").is_none() {
                params.insert("elicitationId".to_owned(), Value::String(key.clone()));
            }
            Some(Value::Object(params))
        })
        .collect();
    params.filter(|p| !p.is_empty())
}

fn error_for_stateless(body: Map) -> Result<Sent, SpecError> {
    let body = checked_error(body)?;
    let code = body.get("code").and_then(Value::as_i64).unwrap_or_default();
    if code == URL_ELICITATION_REQUIRED {
        if let Some(result) = input_required(&body) {
            return Ok(Sent::Result(result));
        }
    }
    let reserved = (-32099..=-32020).contains(&code) && !DEFINED_RESERVED.contains(&code);
    if reserved || code == -32002 {
        let mut internal = body;
        internal.insert(
            "code".to_owned(),
            Value::Number(Number::from_json_text(INTERNAL_ERROR.to_string())),
        );
        return Ok(Sent::Error(internal));
    }
    Ok(Sent::Error(body))
}

/// The `InputRequiredResult` for a -32042 error's `data.elicitations`, or
/// `None` when it holds no elicitation objects.
fn input_required(error: &Map) -> Option<Map> {
    let elicitations = error.get("data")?.get("elicitations")?.as_array()?;
    if elicitations.is_empty() || !elicitations.iter().all(Value::is_object) {
        return None;
    }
    let mut requests = Map::new();
    for (i, params) in elicitations.iter().enumerate() {
        // The elicitation's own id is its key, as the client answers by key;
        // one without an id, or whose id repeats, is keyed by its place.
        let key = match params.get("elicitationId").and_then(Value::as_str) {
            Some(id) if !requests.contains_key(id) => id.to_owned(),
            _ => format!("elicitation-{}", i + 1),
        };
        let mut params = params.clone();
        if let Value::Object(params) = &mut params {
            params.remove("elicitationId");
        }
        let request = Map::from_iter([
            ("method".to_owned(), Value::String("elicitation/create".to_owned())),
            ("params".to_owned(), params),
        ]);
        requests.insert(key, Value::Object(request));
    }
    Some(Map::from_iter([
        ("resultType".to_owned(), Value::String("input_required".to_owned())),
        ("inputRequests".to_owned(), Value::Object(requests)),
    ]))
}

/// A JSON-RPC error object: an integer `code` and a string `message`.
fn checked_error(body: Map) -> Result<Map, SpecError> {
    if body.get("code").and_then(Value::as_i64).is_none() {
        return fail("\"answer.error.code\" must be an integer: the JSON-RPC error's code");
    }
    if body.get("message").and_then(Value::as_str).is_none() {
        return fail("\"answer.error.message\" must be a string: the JSON-RPC error's message");
    }
    Ok(body)
}

fn error(code: i64, message: &str, data: Option<Value>) -> Map {
    let mut error = Map::from_iter([
        (
            "code".to_owned(),
            Value::Number(Number::from_json_text(code.to_string())),
        ),
        ("message".to_owned(), Value::String(message.to_owned())),
    ]);
    if let Some(data) = data {
        error.insert("data".to_owned(), data);
    }
    error
}
