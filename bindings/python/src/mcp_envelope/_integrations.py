"""What every framework integration (`mcp_server` for the `mcp` SDK's two lines, `fastmcp` for FastMCP) answers
a failed tool call with, kept framework-neutral: no framework is imported here, so each integration only maps its
framework's exceptions and result types onto these answers, and the words all come from the core."""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.util import find_spec
from types import TracebackType
from typing import Any, Literal, TypeVar, Union

from ._component import ID_RANDOM_BYTES, ToolResult, tool_result
from .envelope import Format, Locale, ToolError
from .errors import SpecError
from .ledger import Ledger
from .recovery import UnknownToolOption, answer_for_revision, exception_text, handler_result_json, unknown_tool
from .stores import SharedLedger
from .validation import validation_spec

logger = logging.getLogger("mcp_envelope")

F = TypeVar("F", bound=Callable[..., Any])
# The `_meta` key a client names its conversation with on a transport without sessions (docs/state.md), the same in
# every language; outside the `io.modelcontextprotocol/` prefix, which the MCP specification reserves.
CONVERSATION_META_KEY = "mcp-envelope/conversation"


@dataclass(frozen=True)
class LedgerRequest:
    """What a `ledger=` function is given about a call, to pick the ledger of the conversation it belongs to.

    `conversation` is the conversation as every language reads it: the request's `_meta` key
    `mcp-envelope/conversation` when the client sent it (a non-empty string), else the transport's session id,
    else None. The client chooses it: put the caller's own identity in the scope as well when clients must be kept
    apart. `session_id` is the transport's (`Mcp-Session-Id`, on a stateful Streamable HTTP transport), `meta` the
    request's `_meta` as sent, `headers` the HTTP request's (names in lower case; None off HTTP), `context` the
    framework's own context of the call (None for a call made outside any request)."""

    conversation: str | None = None
    session_id: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    headers: Mapping[str, str] | None = None
    context: Any = None


# One ledger for every call, or a function picking the ledger of the call's conversation from its request.
LedgerChoice = Union[Ledger, SharedLedger, Callable[[LedgerRequest], Union[Ledger, SharedLedger, None]], None]
# Whether the words a tool's author raised for the model (an exactly-`Exception`, `_thrown.author_words`) reach it:
# "shown" (scrubbed by the core, as TOOL_ERROR) or "hidden" (INTERNAL_ERROR, the words in the log only).
ThrownMessages = Literal["shown", "hidden"]
# JSON-RPC errors that ask the client itself to act (SEP-2575's missing capability -32021, the URL elicitation
# -32042 a call needs): protocol answers, not failures for the model, so every integration sends them as errors.
CLIENT_ACTIONS = frozenset({-32021, -32042})


def require(module: str, entry_point: str, extra: str) -> None:
    """Stops the import of `entry_point` with the install command when the framework `module` is missing (a
    `ModuleNotFoundError`, so `except ImportError` still catches it): each framework is an optional extra."""
    if find_spec(module) is None:
        raise ModuleNotFoundError(
            f"{entry_point} needs the {module!r} package, which is not installed: pip install 'mcp-envelope[{extra}]'",
            name=module,
        )


class Unanswerable(Exception):
    """Not even the component's INTERNAL_ERROR envelope could be made (the failure is logged); the integration
    answers with its framework's internal error."""


def ledger_for(choice: LedgerChoice, context: Any) -> Ledger | SharedLedger | None:
    """The ledger of a call: the one given, or the one the given function picks from the call's request. A
    function that raises or returns no ledger leaves the call without one: the result reaches the model as it
    came."""
    if choice is None or isinstance(choice, (Ledger, SharedLedger)):
        return choice
    try:
        chosen = choice(ledger_request(context))
    except Exception:
        logger.warning("the ledger function raised; this call goes without a ledger", exc_info=True)
        return None
    return chosen if isinstance(chosen, (Ledger, SharedLedger)) else None


