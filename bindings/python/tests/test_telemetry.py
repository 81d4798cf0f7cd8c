"""OpenTelemetry on the integrations (docs/telemetry.md): a failed tool call's span, which the `mcp` SDK 2.x opens
(continuing the trace context the request carries in `params._meta`), gets `error.type` = `tool_error`, status ERROR
and the envelope's code, category, retryability and correlation id, as the core gives them; no message or exception
text reaches any attribute. Through the SDK's own client, an in-memory exporter reading the spans."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp import FastMCP
from mcp import Client
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

import mcp_envelope as me
from mcp_envelope.agent import span_attributes
from mcp_envelope.fastmcp import EnvelopeMiddleware
from mcp_envelope.mcp_server import EnvelopeMCPServer

SECRET = "db connect failed: password=hunter2"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACEPARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"
EXPORTER = InMemorySpanExporter()
_provider = TracerProvider()
_provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
trace.set_tracer_provider(_provider)


def tools(server: Any) -> Any:
    @server.tool()
    def lookup() -> str:
        raise me.ToolError("RATE_LIMITED", "Too many lookups.", retry_after=30, correlation_id="req-7")

    @server.tool()
    def crash() -> str:
        raise ConnectionError(SECRET)

    @server.tool()
    def ok() -> str:
        return "inv_1: 120.00 EUR, paid"

    return server


def span_of(name: str) -> Any:
    """The one finished server span of the `tools/call` of `name` (the clients make spans of their own)."""
    spans = [s for s in EXPORTER.get_finished_spans() if s.name == f"tools/call {name}" and s.kind == SpanKind.SERVER]
    assert len(spans) == 1, [(s.name, s.kind) for s in EXPORTER.get_finished_spans()]
    return spans[0]


def sent_by(name: str) -> Any:
    """The client's span that sent the `tools/call` of `name`, whose context the request carried in `_meta`."""
    return next(s for s in EXPORTER.get_finished_spans() if s.name == f"MCP send tools/call {name}")


def called(client_of: Any, name: str) -> dict[str, Any]:
    """Calls `name`, the `mcp` client with a traceparent in `_meta` (FastMCP's client puts its own span's there);
    the result as sent."""
    EXPORTER.clear()

    async def go() -> Any:
        async with client_of() as client:
            if isinstance(client, Client):
                return await client.call_tool(name, {}, meta={"traceparent": TRACEPARENT})
            return await client.call_tool_mcp(name, {})

    result: dict[str, Any] = anyio.run(go).model_dump(mode="json", by_alias=True, exclude_none=True)
    return result


CLIENTS = [
    pytest.param(lambda: Client(tools(EnvelopeMCPServer("billing"))), id="EnvelopeMCPServer"),
    pytest.param(lambda: FastMCPClient(tools(FastMCP("billing", middleware=[EnvelopeMiddleware()]))), id="FastMCP"),
]


@pytest.mark.parametrize("client_of", CLIENTS)
def test_a_tool_error_sets_its_code_category_retryability_and_correlation_id_on_the_span(client_of):
    result = called(client_of, "lookup")
    span = span_of("lookup")
    assert {k: v for k, v in span.attributes.items() if k.startswith(("error.", "mcp_envelope."))} == {
        "error.type": "tool_error",
        "mcp_envelope.error.code": "RATE_LIMITED",
        "mcp_envelope.error.category": "transient",
        "mcp_envelope.error.retryable": True,
        "mcp_envelope.error.correlation_id": "req-7",
    }
    assert span.status.status_code == StatusCode.ERROR
    # The trace the request carried is continued: the traceparent in params._meta, or FastMCP client's span.
    expected_trace = int(TRACE_ID, 16) if isinstance(client_of(), Client) else sent_by("lookup").context.trace_id
    assert span.context.trace_id == expected_trace
    assert span_attributes(result)["mcp_envelope.error.code"] == "RATE_LIMITED"


@pytest.mark.parametrize("client_of", CLIENTS)
def test_an_exception_is_internal_error_on_the_span_with_the_correlation_id_and_no_text(client_of):
    result = called(client_of, "crash")
    span = span_of("crash")
    correlation_id = me.parse_envelope(result["content"][0]["text"])["error"]["correlationId"]
    assert correlation_id.startswith("err_")
    assert span.attributes["mcp_envelope.error.code"] == "INTERNAL_ERROR"
    assert span.attributes["mcp_envelope.error.correlation_id"] == correlation_id
    assert span.attributes["mcp_envelope.error.retryable"] is False
    assert not any("hunter2" in str(value) for value in span.attributes.values())
    # FastMCP records the exception on its span as an event of its own; the mcp SDK, whose tool was answered, does not.
    assert any("hunter2" in str(event.attributes) for event in span.events) == (not isinstance(client_of(), Client))


@pytest.mark.parametrize("client_of", CLIENTS)
def test_a_success_adds_no_attribute(client_of):
    called(client_of, "ok")
    span = span_of("ok")
    assert not [k for k in span.attributes if k.startswith(("error.", "mcp_envelope."))]
    assert span.status.status_code != StatusCode.ERROR
