"""Envelopes for FastMCP (the `fastmcp` package, 4.x): `EnvelopeMiddleware`, a middleware on FastMCP's own
extension point (`Middleware.on_call_tool`), answers every failed tool call with an envelope, whatever the
server's `mask_error_details` says, sends an envelope a tool returns as itself, and lets no failure leave as a
JSON-RPC error the model never reads; a call of a tool the server lacks is answered as the core says, by default
with the JSON-RPC error the MCP specification asks for. The answers are the `mcp_server` integration's, byte for
byte: one core words them all. Needs the `fastmcp` extra.

    server = FastMCP("billing", middleware=[EnvelopeMiddleware()])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from weakref import WeakSet

from ._integrations import require

require("fastmcp", "mcp_envelope.fastmcp", "fastmcp")

from fastmcp.exceptions import DisabledError, NotFoundError
from fastmcp.exceptions import ToolError as FastMCPToolError
from fastmcp.exceptions import ValidationError as FastMCPValidationError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.server.transforms import GetToolNext, Transform
from fastmcp.tools import FunctionTool, InputRequiredToolResult, Tool
from fastmcp.tools import ToolResult as FastMCPToolResult
from fastmcp.utilities.versions import VersionSpec, dedupe_with_versions
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INTERNAL_ERROR,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    URL_ELICITATION_REQUIRED,
    CallToolRequestParams,
    CallToolResult,
    ErrorData,
    InputRequiredResult,
)
from pydantic import ValidationError as PydanticValidationError

from ._component import ToolResult
from ._integrations import (
    LedgerChoice,
    LedgerRequest,
    ThrownMessages,
    Unanswerable,
    arguments_answer,
    checked_thrown_messages,
    checked_unknown_tool_option,
    error_answer,
    ledger_for,
    observed,
    protocol_answer_for,
    raised_in,
    result_answer_for,
    returning_results_as,
    revision_of,
    user_error_answer,
)
from .contract import LockedContract, ToolList
from .envelope import Format, Locale
from .errors import SpecError
from .ledger import Ledger
from .recovery import UnknownToolOption, unknown_tool
from .stores import SharedLedger
from .telemetry import record_on_span

__all__ = [
    "EnvelopeMiddleware", "LedgerRequest", "ReturnedEnvelopes", "raised_by_fastmcp", "returning_results",
    "sent_as_itself",
]  # fmt: skip

# JSON-RPC errors that ask the client itself to act (SEP-2575's missing capability, the URL elicitation a
# call needs): protocol answers, not failures for the model, so they stay JSON-RPC errors.
CLIENT_ACTIONS = frozenset({MISSING_REQUIRED_CLIENT_CAPABILITY, URL_ELICITATION_REQUIRED})

_F = TypeVar("_F", bound=Callable[..., Any])


def sent_as_itself(value: Any) -> Any:
    """A tool's return value as FastMCP should take it: a ToolResult (a result this package made) as FastMCP's own
    `ToolResult` holding exactly that `CallToolResult`, so FastMCP sends it as itself instead of dumping the dict
    as JSON data; anything else as it is."""
    return _fastmcp_result(value) if isinstance(value, ToolResult) else value


async def _shared_observed(
    ledger: SharedLedger, tool: str, result: Any, arguments: Mapping[str, Any]
) -> ToolResult | None:
    """`observed` for a SharedLedger: the result to send instead of a repeated failure, or None."""
    try:
        return await ledger.observe(tool, result, arguments=arguments)
    except SpecError:  # not a result the core can read: it still reaches the model as it came
        return None


def _request_context(context: MiddlewareContext[Any]) -> Any:
    """The SDK's request context of a call (where its negotiated protocol version is), None outside a request."""
    fastmcp_context = context.fastmcp_context
    try:
        return None if fastmcp_context is None else fastmcp_context.request_context
    except Exception:  # FastMCP's context outside a request may raise rather than answer None
        return None


def _fastmcp_result(result: ToolResult) -> FastMCPToolResult:
    """FastMCP's `ToolResult` that sends exactly this `CallToolResult`."""
    return FastMCPToolResult.from_mcp_result(CallToolResult.model_validate(result))


