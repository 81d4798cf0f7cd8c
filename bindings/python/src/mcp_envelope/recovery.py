"""The failures every tool hits, as the core words them: an exception (INTERNAL_ERROR
under a correlation id, the traceback kept for the log), an upstream HTTP failure
(mapped onto our codes, its body kept from the model), a permission or sign-in
failure, a query that matched nothing, and a partial result. Each function is
one component call (docs/recovery-helpers.md, docs/partial-results.md); this
module only turns Python values (exceptions, response headers, bytes, the clock,
host randomness) into the spec's JSON.

    >>> from mcp_envelope.server import empty_result
    >>> print(empty_result("orders", query="for jo@example.com")["content"][0]["text"])
    0 orders found for jo@example.com.
    The query ran and matched nothing: this is a valid answer, not an error. Do not repeat the same query.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from ._component import ID_RANDOM_BYTES, ToolResult, call, call_json, produce, spec_text, to_json, tool_result
from ._values import UNREADABLE
from ._wire import AccessKind as AccessKind
from ._wire import PartialLimitsInForce, UnknownToolAnswerKind
from ._wire import UpstreamReport as UpstreamReport
from .envelope import Format, Locale, call_tool_result, limits_spec

# JSON-RPC's "internal error", the answer when even the component cannot answer.
INTERNAL_ERROR = -32603
# A partial result's caps in force (docs/size-caps.md), every key written: what `partial_limits_in_force` gives.
PartialLimits = PartialLimitsInForce


class ExceptionReport(TypedDict):
    """What `exception_result` gives: the result for the model, the id it quotes, the line for the log.

    Kept here rather than taken from `_wire`: its `result` is this package's `ToolResult`, which a TypedDict
    generated from the wire shape (a plain dict there) cannot narrow."""

    result: ToolResult
    correlationId: str
    log: str


def _given(**fields: Any) -> dict[str, Any]:
    """The optional spec members that are set (`None` means not given, as `null` does to the core)."""
    return {key: value for key, value in fields.items() if value is not None}


def exception_text(exception: BaseException) -> str:
    """An exception's formatted traceback (chained causes included), for the log line only. Never raises: one
    whose `__str__` raises reads `<exception str() failed>` there (traceback's words), and one whose very traceback
    or causes raise when read is its type's name and `[unreadable]` (docs/host-values.md)."""
    import traceback  # here, not at import: only an exception needs it

    try:
        # The last line break ends traceback's last line; the text is what comes before it.
        return "".join(traceback.format_exception(type(exception), exception, exception.__traceback__)).rstrip("\n")
    except Exception:
        return f"{type(exception).__name__}: {UNREADABLE}"


def exception_result(
    tool: str, exception: BaseException | str, *, correlation_id: str | None = None, format: Format = "xml",
    locale: Locale | None = None, random: str | None = None,
) -> ExceptionReport:  # fmt: skip
    """The INTERNAL_ERROR answer to an exception in `tool`'s own code: `{"result", "correlationId", "log"}`.

    `result` is the `CallToolResult` dict the model gets, quoting the correlation id and nothing of the
    exception; `log` is one logfmt line holding the id and the exception (its traceback, for a
    BaseException) for the server's log. The id is `correlation_id` when given, else the core makes one
    from `random` (hex; by default 6 fresh random bytes).
    """
    text = exception_text(exception) if isinstance(exception, BaseException) else exception
    spec = {"tool": tool, "exception": text} | _given(correlationId=correlation_id)
    spec |= {"random": os.urandom(ID_RANDOM_BYTES).hex() if random is None else random, "format": format} | _given(
        locale=locale
    )
    report: ExceptionReport = json.loads(exception_result_json(spec))
    report["result"] = tool_result(report["result"])
    return report


def exception_result_json(spec: Mapping[str, Any] | str) -> str:
    """`exception-result` for a spec `{"tool", "exception", "correlationId"?, "random"?, "format"?, "locale"?}`
    (a dict or its JSON text), as the component's exact JSON text."""
    return call_json("exception-result", spec)


def _header_pairs(headers: Any) -> list[tuple[Any, Any]] | None:
    """A response's header lines as (name, value) pairs, repeats kept; None when `headers` is no such thing."""
    if isinstance(headers, (str, bytes)):
        return None
    if callable(getattr(headers, "items", None)):  # a dict, httpx/requests headers, a multidict, an email Message
        return list(headers.items())
    if isinstance(headers, Iterable):
        pairs = list(headers)
        if all(isinstance(p, (tuple, list)) and len(p) == 2 for p in pairs):
            return [(name, value) for name, value in pairs]
    return None


def _text(value: Any) -> Any:
    """Bytes as text (UTF-8, bad bytes replaced); anything else as it is, for the core to take or refuse."""
    return value.decode("utf-8", "replace") if isinstance(value, (bytes, bytearray)) else value


def _headers(headers: Any) -> Any:
    """The `headers` member: an object whose value for a header line given more than once (urllib's and aiohttp's
    headers keep each Set-Cookie line) is the array of its values, as the core takes them; anything that is not
    headers as it is, for the core to refuse."""
    pairs = _header_pairs(headers)
    if pairs is None:
        return headers
    lines: dict[str, list[Any]] = {}
    for name, value in pairs:
        lines.setdefault(_text(name) if isinstance(name, (str, bytes)) else str(name), []).append(_text(value))
    return {name: values[0] if len(values) == 1 else values for name, values in lines.items()}


def upstream_error(
    status: int, *, headers: Any = None, body: str | bytes | None = None, now: float | None = None,
    service: str | None = None, excerpt_chars: int = 0, correlation_id: str | None = None,
    locale: Locale | None = None,
) -> UpstreamReport:  # fmt: skip
    """An upstream HTTP failure mapped onto our codes: `{"error": <error spec>, "log": {"status", "body", ...}}`.

    `headers` are the response's (any mapping, such as httpx's, requests' or urllib's, or (name, value) pairs);
    `Retry-After` is read from them. `body` (text, or bytes read as UTF-8) reaches the model only as a
    sanitized excerpt of at most `excerpt_chars` characters (0: none); `log["body"]` hands it back for
    the log. `now`, in Unix seconds, dates a Retry-After date (default: the clock). Raise the error
    with `ToolError.from_spec(report["error"])`, or send it with `call_tool_result(report["error"])`.
    """
    spec = {"status": status} | _given(
        headers=None if headers is None else _headers(headers), body=None if body is None else _text(body),
        now=time.time() if now is None else now, service=service, excerptChars=excerpt_chars,
        correlationId=correlation_id, locale=locale,
    )  # fmt: skip
    report: UpstreamReport = json.loads(upstream_error_json(spec))
    return report


def upstream_error_json(spec: Mapping[str, Any] | str) -> str:
    """`upstream-error` for a spec `{"status", "headers"?, "body"?, "now"?, "service"?, "excerptChars"?,
    "correlationId"?, "locale"?}` (a dict or its JSON text), as the component's exact JSON text."""
    return call_json("upstream-error", spec)


def access_error(
    kind: AccessKind, *, action: str | None = None, resource: str | None = None, correlation_id: str | None = None,
    locale: Locale | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The error spec of a FORBIDDEN (`kind="forbidden"`: never says whether the object exists) or
    AUTH_REQUIRED (`"auth-required"`: guidance for the host, never a token hunt) answer. `action` is what
    the caller tried ("refund"), `resource` what on ("order A-8812")."""
    spec = {"kind": kind} | _given(action=action, resource=resource, correlationId=correlation_id, locale=locale)
    error: dict[str, Any] = json.loads(access_error_json(spec))
    return error


def access_error_json(spec: Mapping[str, Any] | str) -> str:
    """`access-error` for a spec `{"kind", "action"?, "resource"?, "correlationId"?, "locale"?}` (a dict or its
    JSON text), as the component's exact JSON text."""
    return call_json("access-error", spec)


def forbidden(
    action: str | None = None, resource: str | None = None, *, correlation_id: str | None = None,
    locale: Locale | None = None, format: Format = "xml",
) -> ToolResult:  # fmt: skip
    """The `CallToolResult` dict of a FORBIDDEN answer (`access_error("forbidden", ...)`, then its result)."""
    spec = access_error("forbidden", action=action, resource=resource, correlation_id=correlation_id, locale=locale)
    return call_tool_result(spec, format)


def auth_required(
    action: str | None = None, resource: str | None = None, *, correlation_id: str | None = None,
    locale: Locale | None = None, format: Format = "xml",
) -> ToolResult:  # fmt: skip
    """The `CallToolResult` dict of an AUTH_REQUIRED answer (`access_error("auth-required", ...)`, then its result)."""
    spec = access_error("auth-required", action=action, resource=resource, correlation_id=correlation_id, locale=locale)
    return call_tool_result(spec, format)


def empty_result(
    what: str, *, query: str | None = None, suggestion: str | None = None, structured_content: Any = None,
    locale: Locale | None = None, localize_steering: bool | None = None,
) -> ToolResult:  # fmt: skip
    """The success `CallToolResult` dict (`isError: false`) of a query that ran and matched nothing: "0 `what`
    found `query`." and that this is an answer, not an error. `what` is a plural noun ("orders"), `query` carries
    its own preposition ("for jo@example.com"), `suggestion` the next step; `structured_content` (any JSON value) is
    passed through for a tool with an output schema."""
    spec = {"what": what} | _given(query=query, suggestion=suggestion, structuredContent=structured_content,
                                   locale=locale, localizeSteering=localize_steering)  # fmt: skip
    return tool_result(empty_result_json(spec))


def empty_result_json(spec: Mapping[str, Any] | str) -> str:
    """`empty-result` for a spec `{"what", "query"?, "suggestion"?, "structuredContent"?, "locale"?,
    "localizeSteering"?}` (a dict or its JSON text), as the component's exact JSON text."""
    return produce("empty-result", spec, result=True)


# How a call of a tool the server does not list is answered: the MCP specification's JSON-RPC error (the default),
# or SEP-2145's `isError` UNKNOWN_ACTION result.
UnknownToolOption = UnknownToolAnswerKind


class UnknownToolAnswer(TypedDict, total=False):
    """What `unknown_tool` gives, exactly one of: `error`, the JSON-RPC error object (`code` -32602, `message`
    naming the server's tools, `data` the UNKNOWN_ACTION envelope's JSON form) to send as the error of the
    `tools/call` request; `result`, the `isError` `CallToolResult` to send as its result."""

    error: dict[str, Any]
    result: ToolResult


def unknown_tool(
    tool: str, tools: Sequence[str], *, format: Format = "xml", answer: UnknownToolOption = "protocol-error"
) -> UnknownToolAnswer:
    """The answer to a call of a tool the server does not have, naming `tools` (the server's tool names, in its
    `tools/list` order) as the calls to make instead. By default (`answer="protocol-error"`) the JSON-RPC error
    -32602 the MCP specification asks for, `{"error": {"code", "message", "data"}}`; with
    `answer="tool-result"`, `{"result": <the isError UNKNOWN_ACTION CallToolResult in format>}`. SpecError for
    any other `answer`."""
    found: UnknownToolAnswer = json.loads(unknown_tool_json({"tool": tool, "tools": tools, "format": format,
                                                            "answer": answer}))  # fmt: skip
    if "result" in found:
        found["result"] = tool_result(found["result"])
    return found


def unknown_tool_json(spec: Mapping[str, Any] | str) -> str:
    """`unknown-tool` for a spec `{"tool", "tools", "format"?, "answer"?}` (a dict or its JSON text), as the
    component's exact JSON text."""
    text: str = call("unknown-tool", spec_text(spec))
    return text


def answer_for_revision(revision: str, answer: Mapping[str, Any]) -> dict[str, Any]:
    """A `tools/call` answer (`{"result": ...}` or `{"error": {"code", "message", "data"?}}`) as the protocol
    revision the request negotiated wants it on the wire (docs/revisions.md), decided by the core: under 2026-07-28
    a result gains `resultType: "complete"`, a URL elicitation error (-32042) becomes an `input_required` result
    and a reserved code the revision does not define becomes -32603; under 2025-11-25 the reverse. SpecError for
    a revision that is not `YYYY-MM-DD` or an answer of another shape."""
    sent: dict[str, Any] = json.loads(answer_for_revision_json({"revision": revision, "answer": answer}))
    return sent


def answer_for_revision_json(request: Mapping[str, Any] | str) -> str:
    """`answer-for-revision` for `{"revision", "answer"}` (a dict or its JSON text), as the component's exact
    JSON text."""
    text: str = call("answer-for-revision", spec_text(request))
    return text


def user_error(message: str, *, format: Format = "xml") -> ToolResult:
    """The `isError` `CallToolResult` dict for a framework's own error for the model (the `mcp` SDK's and FastMCP's
    `ToolError`): a TOOL_ERROR envelope stating `message`, or `message` itself when it already holds an envelope.
    What `EnvelopeMCPServer` and `EnvelopeMiddleware` answer such an error with; the TypeScript integrations
    answer FastMCP's `UserError` alike."""
    return tool_result(user_error_json({"message": message, "format": format}))


def user_error_json(spec: Mapping[str, Any] | str) -> str:
    """`user-error` for `{"message", "format"?}` (a dict or its JSON text), as the component's exact JSON text."""
    return produce("user-error", spec, result=True)


def handler_result_json(request: Mapping[str, Any] | str) -> str:
    """`handler-result` for `{"tool", "outcome", "format"?, "locale"?, "correlationId"?, "random"?}` (a dict or its
    JSON text): what a tool handler produced, as the result to send and the ledger step it goes through,
    `{"result", "ledger", "correlationId"?, "log"?}` (docs/handler-outcomes.md), as the component's exact JSON text."""
    return call_json("handler-result", request)


def idempotency_key_argument() -> str:
    """The argument a write's idempotency key comes in when the server names no other: `idempotency_key`, the
    same name in every language."""
    name: str = call("idempotency-key-argument")
    return name


def render_partial(spec: Mapping[str, Any] | str) -> str:
    """The `<partial_result>` envelope of a partial failure, in the spec's `format`: `{"task"?, "obtained",
    "failed": [{"item", "code", "message"?, "category"?, "retryable"?, "retryAfter"?}], "tried"?, "recovery"?,
    "correlationId"?, "format"?}` (docs/partial-results.md). SpecError when refused."""
    return produce("render-partial", spec)


def partial_result(spec: Mapping[str, Any] | str) -> ToolResult:
    """The `CallToolResult` dict of a partial result: `isError` false when something was obtained."""
    return tool_result(partial_result_json(spec))


def partial_result_json(spec: Mapping[str, Any] | str) -> str:
    """`partial_result` as the component's exact JSON text."""
    return produce("partial-result", spec, result=True)


def partial_limits_in_force(limits: Mapping[str, Any] | None = None) -> PartialLimits:
    """The caps a partial result with these `limits` is rendered under, every key written (None: the defaults);
    `message_chars` and `envelope_chars` may be given by their Python names. SpecError with the words a partial
    spec with them would get."""
    found: PartialLimits = json.loads(partial_limits_in_force_json(to_json(limits_spec(limits))))
    return found


def partial_limits_in_force_json(limits: Mapping[str, Any] | str | None) -> str:
    """`partial_limits_in_force` for a partial spec's `limits` as it is (an object, its JSON text, or None), as the
    component's exact JSON text."""
    return call_json("partial-limits", limits)
