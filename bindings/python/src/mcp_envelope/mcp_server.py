"""Envelopes for the official `mcp` SDK, both its lines: `EnvelopeMCPServer` is 2.x's `MCPServer`, or 1.x's
`FastMCP` (`mcp.server.fastmcp`) where `mcp` 1.x is installed, and every failed tool call reaches the model as an
envelope it can recover from, with no exception text leaking to it (the SDK's own handler would send the text of
whatever was raised). A result one of this package's helpers made (a `ToolResult`) is sent as itself, whatever
the tool's return annotation; the SDK's own `ToolError`, its error for the model, keeps its text under the core's
TOOL_ERROR (`user_error`), as FastMCP's does under `mcp_envelope.fastmcp`. A call of a tool the server does not
list is answered as the core says (`unknown_tool`): by default the JSON-RPC error -32602 the MCP specification
asks for, its message naming the tools and its data the UNKNOWN_ACTION envelope; with
`unknown_tool="tool-result"`, that envelope as an `isError` result. With a repeat ledger, identical failures in a row are answered shorter, then with a stop
(docs/repeat-ledger.md). Needs the `mcp` extra.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from importlib.util import find_spec
from typing import Any, TypeVar

from ._integrations import require

require("mcp", "mcp_envelope.mcp_server", "mcp")

from pydantic import ValidationError as PydanticValidationError

from ._component import ToolResult
from ._integrations import (
    CLIENT_ACTIONS,
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
from .envelope import Format, Locale, ToolError
from .errors import SpecError
from .ledger import Ledger
from .recovery import UnknownToolOption, unknown_tool
from .stores import SharedLedger
from .telemetry import record_on_span

# The SDK line installed: 1.x has no `mcp.server.mcpserver`. scripts/test-python type-checks each line in its own
# environment (mypy's --always-true / --always-false MCP1).
MCP1 = find_spec("mcp.server.mcpserver") is None
if MCP1:
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP as SDKServer
    from mcp.server.fastmcp.exceptions import ToolError as SDKToolError
    from mcp.shared.exceptions import McpError as MCPError
    from mcp.types import CallToolRequest, CallToolResult, ErrorData, ServerResult

    # The SDK's errors for the model, and the crashes among them: 1.x has only its ToolError.
    SAID_FOR_THE_MODEL: tuple[type[Exception], ...] = (SDKToolError,)
    CRASHES: tuple[type[Exception], ...] = ()
else:
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver import MCPServer as SDKServer
    from mcp.server.mcpserver.exceptions import ResourceError, UnexpectedResourceError, UnexpectedToolError
    from mcp.server.mcpserver.exceptions import ToolError as SDKToolError
    from mcp.shared.exceptions import MCPError
    from mcp_types import CallToolResult, ErrorData, InputRequiredResult

    # 2.x counts a ResourceError escaping a tool as anticipated too; its Unexpected... subclasses are crashes.
    SAID_FOR_THE_MODEL = (SDKToolError, ResourceError)
    CRASHES = (UnexpectedToolError, UnexpectedResourceError)

# JSON-RPC "internal error", for when even the component cannot answer.
INTERNAL_ERROR = -32603

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = [
    "MCP1", "EnvelopeMCPServer", "LedgerChoice", "LedgerRequest", "ThrownMessages", "envelope_errors", "is_argument_failure",
    "result_for_exception", "returning_results", "sent_as_itself", "through_ledger",
]  # fmt: skip


def internal_error() -> MCPError:
    """The JSON-RPC internal error, in the installed SDK line's spelling."""
    return protocol_error({"code": INTERNAL_ERROR, "message": "Internal error"})


def protocol_error(error: Mapping[str, Any]) -> MCPError:
    """The SDK's exception for a JSON-RPC error object (`{"code", "message", "data"?}`, as the core gives one),
    which the SDK sends as the request's error response with code, message and data as they are."""
    data = ErrorData.model_validate(error)
    if MCP1:
        return MCPError(data)
    return MCPError.from_error_data(data)


