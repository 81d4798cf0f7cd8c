//! What [`super::EnvelopeServer::ledger_for`]'s function is told of a call, to
//! pick the repeat ledger of the conversation the call belongs to, read from
//! rmcp's context of the request the way the JS and Python packages read
//! their SDKs' (docs/state.md).

use ::rmcp::service::RequestContext;
use ::rmcp::RoleServer;

pub use crate::stores::CONVERSATION_META_KEY;

/// What a function given to [`super::EnvelopeServer::ledger_for`] is told of
/// a call.
///
/// ```
/// use mcp_envelope::rmcp::{LedgerRequest, CONVERSATION_META_KEY};
/// # fn pick(request: &LedgerRequest<'_>) -> Option<String> {
/// // The conversation the client named, else the session: a scope per conversation.
/// request.conversation.map(str::to_owned)
/// # }
/// # assert_eq!(CONVERSATION_META_KEY, "mcp-envelope/conversation");
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct LedgerRequest<'a> {
    /// The conversation, as every language reads it: the request's `_meta`
    /// key [`CONVERSATION_META_KEY`] when the client sent it (a non-empty
    /// string), else the transport's session id, else none. The client
    /// chooses it: put the caller's own identity in the scope as well when
    /// clients must be kept apart.
    pub conversation: Option<&'a str>,
    /// The transport's session id (`Mcp-Session-Id`): on a stateful
    /// Streamable HTTP transport only.
    pub session_id: Option<&'a str>,
    /// The request's `_meta`, as the client sent it.
    pub meta: &'a serde_json::Map<String, serde_json::Value>,
    /// The HTTP request's headers, on rmcp's HTTP transports.
    pub headers: Option<&'a http::HeaderMap>,
    /// rmcp's own context of the call (its extensions hold what a tower
    /// layer added, such as a signed-in user).
    pub context: &'a RequestContext<RoleServer>,
}

impl<'a> LedgerRequest<'a> {
    /// What `context` says of its request.
    pub(super) fn of(context: &'a RequestContext<RoleServer>) -> LedgerRequest<'a> {
        let meta = &context.meta.0 .0;
        let headers = context
            .extensions
            .get::<http::request::Parts>()
            .map(|parts| &parts.headers);
        let session_id = headers
            .and_then(|h| h.get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
            .filter(|id| !id.is_empty());
        let named = meta
            .get(CONVERSATION_META_KEY)
            .and_then(serde_json::Value::as_str)
            .filter(|name| !name.is_empty());
        LedgerRequest {
            conversation: named.or(session_id),
            session_id,
            meta,
            headers,
            context,
        }
    }
}
