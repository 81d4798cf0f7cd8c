// OpenTelemetry on mcp-envelope/mcp and mcp-envelope/fastmcp (docs/telemetry.md): with the
// application's API given, each tools/call runs in a server span that
// continues the trace context the request carries in params._meta; a failed
// call's span gets error.type and the envelope's code, category, retryability
// and correlation id as the core gives them, and no message or exception text
// in any attribute. Through the TypeScript SDK's own client and server, the
// SDK's in-memory exporter reading the spans; FastMCP's server too.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import * as opentelemetry from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FastMCP } from 'fastmcp';
import * as z from 'zod';
import { error, parseEnvelope } from 'mcp-envelope';
import { spanAttributes } from 'mcp-envelope/agent';
import { envelopeFastMCP } from 'mcp-envelope/fastmcp';
import { envelopeServer } from 'mcp-envelope/mcp';

const SECRET = 'db connect failed: password=hunter2';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const exporter = new InMemorySpanExporter();
let client;
let fastmcpClient;

before(async () => {
  opentelemetry.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  opentelemetry.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { opentelemetry, logger: () => {} });
  server.registerTool('lookup', {}, async () => {
    throw error('RATE_LIMITED', 'Too many lookups.').retryAfter(30).correlationId('req-7');
  });
  server.registerTool('crash', {}, async () => {
    throw new TypeError(SECRET);
  });
  server.registerTool('ok', {}, async () => ({ content: [{ type: 'text', text: 'inv_1: 120.00 EUR, paid' }] }));
  server.registerTool('refund', { inputSchema: { amount: z.number() } }, async () => ({ content: [] }));
  client = new Client({ name: 'host', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);

  const fastmcp = envelopeFastMCP(new FastMCP({ name: 'billing', version: '1.0.0', ping: { enabled: false } }), {
    opentelemetry,
    logger: () => {},
  });
  fastmcp.addTool({
    name: 'lookup',
    execute: async () => {
      throw error('RATE_LIMITED', 'Too many lookups.').retryAfter(30).correlationId('req-7');
    },
  });
  fastmcp.addTool({
    name: 'crash',
    execute: async () => {
      throw new TypeError(SECRET);
    },
  });
  fastmcp.addTool({ name: 'ok', execute: async () => 'inv_1: 120.00 EUR, paid' });
  fastmcpClient = new Client({ name: 'host', version: '1.0.0' });
  const [fastmcpClientEnd, fastmcpServerEnd] = InMemoryTransport.createLinkedPair();
  await Promise.all([fastmcp.connect(fastmcpServerEnd), fastmcpClient.connect(fastmcpClientEnd)]);
});

/** Calls `name` with a traceparent in `_meta`; the result, and the one span of that call. */
async function called(name, args = {}, caller = client) {
  exporter.reset();
  let result;
  try {
    result = await caller.callTool({ name, arguments: args, _meta: { traceparent: TRACEPARENT } });
  } catch (thrown) {
    result = thrown;
  }
  const spans = exporter.getFinishedSpans();
  assert.equal(spans.length, 1, spans.map((s) => s.name).join(', '));
  return { result, span: spans[0] };
}

const ours = (span) =>
  Object.fromEntries(Object.entries(span.attributes).filter(([k]) => k.startsWith('error.') || k.startsWith('mcp_envelope.')));

// The same server in each integration: the same span for each answer.
for (const [integration, caller] of [
  ['envelopeServer', () => client],
  ['envelopeFastMCP', () => fastmcpClient],
]) {
  describe(`OpenTelemetry on ${integration}`, () => {
    test('a tool error: its code, category, retryability and correlation id on the span, status ERROR, the trace continued', async () => {
      const { result, span } = await called('lookup', {}, caller());
      assert.equal(span.name, 'tools/call lookup');
      assert.equal(span.kind, opentelemetry.SpanKind.SERVER);
      assert.deepEqual(ours(span), {
        'error.type': 'tool_error',
        'mcp_envelope.error.code': 'RATE_LIMITED',
        'mcp_envelope.error.category': 'transient',
        'mcp_envelope.error.retryable': true,
        'mcp_envelope.error.correlation_id': 'req-7',
      });
      assert.deepEqual(ours(span), spanAttributes(result));
      assert.equal(span.status.code, opentelemetry.SpanStatusCode.ERROR);
      assert.equal(span.spanContext().traceId, TRACE_ID);
      assert.equal(span.parentSpanContext?.spanId, '00f067aa0ba902b7');
    });

    test('an exception: INTERNAL_ERROR with the correlation id the model reads, and no text of the exception', async () => {
      const { result, span } = await called('crash', {}, caller());
      const correlationId = parseEnvelope(result.content[0].text).error.correlationId;
      assert.match(correlationId, /^err_[0-9a-f]{12}$/);
      assert.equal(span.attributes['mcp_envelope.error.code'], 'INTERNAL_ERROR');
      assert.equal(span.attributes['mcp_envelope.error.correlation_id'], correlationId);
      assert.ok(!JSON.stringify([span.attributes, span.events]).includes('hunter2'));
    });

    test('an unknown tool: its JSON-RPC code as error.type', async () => {
      const { result, span } = await called('refund_orders', {}, caller());
      assert.equal(result.code, -32602);
      assert.deepEqual(ours(span), { 'error.type': '-32602' });
      assert.equal(span.status.code, opentelemetry.SpanStatusCode.ERROR);
    });

    test('a success: no error attribute, status unset', async () => {
      const { span } = await called('ok', {}, caller());
      assert.deepEqual(ours(span), {});
      assert.equal(span.status.code, opentelemetry.SpanStatusCode.UNSET);
    });
  });
}

test('envelopeServer: a validation error answered before the handler is on the span too', async () => {
  const { span } = await called('refund', { amount: 'ten' });
  assert.deepEqual(ours(span), {
    'error.type': 'tool_error',
    'mcp_envelope.error.code': 'VALIDATION_ERROR',
    'mcp_envelope.error.category': 'validation',
    'mcp_envelope.error.retryable': true,
  });
});