def is_argument_failure(error: BaseException, arguments_model: str | None = None) -> bool:
    """Arguments that failed the SDK's own check of the tool's signature: its ToolError straight from a pydantic
    ValidationError. In 2.x one raised in the tool body arrives as UnexpectedToolError instead; 1.x wraps both
    alike, so there the ValidationError must also be about `arguments_model`, the name of the model the SDK
    checks the tool's arguments with."""
    cause = error.__cause__
    if type(error) is not SDKToolError or not isinstance(cause, PydanticValidationError):
        return False
    return not MCP1 or cause.title == arguments_model


def result_for_exception(
    tool: str, error: BaseException, arguments: Mapping[str, Any] | None = None, format: Format = "xml", *,
    ledger: Ledger | None = None, locale: Locale | None = None, input_schema: Mapping[str, Any] | None = None,
    arguments_model: str | None = None, deltas: Sequence[Mapping[str, Any]] | None = None,
    thrown_messages: ThrownMessages = "shown",
) -> CallToolResult:  # fmt: skip
    """The `CallToolResult` a failed call of `tool` answers with: a raised `ToolError` as its envelope; arguments
    that failed the SDK's own check (`is_argument_failure`) as a `<validation_error>`, its field lines worded from
    `input_schema` (the tool's schema as `tools/list` sends it) when given, with the contract `deltas` given; the
    SDK's own `ToolError` raised by the tool (in 2.x also a `ResourceError`, which the SDK counts the same) as the
    core's `user_error`, its text kept; an exception whose structure tells its kind (an OSError's errno, an HTTP
    client's status, a timeout) as the core's code for it, and one of exactly `Exception` as its author's words,
    shown or hidden as `thrown_messages` says (docs/python-integrations.md); anything else, or an envelope the
    component refuses, as the component's `exception_result`: INTERNAL_ERROR quoting a fresh correlation id, its
    log line (the traceback) logged. With a `ledger`, a `<tool_error>` goes through it. An MCPError the tool
    raised is the core's `rpcError` (a -32602 VALIDATION_ERROR, ...), except one asking the client itself to act
    (`CLIENT_ACTIONS`, a URL elicitation), a protocol-level answer, which is raised again."""
    if isinstance(error, MCPError) and error.error.code in CLIENT_ACTIONS:
        raise error
    cause = error.__cause__
    try:
        if is_argument_failure(error, arguments_model):
            answer = arguments_answer(tool, cause or error, arguments, format, input_schema=input_schema,
                                      ledger=ledger, locale=locale, deltas=deltas)  # fmt: skip
        else:
            # The SDK wraps what a tool raised in a ToolError of its own; the tool's exception is the cause.
            wrapped = isinstance(error, SDKToolError) and cause is not None and raised_in(error, "mcp")
            original = cause if wrapped and cause is not None else error
            if isinstance(original, SAID_FOR_THE_MODEL) and not isinstance(original, CRASHES):
                answer = user_error_answer(tool, str(original), arguments, format, ledger=ledger)
            else:
                answer = error_answer(tool, original, arguments, format, ledger=ledger, locale=locale,
                                      thrown_messages=thrown_messages)  # fmt: skip
    except Unanswerable:
        raise internal_error() from None
    return CallToolResult.model_validate(answer)


def through_ledger(
    ledger: Ledger, tool: str, result: CallToolResult, arguments: Mapping[str, Any] | None
) -> CallToolResult:
    """A result of `tool` as the ledger answers it (`Ledger.observe`: the core's rules): a repeated failure is
    replaced, in the result's own form; anything else is sent as it is, a success ending the streak."""
    replaced = observed(ledger, tool, result, arguments)
    return result if replaced is None else CallToolResult.model_validate(replaced)


async def through_shared_ledger(
    ledger: SharedLedger, tool: str, result: CallToolResult, arguments: Mapping[str, Any] | None
) -> CallToolResult:
    """`through_ledger` for a SharedLedger: a repeated failure is replaced, anything else sent as it is."""
    try:
        replaced = await ledger.observe(tool, result, arguments=arguments)
    except SpecError:  # not a result the core can read: it still reaches the model as it came
        return result
    return result if replaced is None else CallToolResult.model_validate(replaced)


