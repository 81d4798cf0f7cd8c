//! The idempotency store's answers as an rmcp tool sends them, noted for
//! the repeat ledger of the [`EnvelopeServer`](super::EnvelopeServer) the
//! call runs in: a replay, the in-progress CONFLICT and the store's
//! SERVER_BUSY are no failure of the call itself, so they go through no
//! ledger step (docs/repeat-ledger.md), as the core names it
//! ([`crate::idempotency::ledger_observes`]).

use std::cell::Cell;
use std::future::Future;

use ::rmcp::model::CallToolResult;

use crate::error::SpecError;

tokio::task_local! {
    /// Whether the call's tool sent an answer the core names no ledger step for.
    static SENT_INSTEAD: Cell<bool>;
}

/// The result an idempotency store answered with instead of running a write
/// (`outcome`, its wire name: [`crate::idempotency::Begin::outcome`], or a
/// [`crate::stores::SharedBegin::Send`]'s; `result`, its `CallToolResult`
/// JSON), as rmcp's type. Within an [`EnvelopeServer`](super::EnvelopeServer)'s
/// call, a `replay`, `in-progress` or `unavailable` answer then goes out as
/// it is, and the tool's streak in the server's repeat ledger is neither
/// counted nor ended; a `reused` or `invalid-key` one goes through the
/// ledger as any failure. Return it from the tool's own future: a task it
/// spawns is outside the call.
///
/// ```
/// use mcp_envelope::idempotency::{Begin, Idempotency, ToolArguments};
/// use mcp_envelope::rmcp::idempotency_answer;
/// use mcp_envelope::Format;
///
/// let mut store = Idempotency::default();
/// let args = ToolArguments::from_json(r#"{"orderId":"A-1"}"#).unwrap();
/// store.begin("refund_order", "k-1", &args, 0, Format::Xml);
/// let begun = store.begin("refund_order", "k-1", &args, 1, Format::Xml);
/// let result = idempotency_answer(begun.outcome(), begun.result().unwrap()).unwrap();
/// assert_eq!(result.is_error, Some(true)); // the in-progress CONFLICT
/// ```
pub fn idempotency_answer(outcome: &str, result: &str) -> Result<CallToolResult, SpecError> {
    if !crate::idempotency::ledger_observes(outcome) {
        // Outside an EnvelopeServer's call there is no ledger to tell.
        let _ = SENT_INSTEAD.try_with(|sent| sent.set(true));
    }
    super::result_from_json(result)
}

/// `call`'s output, and whether its tool sent a store's answer that goes
/// through no ledger step.
pub(super) async fn watched<F: Future>(call: F) -> (F::Output, bool) {
    SENT_INSTEAD
        .scope(Cell::new(false), async {
            let output = call.await;
            (output, SENT_INSTEAD.with(Cell::get))
        })
        .await
}