def returning_results(fn: _F) -> _F:
    """Wraps a tool function, sync or async, so that a returned ToolResult is sent as itself (`sent_as_itself`)
    and a returned ToolError is answered as a raised one; put it under `@server.tool`. The signature, and so the
    input schema, stays. FastMCP lists no output schema for a function annotated `-> ToolResult`."""
    return returning_results_as(sent_as_itself, fn)


def raised_by_fastmcp(error: BaseException) -> bool:
    """Whether FastMCP's own code raised `error` (its `ToolError` wrapping an exception of the tool's, its
    argument check's `ValidationError`) rather than the tool's code: the innermost frame of its traceback is in
    the `fastmcp` package. A `ToolError` the tool raised is a message its author wrote; one FastMCP raised
    around an exception is not."""
    return raised_in(error, "fastmcp")


class ReturnedEnvelopes(Transform):
    """A FastMCP transform handing out each function tool with its function wrapped by `returning_results`, so
    that what the tool returns is sent as itself (a helper's `ToolResult`) or answered as raised (a
    `ToolError`) without a decorator on every tool; `EnvelopeMiddleware` adds it to the server it serves.

    Why a transform: FastMCP turns a tool's return value into its `ToolResult` inside the tool's own `run`, before
    any middleware sees it (a returned `ToolError` is already its `str`, a helper's result a dict of JSON data), and
    4.x has no server-wide serializer (its `tool_serializer` is gone: "Return ToolResult from your tools
    instead"). Transforms are FastMCP's documented way to change the tools of every provider as they are looked
    up; only `get_tool`, which a call goes through, is changed here, so `tools/list` stays the same."""

    async def get_tool(self, name: str, call_next: GetToolNext, *, version: VersionSpec | None = None) -> Tool | None:
        tool = await call_next(name, version=version)
        # Only a function tool returns the author's Python value; a mounted server's tools run through its own
        # middleware, a proxied tool's result is already a CallToolResult.
        if isinstance(tool, FunctionTool):
            return tool.model_copy(update={"fn": returning_results(tool.fn)})
        return tool


def _wire(result: FastMCPToolResult) -> dict[str, Any]:
    """A FastMCP result as the `CallToolResult` it is sent as, for the ledger to read."""
    wire: dict[str, Any] = {
        "content": [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content],
        "isError": result.is_error,
    }
    if result.structured_content is not None:
        wire["structuredContent"] = result.structured_content
    if result.meta is not None:
        wire["_meta"] = result.meta
    return wire