def sent_as_itself(value: Any) -> Any:
    """A tool's return value as the SDK should take it: a ToolResult (a result this package made) as the
    `CallToolResult` it is, so the SDK sends it as itself instead of dumping the dict as JSON text; anything else
    as it is. The SDK's rule for a returned `CallToolResult` still applies: a success (an empty or partial result,
    a warning) from a tool that lists an output schema must carry structured content for it."""
    return CallToolResult.model_validate(value) if isinstance(value, ToolResult) else value


def returning_results(fn: _F) -> _F:
    """Wraps a tool function, sync or async, so that a returned ToolResult is sent as itself (`sent_as_itself`)
    and a returned ToolError is answered as a raised one. The signature, and so the input schema, stays."""
    return returning_results_as(sent_as_itself, fn)


class EnvelopeMCPServer(SDKServer):
    """The SDK's `MCPServer` (`FastMCP` in `mcp` 1.x), answering every failed tool call with an envelope in
    `error_format` (exceptions and validation errors in `locale`).

    A result one of the package's helpers made (a `ToolResult`: `tool_error`, `ToolError.to_result`,
    `empty_result`, `partial_result`, `forbidden`, `validation_error`, ...) returned by a tool is sent as itself,
    and a returned `ToolError` is answered as a raised one. The SDK's own `ToolError` raised by a tool is the
    core's `user_error`: its text under TOOL_ERROR. Arguments that fail the tool's signature get a
    `<validation_error>` worded from the input schema `tools/list` sends for the tool.

    A call of a tool the server does not list is answered with `unknown_tool(name, [the names tools/list sends],
    answer=unknown_tool)`, outside the ledger: by default (`"protocol-error"`) the JSON-RPC error -32602 of the
    MCP specification, its message naming the tools and its `data` the UNKNOWN_ACTION envelope; with
    `"tool-result"`, that envelope as an `isError` result (SEP-2145). Any other value is refused here with a
    SpecError.

    `ledger` adds the repeat ledger, which belongs to one conversation: a `Ledger` used for every call (a stdio
    server talks to one client), or a function given the call's `LedgerRequest` that returns the ledger of the
    conversation it belongs to (None: no ledger for this call). Its `conversation` is the `_meta` key
    `mcp-envelope/conversation` the client sent, else the Streamable HTTP session id: the protocol's 2026-07-28
    requests carry no session, so on stateless HTTP the client names its conversation (docs/state.md).

    `lockfile` (its text or parsed JSON, as `mcp-envelope contract lock` writes it; docs/contract-diff.md) is the
    contract a model learned: a `<validation_error>` then also tells the model the failing tool's BREAKING and
    RISKY changes since (`<contract_awareness>`, five at most), computed once from the tools this server lists. A
    lockfile the core cannot read is refused here with a SpecError.

    An exception a tool raises is read by its structure, never its text: an OSError by its errno (a missing file
    is NOT_FOUND naming the argument its path came from), an httpx, requests, aiohttp or urllib error by its HTTP
    status, a timeout, an upstream that could not be reached, each the core's code for it. An instance of exactly
    `Exception` (`raise Exception("No invoice inv_9")`) holds its author's words for the model: with
    `thrown_messages="shown"` (the default) they reach it, scrubbed, as TOOL_ERROR; with `"hidden"` every such
    raise is an INTERNAL_ERROR, the words in the log only. Any other value is refused here with a SpecError."""

    def __init__(
        self, *args: Any, error_format: Format = "xml", ledger: LedgerChoice = None, locale: Locale | None = None,
        lockfile: ToolList | None = None, unknown_tool: UnknownToolOption = "protocol-error",
        thrown_messages: ThrownMessages = "shown", **kwargs: Any,
    ) -> None:  # fmt: skip
        self.contract = None if lockfile is None else LockedContract(lockfile)
        self.unknown_tool: UnknownToolOption = checked_unknown_tool_option(unknown_tool)
        self.thrown_messages: ThrownMessages = checked_thrown_messages(thrown_messages)
        super().__init__(*args, **kwargs)
        self.error_format: Format = error_format
        self.ledger, self.locale = ledger, locale
        if MCP1:
            self.answer_unknown_tools_first()

    def ledger_for(self, context: Any) -> Ledger | SharedLedger | None:
        """The ledger for a call: the one given, or the one the given function picks from the `LedgerRequest` of
        the call's context (None for a call made directly, outside any request)."""
        return ledger_for(self.ledger, context)

    def add_tool(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """The SDK's `add_tool` (which its `tool()` decorator calls), the function wrapped by `returning_results`."""
        super().add_tool(returning_results(fn), *args, **kwargs)

    async def answer_unknown_tool(self, name: str) -> CallToolResult:
        """The answer to a call of the tool `name`, which the server lacks, as the core gives it for the
        `unknown_tool` option: the `isError` result, or the JSON-RPC error raised as the SDK's MCPError."""
        tools = [tool.name for tool in await self.list_tools()]
        answer = unknown_tool(name, tools, format=self.error_format, answer=self.unknown_tool)
        if "error" in answer:
            raise protocol_error(answer["error"])
        return CallToolResult.model_validate(answer["result"])

    if MCP1:  # the call's Context is the server's to make

        def answer_unknown_tools_first(self) -> None:
            """Puts a handler answering a tool the server lacks in front of the SDK's tools/call handler, in the
            low-level server's request handler map: that handler makes every exception an `isError` result, a
            JSON-RPC error included, so a protocol error can only be raised before it runs."""
            handler = self._mcp_server.request_handlers[CallToolRequest]

            async def handle(request: CallToolRequest) -> ServerResult:
                if self._tool_manager.get_tool(request.params.name) is None:
                    return ServerResult(await self.answer_unknown_tool(request.params.name))
                return await handler(request)

            self._mcp_server.request_handlers[CallToolRequest] = handle

        async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
            call = super().call_tool
            return await self.answer_call(name, arguments, self.get_context(), lambda: call(name, arguments))

    else:

        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            call = super().call_tool
            return await self.answer_call(name, arguments, context, lambda: call(name, arguments, context))

    async def answer_call(self, name: str, arguments: dict[str, Any], context: Any, call: Callable[[], Any]) -> Any:
        """`answered_call`, its result's attributes set on the active OpenTelemetry span (docs/telemetry.md)."""
        result = await self.answered_call(name, arguments, context, call)
        record_on_span(result)
        return result

    async def answered_call(self, name: str, arguments: dict[str, Any], context: Any, call: Callable[[], Any]) -> Any:
        """The SDK's answer to a call (`call()`, its own `call_tool`), each failure answered with an envelope and
        each result sent through the call's ledger. A SharedLedger (its streaks in a store replicas share) watches
        the result the call ends with, as `observe` does. A JSON-RPC error the tool raised that asks the client to act
        (`CLIENT_ACTIONS`: the SDK's `UrlElicitationRequiredError`) and an `input_required` result it returned are
        sent as the request's protocol revision wants them (docs/revisions.md); any other JSON-RPC error it raised
        is its failure, an envelope (the core's `rpcError`)."""
        chosen = self.ledger_for(context)
        shared = chosen if isinstance(chosen, SharedLedger) else None
        ledger = None if isinstance(chosen, SharedLedger) else chosen
        try:
            result = await call()
        except MCPError as error:
            if error.error.code not in CLIENT_ACTIONS:  # the tool's failure, as the core's rpcError
                result = result_for_exception(name, error, arguments, self.error_format, ledger=ledger,
                                              locale=self.locale, thrown_messages=self.thrown_messages)  # fmt: skip
                return result if shared is None else await through_shared_ledger(shared, name, result, arguments)
            if not MCP1:  # 1.x speaks no revision after 2025-11-25: sent as it came
                sent = protocol_answer_for(
                    revision_of(context), error.error.model_dump(by_alias=True, exclude_none=True)
                )
                if sent is not None and "error" in sent:
                    raise protocol_error(sent["error"]) from None
                if sent is not None:
                    return InputRequiredResult.model_validate(sent["result"])
            raise
        except SDKToolError as error:
            # The tool manager's own refusal: told by the tool it lacks, not by its words.
            if error.__cause__ is None and self._tool_manager.get_tool(name) is None:
                return await self.answer_unknown_tool(name)
            model = self.arguments_model(name)
            schema, deltas = None, None
            if is_argument_failure(error, model):
                schema = await self.listed_input_schema(name)
                deltas = None if self.contract is None else await self.contract.deltas(self.list_tools)
            result = result_for_exception(name, error, arguments, self.error_format, ledger=ledger, locale=self.locale,
                                          input_schema=schema, arguments_model=model, deltas=deltas,
                                          thrown_messages=self.thrown_messages)  # fmt: skip
            return result if shared is None else await through_shared_ledger(shared, name, result, arguments)
        if not MCP1:
            if isinstance(result, InputRequiredResult):
                refused = result_answer_for(revision_of(context), result.model_dump(by_alias=True, exclude_none=True))
                if refused is not None:
                    raise protocol_error(refused["error"])
                return result
        if shared is not None and isinstance(result, CallToolResult):
            return await through_shared_ledger(shared, name, result, arguments)
        if ledger is not None and isinstance(result, CallToolResult):
            return through_ledger(ledger, name, result, arguments)
        return result

    def arguments_model(self, name: str) -> str | None:
        """The name of the model the SDK checks the tool `name`'s arguments with (what 1.x's pydantic error is
        about; `is_argument_failure`), None when it has no such tool, and in 2.x, which needs none."""
        tool = self._tool_manager.get_tool(name) if MCP1 else None
        return None if tool is None else tool.fn_metadata.arg_model.__name__

    async def listed_input_schema(self, name: str) -> dict[str, Any] | None:
        """The input schema `tools/list` sends for the tool `name` (the one the model read), None when unlisted."""
        for tool in await self.list_tools():
            if tool.name != name:
                continue
            if MCP1:
                return tool.inputSchema
            return tool.input_schema
        return None


def _sent(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a call as the tool received them, without the SDK's injected Context."""
    return {key: value for key, value in kwargs.items() if not isinstance(value, Context)}


def envelope_errors(
    fn: _F | None = None, *, name: str | None = None, format: Format = "xml", ledger: Ledger | None = None,
    locale: Locale | None = None, thrown_messages: ThrownMessages = "shown",
) -> Any:  # fmt: skip
    """Decorates one tool function, sync or async, so its failures come back as envelopes on any server (argument
    validation stays the SDK's); use it under the SDK's decorator (`@server.tool()` then `@envelope_errors`).
    A returned ToolResult is sent as itself (`sent_as_itself`), a returned ToolError as a raised one. With a
    `ledger`, its failures and successes go through it (`through_ledger`). `thrown_messages` is
    `EnvelopeMCPServer`'s. The signature, and so the input schema, stays."""
    if thrown_messages != "shown":  # the default needs no check, and decorating loads no component for it
        checked_thrown_messages(thrown_messages)

    def decorate(func: _F) -> _F:
        tool = name or func.__name__

        def answer(value: Any, kwargs: Mapping[str, Any]) -> Any:
            if isinstance(value, ToolError):  # returned rather than raised: answered the same way
                return result_for_exception(tool, value, _sent(kwargs), format, ledger=ledger, locale=locale)
            value = sent_as_itself(value)
            if ledger is None:
                return value
            if isinstance(value, CallToolResult):
                return through_ledger(ledger, tool, value, _sent(kwargs))
            ledger.success(tool)  # a value the SDK turns into a successful result
            return value

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                value = func(*args, **kwargs)
            except Exception as error:
                return result_for_exception(tool, error, _sent(kwargs), format, ledger=ledger, locale=locale,
                                            thrown_messages=thrown_messages)  # fmt: skip
            return answer(value, kwargs)

        @functools.wraps(func)
        async def run_async(*args: Any, **kwargs: Any) -> Any:
            try:
                value = await func(*args, **kwargs)
            except Exception as error:
                return result_for_exception(tool, error, _sent(kwargs), format, ledger=ledger, locale=locale,
                                            thrown_messages=thrown_messages)  # fmt: skip
            return answer(value, kwargs)

        return run_async if inspect.iscoroutinefunction(func) else run  # type: ignore[return-value]

    return decorate(fn) if fn is not None else decorate
