"""Envelopes for the official `mcp` SDK: every failed tool call reaches the model
as an envelope it can recover from, and no exception text leaks to it.

    from mcp_envelope import ToolError
    from mcp_envelope.mcp_server import EnvelopeMCPServer

    server = EnvelopeMCPServer("billing")

    @server.tool()
    def get_invoice(invoice_id: str) -> str:
        raise ToolError("NOT_FOUND", "No invoice with that ID").with_actions("list_invoices")

- a raised `ToolError` becomes its `<tool_error>` envelope;
- arguments that fail the tool's input model become a `<validation_error>`
  naming each field, what was sent and what was expected;
- any other exception becomes INTERNAL_ERROR with a fresh correlation id and
  the code's "do not retry blindly" recovery; the exception itself goes to
  the `mcp_envelope` logger with that id, never to the model;
- an unknown tool name is a JSON-RPC invalid-params error, as the MCP
  specification asks (the request itself is wrong).

`envelope_errors` gives the same treatment to a single tool function, for
servers that are not an `EnvelopeMCPServer` (argument validation then stays
the SDK's own, as it runs before the function).
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

from .envelope import Format, call_tool_result, logger
from .errors import ToolError, internal_error_spec, new_correlation_id
from .validation import validation_error

# JSON-RPC "invalid params": an unknown tool name (MCP specification 2025-11-25).
INVALID_PARAMS = -32602
# JSON-RPC "internal error": the server failed outside any tool handler.
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
        "tool %r failed; the model was sent INTERNAL_ERROR with correlation id %s",
        tool,
        correlation_id,
        exc_info=(type(original), original, original.__traceback__),
    )
    return _as_result(call_tool_result(internal_error_spec(correlation_id), format))


def _argument_validation_error(error: BaseException) -> Any:
    """The pydantic ValidationError of the SDK's argument check, if that is what failed."""
    # The SDK raises exactly its ToolError from the arguments' ValidationError;
    # a ValidationError raised inside the tool body arrives as
    # UnexpectedToolError and is an internal failure (it may describe data the
    # model never sent).
    cause = error.__cause__
    if type(error) is SDKToolError and isinstance(cause, PydanticValidationError):
        return cause
    return None


class EnvelopeMCPServer(MCPServer):
    """The SDK's `MCPServer`, answering every failed tool call with an envelope.

    Takes MCPServer's arguments, plus `error_format` (`xml`, `json` or `text`)
    for the envelopes' form.
    """

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
                raise MCPError(INVALID_PARAMS, f"Unknown tool: {name}") from None
            return _answer(name, error, arguments, self.error_format)


def _answer(tool: str, error: BaseException, arguments: Mapping[str, Any] | None, format: Format) -> CallToolResult:
    """`result_for_exception`; if that fails, INTERNAL_ERROR; if even that fails, a JSON-RPC internal error.

    Nothing escapes to the SDK's own handler, which would send the text of
    whatever was raised to the model.
    """
    try:
        return result_for_exception(tool, error, arguments, format)
    except Exception:  # such as a ToolError whose spec the component refuses
        correlation_id = new_correlation_id()
        logger.exception(
            "mcp-envelope could not build the envelope for a failed call of %r; "
            "the model was sent INTERNAL_ERROR with correlation id %s",
            tool,
            correlation_id,
        )
    try:
        return _as_result(call_tool_result(internal_error_spec(correlation_id), format))
    except Exception:  # the component itself is unusable
        logger.exception("mcp-envelope could not build an INTERNAL_ERROR envelope")
        raise MCPError(INTERNAL_ERROR, "Internal error") from None


def envelope_errors(fn: _F | None = None, *, name: str | None = None, format: Format = "xml") -> Any:
    """Decorates one tool function so its failures come back as envelopes.

    Use under the SDK's decorator: `@server.tool()` then `@envelope_errors`.
    Works for sync and async functions; the signature (and so the tool's
    input schema) is unchanged.
    """

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
