//! The agent host's side of a failed tool call, as pure steps: after each
//! answer, whether the host waits and calls again on its own, hands the
//! answer to the model (only the model can change the call), returns it, or
//! escalates with a record of what it tried. A subagent handles transient
//! failures itself and escalates only what it cannot resolve, with the
//! partial results it did obtain and a note of what it tried: the record is
//! a `<partial_result>`, the envelope a coordinator already
//! reads, rendered here so every language writes the same bytes.
//!
//! The host keeps the attempts between steps (`tried`, as each step gives it
//! back) and does the waiting and the calling; the rules are [`decide_for`]'s
//! (the tool's annotations included, so a write that is neither read-only
//! nor idempotent is never retried blindly) plus a budget: at most
//! `maxAttempts` calls, and at most `maxWaitMs` of waiting in all.

use serde::{Deserialize, Serialize};

use crate::decide::{decide_for, Branch, Decision};
use crate::error::SpecError;
use crate::json::{fail, missing, read_list, read_member, to_json};
use crate::partial::{partial_call_tool_result, FailedItem, PartialResult};
use crate::read::{read_tool_result, read_unwrapped, Reading};
use crate::tool_error::render::Format;

/// How many calls, and how much waiting in all, the host spends before it escalates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", expecting = "a budget object")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "HostBudget"))]
pub struct Budget {
    /// Calls in all, the first included (default 3).
    #[serde(default = "Budget::default_attempts")]
    pub max_attempts: u32,
    /// Milliseconds of waiting between calls, in all (default 10,000).
    #[serde(default = "Budget::default_wait")]
    pub max_wait_ms: u64,
}

impl Budget {
    fn default_attempts() -> u32 {
        3
    }
    fn default_wait() -> u64 {
        10_000
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_attempts: Budget::default_attempts(),
            max_wait_ms: Budget::default_wait(),
        }
    }
}

/// One call the host made, as the steps keep it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", expecting = "an attempt object")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "HostAttempt"))]
pub struct Attempt {
    /// The code the answer's decision rests on, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The branch `decide` took on it.
    pub branch: Branch,
    /// How long the host waited after it before calling again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
}

/// What the host does after an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Wait, then make the same call again.
    Retry {
        /// How long to wait, in milliseconds.
        wait_ms: u64,
    },
    /// The answer is the call's outcome: return it (a success, warnings and partial results included).
    Done,
    /// Only the model can go on (it must change the call): give it the answer.
    ToModel,
    /// The host cannot resolve it: escalate with the record of what was tried.
    Escalate {
        /// The `CallToolResult` JSON carrying the record, a `<partial_result>`.
        record: String,
    },
}

/// The wait before retry number `attempt` (from 1) when the answer states
/// none: 500 ms, doubling.
fn default_wait(attempt: u32) -> u64 {
    500u64 << attempt.saturating_sub(1).min(10)
}

/// The next step after `answer` (a `CallToolResult` or a JSON-RPC error, as
/// JSON) to a call of `tool` (its name, and its `tools/list` entry when the
/// host has it), given the calls made before (`tried`, oldest first) and the
/// `budget`; `tried` comes back with this answer's attempt added.
pub fn host_step(
    tool: &str,
    listing: Option<&str>,
    answer: &str,
    tried: &mut Vec<Attempt>,
    budget: Budget,
    format: Format,
) -> Result<Step, SpecError> {
    let decision = decide_for(answer, listing)?;
    let attempt_number = u32::try_from(tried.len()).unwrap_or(u32::MAX).saturating_add(1);
    tried.push(Attempt {
        code: decision.code.clone(),
        branch: decision.branch,
        waited_ms: None,
    });
    let why = match decision.branch {
        Branch::Accept => return Ok(Step::Done),
        Branch::FixAndRetry => return Ok(Step::ToModel),
        Branch::WaitAndRetry => {
            let wait_ms = decision
                .wait_seconds
                .map_or_else(|| default_wait(attempt_number), |s| u64::from(s) * 1000);
            let waited: u64 = tried.iter().filter_map(|a| a.waited_ms).sum();
            if attempt_number >= budget.max_attempts {
                let calls = if attempt_number == 1 { "call" } else { "calls" };
                format!("gave up after {attempt_number} {calls}, the most the budget allows")
            } else if waited.saturating_add(wait_ms) > budget.max_wait_ms {
                format!(
                    "did not wait {wait_ms} ms more: {waited} ms of {} already waited",
                    budget.max_wait_ms
                )
            } else {
                if let Some(last) = tried.last_mut() {
                    last.waited_ms = Some(wait_ms);
                }
                return Ok(Step::Retry { wait_ms });
            }
        }
        _ => decision.why.to_owned(),
    };
    Ok(Step::Escalate {
        record: escalation(tool, answer, tried, &decision, &why, format),
    })
}

