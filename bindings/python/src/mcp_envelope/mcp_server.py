"""Envelopes for the official `mcp` SDK: every failed tool call reaches the model
as an envelope it can recover from, and no exception text leaks to it (the
SDK's own handler would send the text of whatever was raised). An unknown tool
stays a JSON-RPC invalid-params error, as the MCP specification asks.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SDKToolError
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult
from pydantic import ValidationError as PydanticValidationError

from .envelope import Format, ToolError, internal_error_result, protocol_error
from .errors import new_correlation_id
from .validation import validation_error

# JSON-RPC "internal error", for when even the component cannot answer.
INTERNAL_ERROR = -32603

logger = logging.getLogger("mcp_envelope")

_F = TypeVar("_F", bound=Callable[..., Any])


def result_for_exception(
    tool: str, error: BaseException, arguments: Mapping[str, Any] | None = None, format: Format = "xml"
) -> CallToolResult:
    """The `CallToolResult` a failed call of `tool` answers with: a raised `ToolError` as its envelope; arguments
    that failed the SDK's own check (its ToolError straight from a pydantic ValidationError; one raised in the
    tool body arrives as UnexpectedToolError, about data the model never sent) as a `<validation_error>`; anything
    else, or an envelope the component refuses, as INTERNAL_ERROR quoting a fresh correlation id, the exception
    logged with that id. An MCPError, a protocol-level answer, is raised again."""
    if isinstance(error, MCPError):
        raise error
    cause = error.__cause__
    original = cause if isinstance(error, SDKToolError) and cause is not None else error
    try:
        if isinstance(original, ToolError):
            return CallToolResult.model_validate(original.to_result(format))
        if type(error) is SDKToolError and isinstance(cause, PydanticValidationError):
            return CallToolResult.model_validate(validation_error(tool, cause, input=dict(arguments or {})))
    except Exception as refused:  # such as a ToolError whose spec the component refuses
        original = refused
    correlation_id = new_correlation_id()
    logger.error(
        "tool %r failed; the model was sent INTERNAL_ERROR with correlation id %s", tool, correlation_id,
        exc_info=(type(original), original, original.__traceback__),
    )  # fmt: skip
    try:
        return CallToolResult.model_validate(internal_error_result(tool, correlation_id, format))
    except Exception:  # the component itself is unusable
        logger.exception("mcp-envelope could not build an INTERNAL_ERROR envelope")
        raise MCPError(INTERNAL_ERROR, "Internal error") from None


class EnvelopeMCPServer(MCPServer):
    """The SDK's `MCPServer`, answering every failed tool call with an envelope in `error_format`."""

    def __init__(self, *args: Any, error_format: Format = "xml", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.error_format: Format = error_format

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except SDKToolError as error:
            if error.__cause__ is None and str(error) == f"Unknown tool: {name}":
                unknown = protocol_error("invalid-params", f"Unknown tool: {name}")
                raise MCPError(unknown["code"], unknown["message"]) from None
            return result_for_exception(name, error, arguments, self.error_format)


def envelope_errors(fn: _F | None = None, *, name: str | None = None, format: Format = "xml") -> Any:
    """Decorates one tool function, sync or async, so its failures come back as envelopes on any server (argument
    validation stays the SDK's); use it under the SDK's decorator (`@server.tool()` then `@envelope_errors`).
    The signature, and so the input schema, stays."""

    def decorate(func: _F) -> _F:
        tool = name or func.__name__

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            except Exception as error:
                return result_for_exception(tool, error, kwargs, format)

        @functools.wraps(func)
        async def run_async(*args: Any, **kwargs: Any) -> Any:
            try:
                return await func(*args, **kwargs)
            except Exception as error:
                return result_for_exception(tool, error, kwargs, format)

        return run_async if inspect.iscoroutinefunction(func) else run  # type: ignore[return-value]

    return decorate(fn) if fn is not None else decorate