def ledger_request(context: Any) -> LedgerRequest:
    """What a framework's context of a call says of its request: the `mcp` SDK's `Context` (2.x and 1.x) and
    FastMCP's, each of which holds the request context with the `_meta` and the HTTP request."""
    try:
        request_context = getattr(context, "request_context", None)
    except Exception:  # outside a request, `mcp` 1.x's Context raises rather than answer None
        request_context = None
    meta = _meta_of(request_context)
    given = getattr(getattr(request_context, "request", None), "headers", None)
    headers = {str(name).lower(): str(value) for name, value in given.items()} if isinstance(given, Mapping) else None
    session_id = (headers or {}).get("mcp-session-id") or None
    named = meta.get(CONVERSATION_META_KEY)
    conversation = named if isinstance(named, str) and named else session_id
    return LedgerRequest(conversation, session_id, meta, headers, context)


def _meta_of(request_context: Any) -> dict[str, Any]:
    """The request's `_meta` as the client sent it: from the raw params where the SDK keeps them (`mcp` 2.x, whose
    `meta` holds the progress token alone), else the context's `meta` (FastMCP's dict, `mcp` 1.x's model)."""
    params = getattr(request_context, "params", None)
    raw = params.get("_meta") if isinstance(params, Mapping) else None
    if isinstance(raw, Mapping):
        return dict(raw)
    meta = getattr(request_context, "meta", None)
    if isinstance(meta, Mapping):
        return dict(meta)
    dump = getattr(meta, "model_dump", None)
    return dict(dump(by_alias=True, exclude_none=True)) if callable(dump) else {}


def raised_in(error: BaseException, package: str) -> bool:
    """Whether the code of `package` raised `error` (the innermost frame of its traceback is in it) rather than a
    tool's own code: how a framework's wrap of a tool's exception is told from the same class raised by the tool."""
    innermost: TracebackType | None = error.__traceback__
    while innermost is not None and innermost.tb_next is not None:
        innermost = innermost.tb_next
    module = "" if innermost is None else str(innermost.tb_frame.f_globals.get("__name__", ""))
    return module == package or module.startswith(package + ".")


def revision_of(request_context: Any) -> str | None:
    """The protocol revision a request negotiated (its request context's `protocol_version`), None outside a
    request or where the SDK keeps none (`mcp` 1.x, which speaks no revision after 2025-11-25)."""
    try:
        version = getattr(request_context, "protocol_version", None)
    except Exception:  # a context outside any request may raise instead of answering None
        return None
    return version if isinstance(version, str) else None


