"""Envelopes for FastMCP (the `fastmcp` package, 4.x): `EnvelopeMiddleware`, a middleware on FastMCP's own
extension point (`Middleware.on_call_tool`), answers every failed tool call with an envelope, whatever the
server's `mask_error_details` says, and lets no failure leave as a JSON-RPC error the model never reads. The
answers are the `mcp_server` integration's, byte for byte: one core words them all. Needs the `fastmcp` extra.

    server = FastMCP("billing", middleware=[EnvelopeMiddleware()])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

from ._integrations import require

require("fastmcp", "mcp_envelope.fastmcp", "fastmcp")

from fastmcp.exceptions import DisabledError, NotFoundError
from fastmcp.exceptions import ToolError as FastMCPToolError
from fastmcp.exceptions import ValidationError as FastMCPValidationError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import InputRequiredToolResult, Tool
from fastmcp.tools import ToolResult as FastMCPToolResult
from fastmcp.utilities.versions import dedupe_with_versions
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, MISSING_REQUIRED_CLIENT_CAPABILITY, URL_ELICITATION_REQUIRED
from mcp_types import CallToolRequestParams, CallToolResult
from pydantic import ValidationError as PydanticValidationError

from ._component import ToolResult
from ._integrations import LedgerChoice, Unanswerable, arguments_answer, error_answer, ledger_for, observed
from ._integrations import returning_results_as
from .contract import LockedContract, ToolList
from .envelope import Format, Locale, ToolError
from .ledger import Ledger
from .recovery import unknown_tool, user_error

__all__ = ["EnvelopeMiddleware", "raised_by_fastmcp", "returning_results", "sent_as_itself"]

# JSON-RPC errors that ask the client itself to act (SEP-2575's missing capability, the URL elicitation a
# call needs): protocol answers, not failures for the model, so they stay JSON-RPC errors.
CLIENT_ACTIONS = frozenset({MISSING_REQUIRED_CLIENT_CAPABILITY, URL_ELICITATION_REQUIRED})

_F = TypeVar("_F", bound=Callable[..., Any])


def sent_as_itself(value: Any) -> Any:
    """A tool's return value as FastMCP should take it: a ToolResult (a result this package made) as FastMCP's own
    `ToolResult` holding exactly that `CallToolResult`, so FastMCP sends it as itself instead of dumping the dict
    as JSON data; anything else as it is."""
    return _fastmcp_result(value) if isinstance(value, ToolResult) else value


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
    innermost: TracebackType | None = error.__traceback__
    while innermost is not None and innermost.tb_next is not None:
        innermost = innermost.tb_next
    module = "" if innermost is None else str(innermost.tb_frame.f_globals.get("__name__", ""))
    return module == "fastmcp" or module.startswith("fastmcp.")


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

    - a raised (or, under `returning_results`, returned) `mcp_envelope.ToolError` as itself;
    - a FastMCP `ToolError` the tool raised as a `TOOL_ERROR` envelope whose message is its text;
    - arguments that fail the tool's signature (FastMCP's `ValidationError` from pydantic's) as a
      `<validation_error>` worded from the input schema `tools/list` sends for the tool;
    - a tool the server does not list (or has disabled) as `unknown_tool(name, [the names tools/list sends])`,
      an `isError` UNKNOWN_ACTION result, outside the ledger;
    - anything else, FastMCP's wrapping `ToolError` included, through `exception_result` (INTERNAL_ERROR quoting a
      fresh correlation id; the traceback goes to the `mcp_envelope` logger, never to the model). An exception
      that a middleware beneath this one (FastMCP's `ErrorHandlingMiddleware`) turned into a JSON-RPC error is
      answered for the exception it came from; only the errors that ask the client to act stay JSON-RPC errors.

    `ledger` adds the repeat ledger, which belongs to one conversation: a `Ledger` used for every call (a stdio
    server talks to one client), or a function given the call's FastMCP `Context` that returns the ledger of the
    conversation it belongs to (None: no ledger for this call). A raised ToolError goes through
    `Ledger.failure`, every other result through `Ledger.observe`. Put the middleware first (outermost), so that
    what other middleware raises is answered too.

    `lockfile` (its text or parsed JSON; docs/contract-diff.md) is the contract a model learned: a
    `<validation_error>` then also tells the model the failing tool's BREAKING and RISKY changes since, computed
    once from the tools the server lists. A lockfile the core cannot read is refused here with a SpecError."""

    def __init__(
        self, *, error_format: Format = "xml", ledger: LedgerChoice = None, locale: Locale | None = None,
        lockfile: ToolList | None = None,
    ) -> None:  # fmt: skip
        self.error_format: Format = error_format
        self.ledger, self.locale = ledger, locale
        self.contract = None if lockfile is None else LockedContract(lockfile)

    async def on_call_tool(
        self,
        context: MiddlewareContext[CallToolRequestParams],
        call_next: CallNext[CallToolRequestParams, FastMCPToolResult],
    ) -> FastMCPToolResult:
        name, arguments = context.message.name, dict(context.message.arguments or {})
        ledger = ledger_for(self.ledger, context.fastmcp_context)
        try:
            result = await call_next(context)
        except Exception as error:
            try:
                answer = await self.answer(context, error, arguments, ledger)
            except Unanswerable:
                raise MCPError(INTERNAL_ERROR, "Internal error") from None
            return _fastmcp_result(answer)
        if ledger is None or isinstance(result, InputRequiredToolResult) or not isinstance(result, FastMCPToolResult):
            return result  # no ledger, or no CallToolResult: a request for input, an extension's result
        replaced = observed(ledger, name, _wire(result), arguments)
        return result if replaced is None else _fastmcp_result(replaced)

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
            return unknown_tool(name, names, format=format)
        cause = error.__cause__
        if isinstance(error, FastMCPValidationError) and isinstance(cause, PydanticValidationError):
            if raised_by_fastmcp(error):
                listed = await self.listed_tools(context)
                schema = next((tool.parameters for tool in listed if tool.name == name), None)  # its inputSchema
                deltas = None if self.contract is None else await self.contract.deltas(lambda: self.listed_tools(context))
                return arguments_answer(name, cause, arguments, format, input_schema=schema, ledger=ledger,
                                        locale=locale, deltas=deltas)  # fmt: skip
        original: BaseException = error
        if isinstance(error, FastMCPToolError):
            if not raised_by_fastmcp(error):  # the tool's own words for the model: the core's TOOL_ERROR
                answer = user_error(str(error), format=format)
                return answer if ledger is None else observed(ledger, name, answer, arguments) or answer
            if cause is not None:  # FastMCP's wrap of the tool's exception, masked or not
                original = cause
        return error_answer(name, original, arguments, format, ledger=ledger, locale=locale)

    @staticmethod
    async def listed_tools(context: MiddlewareContext[Any]) -> Sequence[Tool]:
        """The tools `tools/list` sends the caller, in its order (the middleware run, versions deduplicated as
        FastMCP lists them)."""
        if context.fastmcp_context is None:
            return []
        tools = await context.fastmcp_context.fastmcp.list_tools()
        return dedupe_with_versions(list(tools), lambda tool: tool.name)