/// The record a coordinator reads: the call as the task, what the last
/// answer obtained (a partial result's lines), what failed as the last
/// answer stated it ([`stated_failure`]), each attempt, and what the branch
/// leaves to do.
fn escalation(tool: &str, answer: &str, tried: &[Attempt], decision: &Decision, why: &str, format: Format) -> String {
    let lines = tried.iter().enumerate().map(|(i, a)| {
        let code = a.code.as_deref().unwrap_or("no code");
        match a.waited_ms {
            Some(ms) => format!("call {}: {code} ({}), then waited {ms} ms", i + 1, a.branch),
            None => format!("call {}: {code} ({})", i + 1, a.branch),
        }
    });
    // An answer without a code: input the server asks for, or the tool's own words.
    let code = decision.code.clone().unwrap_or_else(|| {
        match decision.branch {
            Branch::ProvideInput => "INPUT_REQUIRED",
            _ => crate::code::TOOL_ERROR,
        }
        .to_owned()
    });
    let recovery = match decision.branch {
        Branch::WaitAndRetry => {
            "The failure is transient, but the retries the host allows are spent: try again later, or tell the user."
        }
        Branch::VerifyBeforeRetry => {
            "The tool may have written before it failed: check whether it did before calling it again, never blindly."
        }
        Branch::StepUp => "Authorize again with the scopes named, then make the same call.",
        Branch::ProvideInput => {
            "The server asks for input only the user or the client can give: ask them, then call again with it."
        }
        Branch::PollTask => "The call runs as a task: poll it to its end.",
        _ => "Do not call it again: tell the user what failed, with what was obtained.",
    };
    let mut partial = stated_failure(answer, decision, FailedItem::new(tool, code));
    partial.task = Some(format!("call {tool}: {why}"));
    partial.recovery = Some(recovery.to_owned());
    partial_call_tool_result(&partial.tried(lines), format)
}

/// What the last answer obtained and what failed, as it stated them: a
/// partial result's lines and failed items as they are; else `item` (the
/// tool, with the code the decision rests on) with the category,
/// retryability and retry-after the answer stated (`Decision::stated`: a
/// `<tool_error>` in the result or in a JSON-RPC error's `data`, or the
/// ToolFailure metadata).
/// Never the code's defaults in their place: a terminal RATE_LIMITED stays
/// not retryable, a custom code keeps its category.
fn stated_failure(answer: &str, decision: &Decision, mut item: FailedItem) -> PartialResult {
    let text = read_tool_result(answer, true).map(|r| r.text).unwrap_or_default();
    if let Ok(Reading::PartialResult(partial)) = read_unwrapped(&text) {
        return partial;
    }
    if let Some(stated) = decision.stated {
        item.category = stated.category;
        item.retryable = Some(stated.retryable);
        item.retry_after = stated.retry_after;
    }
    PartialResult::new().failed(item)
}

/// What [`host_step_json`] writes, member by member, as shapes for the
/// schema alone: the wrappers' `HostStep` (a `HostRetry`, `HostHandover` or
/// `HostEscalation`, told apart by `then`). `wire_schema`'s tests validate
/// the shared vectors' steps against them, so they cannot drift from the writer.
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: their schemas are all they are for
pub mod output {
    use schemars::JsonSchema;
    use serde_json::{Map, Value};

    use super::Attempt;

