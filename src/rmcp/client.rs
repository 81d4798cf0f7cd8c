//! The agent host's side on rmcp's client (feature `rmcp-client`): a tool
//! call that acts on the core's [`host_step`] after each answer, waiting out
//! what is transient within a budget and escalating what the host cannot
//! resolve with the `<partial_result>` record of what it tried
//! (docs/host-loop.md). The rules and the words are the core's; this module
//! makes the calls and the waits.

use std::future::Future;
use std::time::Duration;

use ::rmcp::model::{CallToolRequestParams, CallToolResponse, Tool};
use ::rmcp::service::{Peer, RoleClient, ServiceError};

use crate::host_loop::{host_step, Attempt, Budget, Step};
use crate::tool_error::render::Format;

/// How a call through the host loop ended.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Then {
    /// The answer is the call's outcome.
    Done,
    /// Only the model can go on: it must change the call.
    ToModel,
    /// The host could not resolve it: `result` is the record.
    Escalate,
}

/// What [`call_tool_with_recovery`] ends with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Recovered {
    /// How it ended.
    pub then: Then,
    /// The last answer (a `CallToolResult`, or a JSON-RPC error's
    /// `{"code", "message", "data"?}`), or for [`Then::Escalate`] the
    /// record's `CallToolResult`, as JSON.
    pub result: serde_json::Value,
    /// Every call made, oldest first.
    pub tried: Vec<Attempt>,
}

/// Calls a tool through `peer` and absorbs what the host can without a model
/// turn: a transient failure is waited out (`sleep`, such as
/// `tokio::time::sleep`) and called again within `budget`, as the answer's
/// retry-after and the tool's annotations (`tool`, its `tools/list` entry)
/// allow; a write that is neither read-only nor idempotent is never retried
/// blindly. A failure of the transport itself is returned as rmcp's error.
pub async fn call_tool_with_recovery<S, F>(
    peer: &Peer<RoleClient>,
    params: CallToolRequestParams,
    tool: Option<&Tool>,
    budget: Budget,
    format: Format,
    mut sleep: S,
) -> Result<Recovered, ServiceError>
where
    S: FnMut(Duration) -> F,
    F: Future<Output = ()>,
{
    let listing = tool.and_then(|t| serde_json::to_string(t).ok());
    let mut tried = Vec::new();
    loop {
        let answer = match peer.call_tool_once(params.clone()).await {
            Ok(CallToolResponse::Complete(result)) => serde_json::to_value(&result),
            Ok(CallToolResponse::InputRequired(asked)) => serde_json::to_value(&asked),
            Ok(CallToolResponse::Task(created)) => serde_json::to_value(&created),
            Ok(_) => return Err(ServiceError::UnexpectedResponse),
            Err(ServiceError::McpError(error)) => serde_json::to_value(&error),
            Err(other) => return Err(other),
        }
        .map_err(|_| ServiceError::UnexpectedResponse)?;
        let step = host_step(
            &params.name,
            listing.as_deref(),
            &answer.to_string(),
            &mut tried,
            budget,
            format,
        )
        .map_err(|_| ServiceError::UnexpectedResponse)?;
        let (then, result) = match step {
            Step::Retry { wait_ms } => {
                sleep(Duration::from_millis(wait_ms)).await;
                continue;
            }
            Step::Done => (Then::Done, answer),
            Step::ToModel => (Then::ToModel, answer),
            Step::Escalate { record } => (
                Then::Escalate,
                serde_json::from_str(&record).map_err(|_| ServiceError::UnexpectedResponse)?,
            ),
        };
        return Ok(Recovered { then, result, tried });
    }
}