def protocol_answer_for(revision: str | None, error: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a JSON-RPC error a tool raised (`{"code", "message", "data"?}`) is sent as under `revision`, as the core
    decides (docs/revisions.md): `{"result": ...}` (2026-07-28's `input_required` for a URL elicitation) or
    `{"error": ...}`; None when it goes as it came (no revision known, or nothing to change)."""
    if revision is None:
        return None
    sent = answer_for_revision(revision, {"error": dict(error)})
    return None if sent.get("error") == dict(error) else sent


def result_answer_for(revision: str | None, result: Mapping[str, Any]) -> dict[str, Any] | None:
    """`protocol_answer_for` for an `input_required` result a tool returned: under 2025-11-25, `{"error": ...}` (a
    URL elicitation's -32042, or -32603 for input that revision cannot ask for); None when it goes as it came."""
    if revision is None:
        return None
    sent = answer_for_revision(revision, {"result": dict(result)})
    return sent if "error" in sent else None


def checked_unknown_tool_option(answer: UnknownToolOption) -> UnknownToolOption:
    """`answer` once the core has taken it (SpecError with its words for any other value), so that a wrong
    option stops the server where it is built rather than at the first call of a tool it lacks."""
    unknown_tool("tool", [], answer=answer)
    return answer


def checked_thrown_messages(shown: ThrownMessages) -> ThrownMessages:
    """`shown` once the core has taken it, so that a wrong `thrown_messages` stops the server where it is built
    rather than at the first failure; SpecError naming the option and the core's words otherwise."""
    try:
        handler_result_json({"tool": "tool", "outcome": {"message": "-"}, "thrownMessages": shown, "random": "0" * 12})
    except SpecError as refused:
        raise SpecError(f"thrown_messages takes 'shown' or 'hidden', not {shown!r} ({refused})") from None
    return shown


def user_error_answer(
    tool: str, message: str, arguments: Mapping[str, Any] | None = None, format: Format = "xml", *,
    ledger: Ledger | None = None,
) -> ToolResult:  # fmt: skip
    """The answer to a framework's own error for the model (the `mcp` SDK's or FastMCP's `ToolError`), raised by
    `tool` with `message`."""
    return outcome_answer(tool, {"userError": message}, None, arguments, format, ledger=ledger)


def error_answer(
    tool: str, error: BaseException, arguments: Mapping[str, Any] | None = None, format: Format = "xml", *,
    ledger: Ledger | None = None, locale: Locale | None = None, thrown_messages: ThrownMessages = "shown",
) -> ToolResult:  # fmt: skip
    """The answer to `error` raised by `tool`'s own code: a `ToolError` as its envelope; an exception whose
    structure tells its kind (a system error's errno, an HTTP client's status, a timeout, an unreachable upstream:
    `_thrown.known_kind`) as the code the core gives that kind, naming the argument its path or URL came from; an
    instance of exactly `Exception` as its author's words (`_thrown.author_words`), shown or hidden as
    `thrown_messages` says; the JSON-RPC error an `mcp` SDK exception carries (`_thrown.rpc_error`) as the core's
    `rpcError` outcome, its words shown or hidden the same way; anything else as INTERNAL_ERROR
    (`exception_answer`). Only the structure is read here: the core decides every code and word."""
    if isinstance(error, ToolError):
        try:
            spec = error.to_spec()
        except Exception as unreadable:  # a spec that cannot be read is the tool's own failure
            return exception_answer(tool, unreadable, arguments, format, ledger=ledger, locale=locale)
        return outcome_answer(tool, {"error": spec}, error, arguments, format, ledger=ledger, locale=locale)
    from ._thrown import author_words, known_kind, rpc_error  # here, not at import: only a failure needs it

    rpc = rpc_error(error)
    if rpc is not None:
        outcome: dict[str, Any] = {"rpcError": rpc}
        return outcome_answer(tool, outcome, error, arguments, format, ledger=ledger, locale=locale,
                              thrown_messages=thrown_messages)  # fmt: skip
    known = known_kind(error)
    if known is not None:
        outcome = {"known": known | {"exception": exception_text(error)}}
        return outcome_answer(tool, outcome, error, arguments, format, ledger=ledger, locale=locale)
    words = author_words(error)
    if words is not None:
        outcome = {"message": words}
        return outcome_answer(tool, outcome, error, arguments, format, ledger=ledger, locale=locale,
                              thrown_messages=thrown_messages)  # fmt: skip
    return exception_answer(tool, error, arguments, format, ledger=ledger, locale=locale)


def arguments_answer(
    tool: str, error: Any, arguments: Mapping[str, Any] | None = None, format: Format = "xml", *,
    input_schema: Mapping[str, Any] | None = None, ledger: Ledger | None = None, locale: Locale | None = None,
    deltas: Sequence[Mapping[str, Any]] | None = None,
) -> ToolResult:  # fmt: skip
    """The answer to arguments that failed the framework's own check of the tool's signature (`error`, the pydantic
    ValidationError) or of its input schema (jsonschema's errors, a list): the `<validation_error>`, its field lines
    worded from `input_schema` (the tool's schema as `tools/list` sends it) when given, with the tool's BREAKING and
    RISKY contract `deltas` (a lockfile's, the core picks them)."""
    try:
        spec = validation_spec(tool, error, input=dict(arguments or {}), input_schema=input_schema, locale=locale,
                               deltas=deltas)  # fmt: skip
    except Exception as unreadable:
        return exception_answer(tool, unreadable, arguments, format, ledger=ledger, locale=locale)
    raised = error if isinstance(error, BaseException) else None
    return outcome_answer(tool, {"validation": spec}, raised, arguments, format, ledger=ledger, locale=locale)


def exception_answer(
    tool: str, error: BaseException, arguments: Mapping[str, Any] | None = None, format: Format = "xml", *,
    ledger: Ledger | None = None, locale: Locale | None = None,
) -> ToolResult:  # fmt: skip
    """INTERNAL_ERROR quoting a fresh correlation id, its log line (the traceback) logged to the `mcp_envelope`
    logger and nothing of the exception in the result. `Unanswerable` when the component cannot answer at all."""
    outcome = {"exception": exception_text(error)}
    return outcome_answer(tool, outcome, error, arguments, format, ledger=ledger, locale=locale)


def outcome_answer(
    tool: str, outcome: dict[str, Any], raised: BaseException | None, arguments: Mapping[str, Any] | None,
    format: Format, *, ledger: Ledger | None = None, locale: Locale | None = None,
    thrown_messages: ThrownMessages | None = None,
) -> ToolResult:  # fmt: skip
    """What the core's `handler-result` answers for `outcome` (docs/handler-outcomes.md): the result to send, logged
    when it is an INTERNAL_ERROR or a known failure, through the ledger step it names when there is a ledger. This
    module only says what kind of thing the tool produced."""
    request: dict[str, Any] = {"tool": tool, "outcome": outcome, "format": format,
                               "random": os.urandom(ID_RANDOM_BYTES).hex()}  # fmt: skip
    if locale is not None:
        request["locale"] = locale
    if "known" in outcome and arguments is not None:  # so the core can name the argument a path or URL came from
        request["arguments"] = dict(arguments)
    if thrown_messages is not None:
        request["thrownMessages"] = thrown_messages
    try:
        try:
            answer = json.loads(handler_result_json(request))
        except SpecError as refused:  # what the tool produced cannot be written as JSON: its own failure
            request["outcome"] = {"exception": exception_text(refused if raised is None else raised)}
            request.pop("arguments", None)  # an exception's answer never needs them: nothing more to refuse
            answer = json.loads(handler_result_json(request))
    except Exception:  # the component itself is unusable
        if raised is not None:
            logger.error("tool %r failed", tool, exc_info=(type(raised), raised, raised.__traceback__))
        logger.exception("mcp-envelope could not answer a failure of tool %r", tool)
        raise Unanswerable from None
    if "log" in answer:
        # A hidden message's log line holds its words only; the traceback beside it says where it was raised.
        traced = raised is not None and "message" in request["outcome"]
        exc_info = (type(raised), raised, raised.__traceback__) if traced and raised is not None else None
        logger.error("%s", answer["log"], extra={"correlation_id": answer["correlationId"]}, exc_info=exc_info)
    result = tool_result(answer["result"])
    if ledger is None:
        return result
    if answer["ledger"] == "failure" and isinstance(raised, ToolError):
        try:  # the error itself, so that a repeat keeps its locale, caps and form
            return ledger.failure(tool, raised, arguments=arguments, format=format)
        except Exception:  # a ledger that fails: the core's answer goes as it is
            return result
    return observed(ledger, tool, result, arguments) or result


def observed(ledger: Ledger, tool: str, result: Any, arguments: Mapping[str, Any] | None) -> ToolResult | None:
    """A result of `tool` as the ledger answers it (`Ledger.observe`: the core's rules): the result to send
    instead of a repeated failure, in the result's own form; None to send it as it is (a success ends the
    streak), as for what the core cannot read as a result."""
    try:
        return ledger.observe(tool, result, arguments=arguments)
    except SpecError:  # not a result the core can read: it still reaches the model as it came
        return None


def returning_results_as(send: Callable[[ToolResult], Any], fn: F) -> F:
    """Wraps a tool function, sync or async, so that a returned ToolResult goes out as `send` makes it (the
    framework's own result type, so the framework sends it as itself) and a returned ToolError is raised. The
    signature, and so the input schema, stays."""

    def answer(value: Any) -> Any:
        if isinstance(value, ToolError):
            raise value
        return send(value) if isinstance(value, ToolResult) else value

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        return answer(fn(*args, **kwargs))

    @functools.wraps(fn)
    async def run_async(*args: Any, **kwargs: Any) -> Any:
        return answer(await fn(*args, **kwargs))

    return run_async if inspect.iscoroutinefunction(fn) else run  # type: ignore[return-value]
