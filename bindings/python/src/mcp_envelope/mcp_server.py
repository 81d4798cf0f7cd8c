"""Envelopes for the official `mcp` SDK: every failed tool call reaches the model
as an envelope it can recover from, and no exception text leaks to it.
`EnvelopeMCPServer` answers a raised `ToolError` with its envelope, arguments
that fail the tool's input model with a `<validation_error>`, any other
exception with the component's INTERNAL_ERROR result quoting a fresh
correlation id (the exception goes to the `mcp_envelope` logger with that id),
and an unknown tool with JSON-RPC invalid-params. `envelope_errors` does the
same for one tool function on any server (argument validation stays the SDK's).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SDKToolError
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult
from pydantic import ValidationError as PydanticValidationError

from ._calls import logger
from .envelope import Format, ToolError, internal_error_result, protocol_error
from .errors import new_correlation_id
from .validation import validation_error

# JSON-RPC "internal error", for when even the component cannot answer.
INTERNAL_ERROR = -32603

_F = TypeVar("_F", bound=Callable[..., Any])


def _as_result(result: Mapping[str, Any]) -> CallToolResult:
    return CallToolResult(content=result["content"], is_error=result["isError"])


def result_for_exception(
    tool: str, error: BaseException, arguments: Mapping[str, Any] | None = None, format: Format = "xml"
) -> CallToolResult:
    """The `CallToolResult` a failed call of `tool` answers with (see the module docs)."""
    if isinstance(error, ToolError):
        return _as_result(error.to_result(format))
    validation = _argument_validation_error(error)
    if validation is not None:
        return _as_result(validation_error(tool, validation, input=dict(arguments or {})))
    original = error.__cause__ if isinstance(error, SDKToolError) and error.__cause__ is not None else error
    if isinstance(original, ToolError):
        return _as_result(original.to_result(format))
    correlation_id = new_correlation_id()
    logger.error(
        "tool %r failed; the model was sent INTERNAL_ERROR with correlation id %s", tool, correlation_id,
        exc_info=(type(original), original, original.__traceback__),
    )  # fmt: skip
    return _as_result(internal_error_result(tool, correlation_id, format))


def _argument_validation_error(error: BaseException) -> Any:
    """The pydantic ValidationError of the SDK's argument check (exactly its ToolError from one), if that failed.

    One raised inside the tool body arrives as UnexpectedToolError: an internal failure, about data the model never sent.
    """
    cause = error.__cause__
    return cause if type(error) is SDKToolError and isinstance(cause, PydanticValidationError) else None


class EnvelopeMCPServer(MCPServer):
    """The SDK's `MCPServer`, answering every failed tool call with an envelope in `error_format`."""

    def __init__(self, *args: Any, error_format: Format = "xml", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.error_format: Format = error_format

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except MCPError:
            raise
        except SDKToolError as error:
            if error.__cause__ is None and str(error) == f"Unknown tool: {name}":
                unknown = protocol_error("invalid-params", f"Unknown tool: {name}")  # as the MCP specification asks
                raise MCPError(unknown["code"], unknown["message"]) from None
            return _answer(name, error, arguments, self.error_format)


def _answer(tool: str, error: BaseException, arguments: Mapping[str, Any] | None, format: Format) -> CallToolResult:
    """`result_for_exception`; if that fails, INTERNAL_ERROR; if even that fails, a JSON-RPC internal error.
    Nothing escapes to the SDK's own handler, which would send the text of whatever was raised to the model."""
    try:
        return result_for_exception(tool, error, arguments, format)
    except Exception:  # such as a ToolError whose spec the component refuses
        correlation_id = new_correlation_id()
        logger.exception(
            "mcp-envelope could not build the envelope for a failed call of %r; "
            "the model was sent INTERNAL_ERROR with correlation id %s", tool, correlation_id,
        )  # fmt: skip
    try:
        return _as_result(internal_error_result(tool, correlation_id, format))
    except Exception:  # the component itself is unusable
        logger.exception("mcp-envelope could not build an INTERNAL_ERROR envelope")
        raise MCPError(INTERNAL_ERROR, "Internal error") from None


def envelope_errors(fn: _F | None = None, *, name: str | None = None, format: Format = "xml") -> Any:
    """Decorates one tool function, sync or async, so its failures come back as envelopes; use it under the
    SDK's decorator (`@server.tool()` then `@envelope_errors`). The signature, and so the input schema, stays."""

    def decorate(func: _F) -> _F:
        tool = name or func.__name__
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await func(*args, **kwargs)
                except MCPError:
                    raise
                except Exception as error:
                    return _answer(tool, error, kwargs, format)

            return run_async  # type: ignore[return-value]

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            except MCPError:
                raise
            except Exception as error:
                return _answer(tool, error, kwargs, format)

        return run  # type: ignore[return-value]

    return decorate(fn) if fn is not None else decorate
