// The write path and in-call backoff through a real MCP SDK server and
// client (InMemoryTransport): an idempotent refund tool whose write runs once
// per key, and a flaky tool retried inside the call, its progress seen by the
// client's `onprogress` exactly as the core words it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { toolError } from 'mcp-envelope';
import { Idempotency, retryWithin, withIdempotency } from 'mcp-envelope/server';
import { decide } from 'mcp-envelope/agent';

const refunds = [];
const store = new Idempotency();
let client;
let server;
let flakyCalls = 0;

const limited = () => toolError('RATE_LIMITED', { message: 'The payment provider is rate limiting refunds' });

before(async () => {
  server = new McpServer({ name: 'billing', version: '1.0.0' });
  server.registerTool(
    'refund_order',
    {
      inputSchema: { orderId: z.string(), amountCents: z.number(), idempotency_key: z.string().optional() },
    },
    withIdempotency(
      store,
      async ({ orderId, amountCents }) => {
        refunds.push([orderId, amountCents]);
        return { content: [{ type: 'text', text: `Refunded ${amountCents} cents on order ${orderId}.` }] };
      },
      { tool: 'refund_order' },
    ),
  );
  // Fails twice, then works: retried inside the call.
  // No inputSchema: the SDK passes `extra` first.
  server.registerTool('flaky_lookup', {}, async (extra) =>
    retryWithin(
      () => {
        flakyCalls += 1;
        return flakyCalls <= 2 ? limited() : { content: [{ type: 'text', text: 'invoice inv_9' }] };
      },
      { deadlineMs: 5000, extra, baseMs: 10 },
    ),
  );
  // Never works: the attempts run out and the terminal envelope says not to retry.
  server.registerTool('down_lookup', {}, async (extra) => retryWithin(limited, { deadlineMs: 5000, extra, baseMs: 5, maxAttempts: 3 }));
  client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
});

after(async () => {
  await client.close();
  await server.close();
  store.dispose();
});

test('a replay with the same key gets the first outcome and the refund runs once', async () => {
  const args = { orderId: 'A-8812', amountCents: 3200, idempotency_key: 'k-1' };
  const first = await client.callTool({ name: 'refund_order', arguments: args });
  const again = await client.callTool({
    name: 'refund_order',
    arguments: { idempotency_key: 'k-1', amountCents: 3200, orderId: 'A-8812' },
  });
  assert.deepEqual(again, first);
  assert.deepEqual(refunds, [['A-8812', 3200]]);
  const other = await client.callTool({ name: 'refund_order', arguments: { ...args, amountCents: 4500 } });
  assert.equal(other.isError, true);
  assert.ok(
    other.content[0].text.startsWith(
      '<tool_error code="VALIDATION_ERROR" severity="error">\n  <message>This idempotency key was already used for a different request',
    ),
  );
  assert.equal(refunds.length, 1);
  // Without a key the tool runs as usual.
  await client.callTool({ name: 'refund_order', arguments: { orderId: 'A-1', amountCents: 1 } });
  assert.equal(refunds.length, 2);
});

test('a retryable failure is retried inside the call; the client sees each retry as progress', async () => {
  const progress = [];
  const result = await client.callTool({ name: 'flaky_lookup', arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
  assert.deepEqual(result.content, [{ type: 'text', text: 'invoice inv_9' }]);
  assert.deepEqual(progress, [
    { progress: 1, total: 4, message: 'Attempt 1 of 4 failed (RATE_LIMITED); retrying in 10 ms.' },
    { progress: 2, total: 4, message: 'Attempt 2 of 4 failed (RATE_LIMITED); retrying in 20 ms.' },
  ]);
});

test('when the attempts run out the result is terminal: not retryable, and a client stops', async () => {
  const progress = [];
  const result = await client.callTool({ name: 'down_lookup', arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
  assert.equal(progress.length, 2);
  assert.equal(result.isError, true);
  assert.ok(
    result.content[0].text.startsWith(
      '<tool_error code="RATE_LIMITED" severity="error">\n  <message>The payment provider is rate limiting refunds. 3 attempts inside this call failed, within its 5 s budget.</message>\n  <recovery>Do not retry: ',
    ),
  );
  assert.equal(decide(result).branch, 'stop-and-tell');
});

test('without a progressToken no notification is sent', async () => {
  flakyCalls = 0;
  const sent = [];
  const result = await retryWithin(() => (++flakyCalls <= 1 ? limited() : { content: [] }), {
    deadlineMs: 1000,
    baseMs: 1,
    extra: { sendNotification: async (n) => sent.push(n) },
  });
  assert.deepEqual(result, { content: [] });
  assert.deepEqual(sent, []);
});