    /// Wait, then make the same call again.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[schemars(rename = "HostRetry")]
    #[doc(hidden)]
    pub struct Retry {
        #[schemars(extend("const" = "retry"))]
        then: String,
        /// How long to wait before calling again, in milliseconds.
        wait_ms: u64,
        /// Every call made, oldest first: to pass to the next step.
        tried: Vec<Attempt>,
    }

    /// `done`: the answer is the call's outcome, return it; `to-model`: only
    /// the model can go on (it must change the call), give it the answer.
    #[derive(JsonSchema)]
    #[schemars(rename = "HostHandover")]
    #[doc(hidden)]
    pub struct Handover {
        #[schemars(extend("enum" = ["done", "to-model"]))]
        then: String,
        /// Every call made, oldest first.
        tried: Vec<Attempt>,
    }

    /// The host could not resolve it: `result` is the escalation record.
    #[derive(JsonSchema)]
    #[schemars(rename = "HostEscalation")]
    #[doc(hidden)]
    pub struct Escalation {
        #[schemars(extend("const" = "escalate"))]
        then: String,
        /// The record's `CallToolResult`: a `<partial_result>` of what was tried.
        result: Map<String, Value>,
        /// Every call made, oldest first.
        tried: Vec<Attempt>,
    }

    /// What the host does after an answer (`host-step`).
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[allow(missing_docs)] // each variant is named after the shape it holds
    pub enum HostStep {
        Retry(Retry),
        Handover(Handover),
        Escalation(Escalation),
    }
}

/// The whole input, as a refusal names it.
const WHAT: &str = "the host-step input";

/// The JSON entry point behind `mcp_envelope::raw::host_step`. Read member by
/// member rather than into a derived struct (about 3 KB less component):
/// the answer and the listing are kept as the text given, the attempts and
/// the budget read by serde, so a refusal still names its path (`tried[0].branch`).
#[inline]
pub fn host_step_json(text: &str) -> Result<String, SpecError> {
    let (mut name, mut answer, mut listing) = (None, None, None);
    let (mut tried, mut budget, mut format) = (Vec::new(), Budget::default(), Format::Xml);
    for (key, value) in crate::json::object(text, &WHAT)? {
        let what = crate::json::Quoted(&key);
        match key.as_ref() {
            "name" => name = Some(crate::json::string(&value, &what)?),
            "result" => answer = Some(value.to_string()),
            "tool" if !crate::json::is_null(&value) => listing = Some(value.to_string()),
            "tool" => listing = None,
            "tried" => tried = read_list(&value, "tried")?,
            "budget" => budget = read_member(&value, "budget")?,
            "format" if !crate::json::is_null(&value) => {
                let given = crate::json::string(&value, &what)?;
                format = Format::from_wire(&given).ok_or_else(|| {
                    SpecError::invalid(format!(
                        "format: unknown variant `{given}`, expected one of `xml`, `json`, `text`"
                    ))
                })?;
            }
            "format" => format = Format::Xml,
            _ => {
                return fail(format!(
                "{WHAT}: unknown field `{key}`, expected one of `name`, `result`, `tool`, `tried`, `budget`, `format`"
            ))
            }
        }
    }
    let Some(name) = name else {
        return missing("missing \"name\": the name of the tool called");
    };
    let Some(answer) = answer else {
        return missing("missing \"result\": the call's CallToolResult, or its JSON-RPC error");
    };
    if budget.max_attempts == 0 {
        return fail("\"budget.maxAttempts\" must be at least 1: the first call counts");
    }
    let step = host_step(&name, listing.as_deref(), &answer, &mut tried, budget, format)?;
    let tried = to_json(&tried);
    Ok(match step {
        Step::Retry { wait_ms } => format!(r#"{{"then":"retry","waitMs":{wait_ms},"tried":{tried}}}"#),
        Step::Done => format!(r#"{{"then":"done","tried":{tried}}}"#),
        Step::ToModel => format!(r#"{{"then":"to-model","tried":{tried}}}"#),
        Step::Escalate { record } => format!(r#"{{"then":"escalate","result":{record},"tried":{tried}}}"#),
    })
}
