"""Envelopes for servers built on the `mcp` SDK's low-level `Server` (`mcp.server.lowlevel`), both its lines, in one
line after the server is made: `server = envelope_server(Server("name"))`. The `tools/call` handler the author
installed is wrapped, and every failed call reaches the model as an envelope the core words.

- A tool the server's own `tools/list` handler does not list gets the core's `unknown_tool` answer: by default the
  JSON-RPC error -32602 naming the tools, its data the UNKNOWN_ACTION envelope.
- Arguments failing the tool's listed `inputSchema` get a `<validation_error>` before the handler runs, worded by
  the core from jsonschema's errors.
- What the handler returns is sent as the SDK sends it; what it raises is read by its structure, as under
  `EnvelopeMCPServer` (an OSError's errno, an HTTP client's status, an exactly-`Exception`'s words, the JSON-RPC
  error of an `McpError`), never by its text.

How each line is wrapped: in `mcp` 1.x the `call_tool()` decorator builds a handler that turns every exception
into a result holding its text, so the author's function is wrapped before that decorator sees it (the
instance's `call_tool` is replaced; a function already registered is read back from the SDK's handler), and the
checks run in a handler put in front of the SDK's in `request_handlers`. In 2.x the `tools/call` entry of the
request handler map is wrapped, and so is one added later with `add_request_handler`. Needs the `mcp` extra.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Optional, TypeVar

from ._integrations import require

require("mcp", "mcp_envelope.lowlevel", "mcp")

from ._integrations import (  # noqa: E402
    CLIENT_ACTIONS,
    LedgerChoice,
    ThrownMessages,
    Unanswerable,
    arguments_answer,
    checked_thrown_messages,
    checked_unknown_tool_option,
    error_answer,
    ledger_for,
    protocol_answer_for,
    result_answer_for,
    revision_of,
)
from ._integrations import logger as envelope_logger  # noqa: E402
from .contract import LockedContract, ToolList  # noqa: E402
from .envelope import Format, Locale, ToolError  # noqa: E402
from .ledger import Ledger  # noqa: E402
from .mcp_server import (  # noqa: E402
    MCP1,
    internal_error,
    protocol_error,
    sent_as_itself,
    through_ledger,
    through_shared_ledger,
)
from .recovery import UnknownToolOption, unknown_tool  # noqa: E402
from .stores import SharedLedger  # noqa: E402
from .telemetry import record_on_span  # noqa: E402

if MCP1:
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import McpError as MCPError
    from mcp.types import CallToolRequest, CallToolResult, ListToolsRequest, PaginatedRequestParams, ServerResult

    _S = TypeVar("_S", bound="Server[Any, Any]")
else:
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError
    from mcp_types import CallToolResult, InputRequiredResult, ListToolsResult, PaginatedRequestParams

    _S = TypeVar("_S", bound="Server[Any]")

__all__ = ["envelope_server"]

# The pages of a tools/list answer followed when looking a tool up: a bound, so a handler whose cursor never ends
# cannot hold a call forever.
MAX_PAGES = 100

# A page of the server's own tools/list answer: its tools as JSON (as the client reads them) and the next cursor.
Page = tuple[list[dict[str, Any]], Optional[str]]
# Asks the server for the page after a cursor (None: the first); None when it has no tools/list handler.
PageFetch = Callable[[Optional[str]], Awaitable[Optional[Page]]]


def envelope_server(
    server: _S, *, error_format: Format = "xml", ledger: LedgerChoice = None, locale: Locale | None = None,
    lockfile: ToolList | None = None, unknown_tool: UnknownToolOption = "protocol-error",
    thrown_messages: ThrownMessages = "shown",
) -> _S:  # fmt: skip
    """`server`, a low-level `Server` of the installed `mcp` line, with its `tools/call` handler answering every
    failure with an envelope; the same server is returned. Call it right after `Server(...)` or once the handlers
    are registered: both work.

    The options are `EnvelopeMCPServer`'s: `error_format` and `locale` for the envelopes; `ledger`, the repeat
    ledger (a `Ledger` or `SharedLedger`, or a function choosing one per call as for `EnvelopeMCPServer`, the call's
    context here the SDK's request context);
    `lockfile`, the contract a model learned, whose BREAKING and RISKY changes a `<validation_error>` then tells;
    `unknown_tool`, `"protocol-error"` (the JSON-RPC error -32602) or `"tool-result"` (an `isError` result);
    `thrown_messages`, whether an exactly-`Exception`'s words reach the model (`"shown"`) or only the log
    (`"hidden"`). A wrong option, a server that is not a low-level `Server`, or one already wrapped is refused here."""
    if not isinstance(server, Server):
        raise TypeError(
            f"envelope_server takes the mcp SDK's low-level Server (mcp.server.lowlevel.Server), not "
            f"{type(server).__name__}: for MCPServer (FastMCP in mcp 1.x) use mcp_envelope.mcp_server.EnvelopeMCPServer"
        )
    if getattr(server, "_mcp_envelope_answers", None) is not None:
        raise ValueError("envelope_server was already called on this server: call it once, with every option")
    answers = CallAnswers(
        error_format=error_format, ledger=ledger, locale=locale, lockfile=lockfile,
        unknown_tool=checked_unknown_tool_option(unknown_tool), thrown_messages=checked_thrown_messages(thrown_messages),
    )  # fmt: skip
    server._mcp_envelope_answers = answers  # type: ignore[attr-defined]
    if MCP1:
        _wrap_mcp1(server, answers)
    else:
        _wrap_mcp2(server, answers)
    return server


class ListedTools:
    """The tools the server's own `tools/list` handler answers, by name in its order, with a jsonschema validator
    per input schema. Asked again only when a call names a tool not among them (as the 1.x SDK's own cache is), so a
    listing does not run on every call."""

    def __init__(self) -> None:
        self.by_name: dict[str, dict[str, Any]] = {}
        self.validators: dict[str, Any] = {}
        self.listing = False  # whether the server has a tools/list handler at all

    async def find(self, name: str, fetch: PageFetch) -> dict[str, Any] | None:
        """The tool `name` as `tools/list` sends it (the list asked again when it is not known), None when the
        server does not list it or has no `tools/list` handler (`listing` says which)."""
        if name not in self.by_name:
            await self.refresh(fetch)
        return self.by_name.get(name)

    async def refresh(self, fetch: PageFetch) -> None:
        """Every page of the server's `tools/list` answer, in its order."""
        tools: dict[str, dict[str, Any]] = {}
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            page = await fetch(cursor)
            if page is None:
                self.listing = False
                return
            listed, cursor = page
            tools.update((tool["name"], tool) for tool in listed)
            if cursor is None:
                break
        self.listing, self.by_name, self.validators = True, tools, {}

    def schema_errors(self, tool: Mapping[str, Any], arguments: Mapping[str, Any]) -> list[Any]:
        """jsonschema's errors for `arguments` against the tool's input schema, with the validator and the rules
        `jsonschema.validate` uses (the 1.x SDK's check): none when the schema cannot be checked, so the handler
        runs as on a server that does not validate."""
        name = tool["name"]
        if name not in self.validators:
            self.validators[name] = _validator(name, tool.get("inputSchema"))
        validator = self.validators[name]
        return [] if validator is None else list(validator.iter_errors(dict(arguments)))


def _validator(name: str, schema: Any) -> Any:
    """The jsonschema validator of an input schema, the draft its `$schema` names (the latest by default); None,
    logged, for a schema jsonschema refuses."""
    # A dependency of the mcp SDK, untyped; imported here, not at import time: only a checked call needs it.
    jsonschema: Any = importlib.import_module("jsonschema")
    if not isinstance(schema, Mapping):
        return None
    try:
        validator_class = jsonschema.validators.validator_for(schema)
        validator_class.check_schema(schema)
        return validator_class(schema)
    except jsonschema.SchemaError as refused:
        envelope_logger.warning("tool %r: its input schema is not valid JSON Schema, so no call is checked (%s)",
                                name, refused.message)  # fmt: skip
        return None


class CallAnswers:
    """What `envelope_server` keeps for one server: its options and the tools it lists, and the checks and answers
    of each `tools/call`, the same for both SDK lines."""

    def __init__(
        self, *, error_format: Format, ledger: LedgerChoice, locale: Locale | None, lockfile: ToolList | None,
        unknown_tool: UnknownToolOption, thrown_messages: ThrownMessages,
    ) -> None:  # fmt: skip
        self.error_format, self.ledger, self.locale = error_format, ledger, locale
        self.contract = None if lockfile is None else LockedContract(lockfile)
        self.unknown_tool, self.thrown_messages = unknown_tool, thrown_messages
        self.tools = ListedTools()

    def ledgers(self, context: Any) -> tuple[Ledger | None, SharedLedger | None]:
        """The call's ledger, as a `Ledger` or as a `SharedLedger` (the other None)."""
        chosen = ledger_for(self.ledger, context)
        return (None, chosen) if isinstance(chosen, SharedLedger) else (chosen, None)

    async def refused(
        self, name: str, arguments: Mapping[str, Any], context: Any, fetch: PageFetch, *, validate: bool
    ) -> CallToolResult | None:
        """The answer to a call refused before its handler runs, None to run it: a tool the server does not list
        gets the core's unknown-tool answer (its JSON-RPC error raised as the SDK's `McpError`, outside the ledger);
        arguments failing the tool's input schema (when `validate`) its `<validation_error>`."""
        tool = await self.tools.find(name, fetch)
        if tool is None:
            if not self.tools.listing:  # no tools/list handler: nothing to check against
                return None
            answer = unknown_tool(name, list(self.tools.by_name), format=self.error_format, answer=self.unknown_tool)
            if "error" in answer:
                raise protocol_error(answer["error"])
            return CallToolResult.model_validate(answer["result"])
        errors = self.tools.schema_errors(tool, arguments) if validate else []
        if not errors:
            return None
        deltas = None if self.contract is None else await self.contract.deltas(self.listed)
        ledger, shared = self.ledgers(context)
        try:
            refusal = arguments_answer(name, errors, arguments, self.error_format, input_schema=tool["inputSchema"],
                                       ledger=ledger, locale=self.locale, deltas=deltas)  # fmt: skip
        except Unanswerable:
            raise internal_error() from None
        result = CallToolResult.model_validate(refusal)
        return result if shared is None else await through_shared_ledger(shared, name, result, arguments)

    async def listed(self) -> list[dict[str, Any]]:
        """The tools last listed, for the contract's deltas."""
        return list(self.tools.by_name.values())

    async def run(
        self, name: str, arguments: Mapping[str, Any], context: Any, call: Callable[[], Awaitable[Any]],
        client_action: Callable[[MCPError], Any],
    ) -> Any:  # fmt: skip
        """What the author's handler (`call()`) gives, each failure answered with an envelope. A JSON-RPC error that
        asks the client itself to act (`CLIENT_ACTIONS`) is `client_action`'s to send."""
        try:
            value = await call()
        except MCPError as error:
            if error.error.code in CLIENT_ACTIONS:
                return client_action(error)
            return await self.failed(name, error, arguments, context)
        except Exception as error:
            return await self.failed(name, error, arguments, context)
        return await self.returned(name, value, arguments, context)

    async def failed(self, name: str, error: BaseException, arguments: Mapping[str, Any], context: Any) -> Any:
        """The result answering `error`, raised by the handler of `name` (`error_answer`, as for
        `EnvelopeMCPServer`), through the call's ledger."""
        ledger, shared = self.ledgers(context)
        try:
            answer = error_answer(name, error, arguments, self.error_format, ledger=ledger, locale=self.locale,
                                  thrown_messages=self.thrown_messages)  # fmt: skip
        except Unanswerable:
            raise internal_error() from None
        result = CallToolResult.model_validate(answer)
        return result if shared is None else await through_shared_ledger(shared, name, result, arguments)

    async def returned(self, name: str, value: Any, arguments: Mapping[str, Any], context: Any) -> Any:
        """A value the handler returned, as the SDK should take it: a `ToolError` answered as a raised one, a
        `ToolResult` (a result this package made) as the `CallToolResult` it is, anything else as it came. A result
        goes through the ledger; content the SDK makes a success of ends the tool's streak."""
        if isinstance(value, ToolError):
            return await self.failed(name, value, arguments, context)
        value = sent_as_itself(value)
        ledger, shared = self.ledgers(context)
        if isinstance(value, CallToolResult):
            if shared is not None:
                return await through_shared_ledger(shared, name, value, arguments)
            return value if ledger is None else through_ledger(ledger, name, value, arguments)
        if isinstance(value, (list, tuple, dict)):  # content, structured content or both: a success
            if shared is not None:
                await shared.success(name)
            elif ledger is not None:
                ledger.success(name)
        return value


def _reraised(error: MCPError) -> Any:
    """A JSON-RPC error that asks the client to act, sent as it came (`mcp` 1.x speaks no revision that changes
    it): raised again."""
    raise error


if MCP1:

    def _wrap_mcp1(server: Server[Any, Any], answers: CallAnswers) -> None:
        """Wraps the function the author gives `@server.call_tool()`, now or already given, so that what it raises
        is answered before the SDK's handler turns it into its text, and puts the checks in front of that handler.
        The SDK's own input check is turned off where ours runs, so arguments are checked once."""
        sdk_call_tool = type(server).call_tool

        def register(func: Callable[..., Any], validate_input: bool) -> None:
            sdk_call_tool(server, validate_input=False)(_guarded(server, answers, func))
            handler = server.request_handlers[CallToolRequest]
            server.request_handlers[CallToolRequest] = _front(server, answers, handler, validate_input, True)

        def call_tool(*, validate_input: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
            """The SDK's `call_tool()` decorator, the function wrapped first."""

            def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
                register(func, validate_input)
                return func

            return decorator

        server.call_tool = call_tool  # type: ignore[method-assign]
        existing = server.request_handlers.get(CallToolRequest)
        if existing is None:
            return
        registered = _registered_function(existing)
        if registered is not None:
            register(*registered)
        else:  # a handler put in the map by hand: what it raises reaches the front
            server.request_handlers[CallToolRequest] = _front(server, answers, existing, True, False)

    def _registered_function(handler: Callable[..., Any]) -> tuple[Callable[..., Any], bool] | None:
        """The function and `validate_input` the SDK's `call_tool()` decorator made `handler` of (the variables
        its closure holds), None for a handler the SDK did not make."""
        if getattr(handler, "__module__", None) != "mcp.server.lowlevel.server":
            return None
        try:
            held = inspect.getclosurevars(handler).nonlocals
        except TypeError:  # not a Python function
            return None
        func = held.get("func")
        return None if not callable(func) else (func, bool(held.get("validate_input", True)))

    def _request_context(server: Server[Any, Any]) -> Any:
        """The request context of the call being handled (what a ledger chooser is given), None outside one."""
        try:
            return server.request_context
        except LookupError:
            return None

    def _guarded(server: Server[Any, Any], answers: CallAnswers, func: Callable[..., Any]) -> Callable[..., Any]:
        """The author's `(name, arguments)` function, answering what it raises and returns (`CallAnswers.run`):
        a failure's result is a `CallToolResult`, which the SDK's handler sends as it is."""

        @functools.wraps(func)
        async def guarded(name: str, arguments: dict[str, Any]) -> Any:
            context = _request_context(server)
            return await answers.run(name, arguments, context, lambda: func(name, arguments), _reraised)

        return guarded

    def _front(
        server: Server[Any, Any], answers: CallAnswers, handler: Callable[..., Awaitable[ServerResult]],
        validate: bool, guarded: bool,
    ) -> Callable[[CallToolRequest], Awaitable[ServerResult]]:  # fmt: skip
        """The tools/call handler in front of `handler`: the checks (`CallAnswers.refused`; its McpError becomes the
        error response, the SDK's handler being the one that would make it a result), then `handler`; one the SDK
        did not make (`guarded` False) has what it raises and returns answered here."""

        async def fetch(cursor: str | None) -> Page | None:
            listing = server.request_handlers.get(ListToolsRequest)
            if listing is None:
                return None
            params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
            answer: Any = (await listing(ListToolsRequest(method="tools/list", params=params))).root
            tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in answer.tools]
            return tools, answer.nextCursor

        async def front(request: CallToolRequest) -> ServerResult:
            name, arguments = request.params.name, request.params.arguments or {}
            context = _request_context(server)
            result: Any = await answers.refused(name, arguments, context, fetch, validate=validate)
            if result is None and guarded:
                result = (await handler(request)).root
            elif result is None:

                async def call() -> Any:
                    return (await handler(request)).root

                result = await answers.run(name, arguments, context, call, _reraised)
            record_on_span(result)
            return ServerResult(result)

        return front

else:

    def _wrap_mcp2(server: Server[Any], answers: CallAnswers) -> None:
        """Wraps the handler of the `tools/call` entry in the server's request handler map, the one given to the
        constructor and any one `add_request_handler` puts there later."""
        sdk_add = server.add_request_handler

        def add_request_handler(method: str, params_type: Any, handler: Any) -> None:
            """The SDK's `add_request_handler`, a `tools/call` handler wrapped."""
            sdk_add(method, params_type, _wrapped(server, answers, handler) if method == "tools/call" else handler)

        server.add_request_handler = add_request_handler  # type: ignore[method-assign]
        entry = server.get_request_handler("tools/call")
        if entry is not None:
            sdk_add("tools/call", entry.params_type, _wrapped(server, answers, entry.handler))

    def _wrapped(
        server: Server[Any], answers: CallAnswers, handler: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        """The `(ctx, params)` tools/call handler around the author's: the checks (`CallAnswers.refused`), then the
        handler, what it raises and returns answered (`CallAnswers.run`); a JSON-RPC error asking the client to
        act, and an `input_required` result, sent as the request's protocol revision wants them
        (docs/revisions.md)."""

        async def on_call_tool(ctx: Any, params: Any) -> Any:
            name, arguments = params.name, params.arguments or {}

            async def fetch(cursor: str | None) -> Page | None:
                entry = server.get_request_handler("tools/list")
                if entry is None:
                    return None
                answer = await entry.handler(ctx, PaginatedRequestParams(cursor=cursor))
                listed: Any = ListToolsResult.model_validate(answer) if isinstance(answer, Mapping) else answer
                tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools]
                return tools, listed.next_cursor

            result = await answers.refused(name, arguments, ctx, fetch, validate=True)
            if result is None:
                result = await answers.run(name, arguments, ctx, lambda: handler(ctx, params),
                                           lambda error: _for_revision(ctx, error))  # fmt: skip
            if isinstance(result, InputRequiredResult):
                refused = result_answer_for(revision_of(ctx), result.model_dump(by_alias=True, exclude_none=True))
                if refused is not None:  # input 2025-11-25 asks for with -32042, or cannot ask for at all
                    raise protocol_error(refused["error"])
            record_on_span(result)
            return result

        return on_call_tool

    def _for_revision(ctx: Any, error: MCPError) -> Any:
        """A JSON-RPC error that asks the client itself to act, as the request's revision wants it: 2026-07-28's
        `input_required` result for a URL elicitation (returned), else the error (raised)."""
        sent = protocol_answer_for(revision_of(ctx), error.error.model_dump(by_alias=True, exclude_none=True))
        if sent is None:
            raise error
        if "error" in sent:
            raise protocol_error(sent["error"]) from None
        return InputRequiredResult.model_validate(sent["result"])