class EnvelopeMiddleware(Middleware):
    """A FastMCP middleware answering every failed tool call with an envelope in `error_format` (exceptions and
    validation errors in `locale`), whatever the server's `mask_error_details` says:

    - a raised or returned `mcp_envelope.ToolError` as itself, and a returned helper's result (a `ToolResult`:
      `ToolError.to_result`, `forbidden`, `empty_result`, ...) sent as itself, with no decorator on the tool (the
      middleware adds `ReturnedEnvelopes` to the server the first time it serves one of its calls);
    - a FastMCP `ToolError` the tool raised as the core's `user_error`: a `TOOL_ERROR` envelope whose message is
      its text (what `EnvelopeMCPServer` answers the `mcp` SDK's `ToolError` with);
    - arguments that fail the tool's signature (FastMCP's `ValidationError` from pydantic's) as a
      `<validation_error>` worded from the input schema `tools/list` sends for the tool;
    - a tool the server does not list (or has disabled) as `unknown_tool(name, [the names tools/list sends],
      answer=unknown_tool)`, outside the ledger: by default (`"protocol-error"`) the JSON-RPC error -32602 of the
      MCP specification, its `data` the UNKNOWN_ACTION envelope; with `"tool-result"`, that envelope as an
      `isError` result (any other value is refused here with a SpecError);
    - anything else, FastMCP's wrapping `ToolError` included, through `exception_result` (INTERNAL_ERROR quoting a
      fresh correlation id; the traceback goes to the `mcp_envelope` logger, never to the model). An exception
      that a middleware beneath this one (FastMCP's `ErrorHandlingMiddleware`) turned into a JSON-RPC error is
      answered for the exception it came from; only the errors that ask the client to act, and the unknown tool's
      by default, stay JSON-RPC errors.

    `ledger` adds the repeat ledger, which belongs to one conversation: a `Ledger` used for every call (a stdio
    server talks to one client), or a function given the call's `LedgerRequest` (its `context` FastMCP's
    `Context`) that returns the ledger of the conversation it belongs to (None: no ledger for this call), as
    `EnvelopeMCPServer`'s. A raised ToolError goes through
    `Ledger.failure`, every other result through `Ledger.observe`. Put the middleware first (outermost), so that
    what other middleware raises is answered too.

    `lockfile` (its text or parsed JSON; docs/contract-diff.md) is the contract a model learned: a
    `<validation_error>` then also tells the model the failing tool's BREAKING and RISKY changes since, computed
    once from the tools the server lists. A lockfile the core cannot read is refused here with a SpecError.

    An exception a tool raises is read by its structure, never its text, as `EnvelopeMCPServer` reads it: an
    OSError's errno, an HTTP client's status, a timeout, an unreachable upstream, each the core's code for it; an
    instance of exactly `Exception` holds its author's words, shown as TOOL_ERROR (`thrown_messages="shown"`, the
    default) or hidden behind an INTERNAL_ERROR (`"hidden"`; any other value is refused here with a SpecError)."""

    def __init__(
        self, *, error_format: Format = "xml", ledger: LedgerChoice = None, locale: Locale | None = None,
        lockfile: ToolList | None = None, unknown_tool: UnknownToolOption = "protocol-error",
        thrown_messages: ThrownMessages = "shown",
    ) -> None:  # fmt: skip
        self.error_format: Format = error_format
        self.ledger, self.locale = ledger, locale
        self.contract = None if lockfile is None else LockedContract(lockfile)
        self.unknown_tool: UnknownToolOption = checked_unknown_tool_option(unknown_tool)
        self.thrown_messages: ThrownMessages = checked_thrown_messages(thrown_messages)
        self.served: WeakSet[Any] = WeakSet()  # the servers given ReturnedEnvelopes

    def serve_returned_envelopes(self, context: MiddlewareContext[Any]) -> None:
        """Adds `ReturnedEnvelopes` to the server of this call, once (unless it already has one)."""
        server = None if context.fastmcp_context is None else context.fastmcp_context.fastmcp
        if server is None or server in self.served:
            return
        self.served.add(server)
        if not any(isinstance(transform, ReturnedEnvelopes) for transform in server.transforms):
            server.add_transform(ReturnedEnvelopes())

    async def on_call_tool(
        self,
        context: MiddlewareContext[CallToolRequestParams],
        call_next: CallNext[CallToolRequestParams, FastMCPToolResult],
    ) -> FastMCPToolResult:
        """`answered`, its result's attributes set on the active OpenTelemetry span (docs/telemetry.md)."""
        result = await self.answered(context, call_next)
        if isinstance(result, FastMCPToolResult) and not isinstance(result, InputRequiredToolResult):
            record_on_span(_wire(result))
        return result

    async def answered(
        self,
        context: MiddlewareContext[CallToolRequestParams],
        call_next: CallNext[CallToolRequestParams, FastMCPToolResult],
    ) -> FastMCPToolResult:
        """The call's answer: each failure answered with an envelope, each result sent through the ledger."""
        name, arguments = context.message.name, dict(context.message.arguments or {})
        chosen = ledger_for(self.ledger, context.fastmcp_context)
        # A SharedLedger (its streaks in a store replicas share) watches the result the call ends with.
        shared = chosen if isinstance(chosen, SharedLedger) else None
        ledger = None if isinstance(chosen, SharedLedger) else chosen
        self.serve_returned_envelopes(context)
        try:
            result = await call_next(context)
        except Exception as error:
            if isinstance(error, MCPError) and error.error.code in CLIENT_ACTIONS:
                return self.sent_for_revision(context, error)
            try:
                answer = await self.answer(context, error, arguments, ledger)
            except Unanswerable:
                raise MCPError(INTERNAL_ERROR, "Internal error") from None
            if shared is not None:
                answer = await _shared_observed(shared, name, answer, arguments) or answer
            return _fastmcp_result(answer)
        if isinstance(result, InputRequiredToolResult):
            wire = result.input_required.model_dump(by_alias=True, exclude_none=True)
            refused = result_answer_for(revision_of(_request_context(context)), wire)
            if refused is not None:  # input 2025-11-25 asks for with -32042, or cannot ask for at all
                raise MCPError.from_error_data(ErrorData.model_validate(refused["error"]))
        if chosen is None or isinstance(result, InputRequiredToolResult) or not isinstance(result, FastMCPToolResult):
            return result  # no ledger, or no CallToolResult: a request for input, an extension's result
        if ledger is not None:
            replaced = observed(ledger, name, _wire(result), arguments)
        else:
            assert shared is not None  # `chosen` is one or the other
            replaced = await _shared_observed(shared, name, _wire(result), arguments)
        return result if replaced is None else _fastmcp_result(replaced)

    @staticmethod
    def sent_for_revision(context: MiddlewareContext[CallToolRequestParams], error: MCPError) -> FastMCPToolResult:
        """A JSON-RPC error that asks the client itself to act, as the request's protocol revision wants it sent
        (docs/revisions.md): 2026-07-28's `input_required` result for a URL elicitation (returned), else the error
        (raised)."""
        wire = error.error.model_dump(by_alias=True, exclude_none=True)
        sent = protocol_answer_for(revision_of(_request_context(context)), wire)
        if sent is None:
            raise error
        if "error" in sent:
            raise MCPError.from_error_data(ErrorData.model_validate(sent["error"])) from None
        return InputRequiredToolResult(InputRequiredResult.model_validate(sent["result"]))

    async def answer(
        self, context: MiddlewareContext[CallToolRequestParams], error: Exception, arguments: Mapping[str, Any],
        ledger: Ledger | None,
    ) -> ToolResult:  # fmt: skip
        """The envelope answering `error`, raised under a call of the tool `context.message.name`."""
        name, format, locale = context.message.name, self.error_format, self.locale
        if isinstance(error, MCPError):
            if error.error.code in CLIENT_ACTIONS:
                raise error
            if isinstance(error.__cause__, Exception):  # made of an exception beneath (ErrorHandlingMiddleware)
                error = error.__cause__
        if isinstance(error, (NotFoundError, DisabledError)):
            names = [tool.name for tool in await self.listed_tools(context)]
            unknown = unknown_tool(name, names, format=format, answer=self.unknown_tool)
            if "error" in unknown:  # sent as the JSON-RPC error: FastMCP passes an MCPError to the SDK as it is
                raise MCPError.from_error_data(ErrorData.model_validate(unknown["error"])) from None
            return unknown["result"]
        cause = error.__cause__
        if isinstance(error, FastMCPValidationError) and isinstance(cause, PydanticValidationError):
            if raised_by_fastmcp(error):
                listed = await self.listed_tools(context)
                schema = next((tool.parameters for tool in listed if tool.name == name), None)  # its inputSchema
                deltas = (
                    None if self.contract is None else await self.contract.deltas(lambda: self.listed_tools(context))
                )
                return arguments_answer(name, cause, arguments, format, input_schema=schema, ledger=ledger,
                                        locale=locale, deltas=deltas)  # fmt: skip
        original: BaseException = error
        if isinstance(error, FastMCPToolError):
            if not raised_by_fastmcp(error):  # the tool's own words for the model: the core's TOOL_ERROR
                return user_error_answer(name, str(error), arguments, format, ledger=ledger)
            if cause is not None:  # FastMCP's wrap of the tool's exception, masked or not
                original = cause
        return error_answer(name, original, arguments, format, ledger=ledger, locale=locale,
                            thrown_messages=self.thrown_messages)  # fmt: skip

    @staticmethod
    async def listed_tools(context: MiddlewareContext[Any]) -> Sequence[Tool]:
        """The tools `tools/list` sends the caller, in its order (the middleware run, versions deduplicated as
        FastMCP lists them)."""
        if context.fastmcp_context is None:
            return []
        tools = await context.fastmcp_context.fastmcp.list_tools()
        return dedupe_with_versions(list(tools), lambda tool: tool.name)
