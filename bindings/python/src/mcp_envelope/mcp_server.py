"""Envelopes for the official `mcp` SDK: every failed tool call reaches the model
as an envelope it can recover from, and no exception text leaks to it (the
SDK's own handler would send the text of whatever was raised). A result one of
this package's helpers made (a `ToolResult`) is sent as itself, whatever the
tool's return annotation; a call of a tool the server does not list is
answered with the core's UNKNOWN_ACTION envelope naming the tools it does
(`unknown_tool`), not a JSON-RPC error the model never reads. With a repeat
ledger, identical failures in a row are answered shorter, then with a stop
(docs/repeat-ledger.md).
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, Union

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SDKToolError
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult
from pydantic import ValidationError as PydanticValidationError

from ._component import ToolResult
from .envelope import Format, Locale, ToolError
from .errors import SpecError
from .ledger import Ledger
from .recovery import exception_result, unknown_tool
from .validation import validation_error

# JSON-RPC "internal error", for when even the component cannot answer.
INTERNAL_ERROR = -32603

logger = logging.getLogger("mcp_envelope")

_F = TypeVar("_F", bound=Callable[..., Any])
# One ledger for every call, or a function picking the ledger of the call's conversation from its Context.
LedgerChoice = Union[Ledger, Callable[[Any], Union[Ledger, None]], None]


def is_argument_failure(error: BaseException) -> bool:
    """Arguments that failed the SDK's own check of the tool's signature: its ToolError straight from a pydantic
    ValidationError (one raised in the tool body arrives as UnexpectedToolError, about data the model never
    sent)."""
    return type(error) is SDKToolError and isinstance(error.__cause__, PydanticValidationError)


def result_for_exception(
    tool: str, error: BaseException, arguments: Mapping[str, Any] | None = None, format: Format = "xml", *,
    ledger: Ledger | None = None, locale: Locale | None = None, input_schema: Mapping[str, Any] | None = None,
) -> CallToolResult:  # fmt: skip
    """The `CallToolResult` a failed call of `tool` answers with: a raised `ToolError` as its envelope; arguments
    that failed the SDK's own check (`is_argument_failure`) as a `<validation_error>`, its field lines worded from
    `input_schema` (the tool's schema as `tools/list` sends it) when given; anything else, or an envelope the
    component refuses, as the component's `exception_result`: INTERNAL_ERROR quoting a fresh correlation id, its
    log line (the traceback) logged. With a `ledger`, a `<tool_error>` goes through it. An MCPError, a
    protocol-level answer, is raised again."""
    if isinstance(error, MCPError):
        raise error
    cause = error.__cause__
    original = cause if isinstance(error, SDKToolError) and cause is not None else error
    try:
        if isinstance(original, ToolError):
            if ledger is not None:
                return CallToolResult.model_validate(ledger.failure(tool, original, arguments=arguments, format=format))
            return CallToolResult.model_validate(original.to_result(format))
        if is_argument_failure(error):
            spoken = validation_error(tool, cause, input=dict(arguments or {}), input_schema=input_schema, locale=locale)
            return CallToolResult.model_validate(spoken)
    except Exception as refused:  # such as a ToolError whose spec the component refuses
        original = refused
    try:
        report = exception_result(tool, original, format=format, locale=locale)
    except Exception:  # the component itself is unusable
        logger.error("tool %r failed", tool, exc_info=(type(original), original, original.__traceback__))
        logger.exception("mcp-envelope could not build an INTERNAL_ERROR envelope")
        raise MCPError(INTERNAL_ERROR, "Internal error") from None
    logger.error("%s", report["log"], extra={"correlation_id": report["correlationId"]})
    result = CallToolResult.model_validate(report["result"])
    return result if ledger is None else through_ledger(ledger, tool, result, arguments)


def through_ledger(
    ledger: Ledger, tool: str, result: CallToolResult, arguments: Mapping[str, Any] | None
) -> CallToolResult:
    """A result of `tool` as the ledger answers it (`Ledger.observe`: the core's rules): a repeated failure is
    replaced, in the result's own form; anything else is sent as it is, a success ending the streak."""
    try:
        replaced = ledger.observe(tool, result, arguments=arguments)
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

    def answer(value: Any) -> Any:
        if isinstance(value, ToolError):
            raise value
        return sent_as_itself(value)

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        return answer(fn(*args, **kwargs))

    @functools.wraps(fn)
    async def run_async(*args: Any, **kwargs: Any) -> Any:
        return answer(await fn(*args, **kwargs))

    return run_async if inspect.iscoroutinefunction(fn) else run  # type: ignore[return-value]


class EnvelopeMCPServer(MCPServer):
    """The SDK's `MCPServer`, answering every failed tool call with an envelope in `error_format` (exceptions
    and validation errors in `locale`).

    A result one of the package's helpers made (a `ToolResult`: `tool_error`, `ToolError.to_result`,
    `empty_result`, `partial_result`, `forbidden`, `validation_error`, `unknown_tool`, ...) returned by a tool is
    sent as itself, and a returned `ToolError` is answered as a raised one. A call of a tool the server does not
    list is answered with `unknown_tool(name, [the names tools/list sends])`, an `isError` UNKNOWN_ACTION result,
    outside the ledger. Arguments that fail the tool's signature get a `<validation_error>` worded from the input
    schema `tools/list` sends for the tool.

    `ledger` adds the repeat ledger, which belongs to one conversation: a `Ledger` used for every call (a stdio
    server talks to one client), or a function given the call's `Context` that returns the ledger of the
    conversation it belongs to (None: no ledger for this call). Which calls form one conversation is the
    host's to say: the protocol's 2026-07-28 requests carry no session, and the SDK keeps none for them."""

    def __init__(
        self, *args: Any, error_format: Format = "xml", ledger: LedgerChoice = None, locale: Locale | None = None,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        self.error_format: Format = error_format
        self.ledger, self.locale = ledger, locale

    def ledger_for(self, context: Any) -> Ledger | None:
        """The ledger for a call: the one given, or the one the given function picks for the call's context (None
        for a call made directly, outside any request)."""
        return self.ledger if self.ledger is None or isinstance(self.ledger, Ledger) else self.ledger(context)

    def add_tool(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """The SDK's `add_tool` (which its `tool()` decorator calls), the function wrapped by `returning_results`."""
        super().add_tool(returning_results(fn), *args, **kwargs)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        ledger = self.ledger_for(context)
        try:
            result = await super().call_tool(name, arguments, context)
        except SDKToolError as error:
            if error.__cause__ is None and str(error) == f"Unknown tool: {name}":  # the tool manager's own refusal
                tools = [tool.name for tool in await self.list_tools()]
                return CallToolResult.model_validate(unknown_tool(name, tools, format=self.error_format))
            schema = await self.listed_input_schema(name) if is_argument_failure(error) else None
            return result_for_exception(name, error, arguments, self.error_format, ledger=ledger, locale=self.locale,
                                        input_schema=schema)  # fmt: skip
        if ledger is not None and isinstance(result, CallToolResult):
            return through_ledger(ledger, name, result, arguments)
        return result

    async def listed_input_schema(self, name: str) -> dict[str, Any] | None:
        """The input schema `tools/list` sends for the tool `name` (the one the model read), None when unlisted."""
        return next((tool.input_schema for tool in await self.list_tools() if tool.name == name), None)


def _sent(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a call as the tool received them, without the SDK's injected Context."""
    return {key: value for key, value in kwargs.items() if not isinstance(value, Context)}


def envelope_errors(
    fn: _F | None = None, *, name: str | None = None, format: Format = "xml", ledger: Ledger | None = None,
    locale: Locale | None = None,
) -> Any:  # fmt: skip
    """Decorates one tool function, sync or async, so its failures come back as envelopes on any server (argument
    validation stays the SDK's); use it under the SDK's decorator (`@server.tool()` then `@envelope_errors`).
    A returned ToolResult is sent as itself (`sent_as_itself`), a returned ToolError as a raised one. With a
    `ledger`, its failures and successes go through it (`through_ledger`). The signature, and so the input
    schema, stays."""

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
                return result_for_exception(tool, error, _sent(kwargs), format, ledger=ledger, locale=locale)
            return answer(value, kwargs)

        @functools.wraps(func)
        async def run_async(*args: Any, **kwargs: Any) -> Any:
            try:
                value = await func(*args, **kwargs)
            except Exception as error:
                return result_for_exception(tool, error, _sent(kwargs), format, ledger=ledger, locale=locale)
            return answer(value, kwargs)

        return run_async if inspect.iscoroutinefunction(func) else run  # type: ignore[return-value]

    return decorate(fn) if fn is not None else decorate
