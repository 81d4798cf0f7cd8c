// The repeat ledger and the idempotency store together, through a real MCP
// SDK server and client (InMemoryTransport): a client that retries exactly as
// the in-progress CONFLICT says (the same call, the same key, while the first
// call still runs) is never told to stop by the ledger, the write runs once,
// and the stored outcome replays byte for byte in the same session. The
// in-memory stores and the shared ones over a MemoryStore give the same bytes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { toolError } from 'mcp-envelope';
import { Idempotency, Ledger, MemoryStore, SharedIdempotency, SharedLedger, withIdempotency } from 'mcp-envelope/server';
import { envelopeServer } from 'mcp-envelope/mcp';

const ARGS = { orderId: 'A-8812', amountCents: 3200, idempotency_key: 'refund-A-8812-1' };

const IN_PROGRESS = {
  content: [
    {
      type: 'text',
      text:
        '<tool_error code="CONFLICT" severity="error">\n' +
        '  <message>The first call with this idempotency key is still in progress, so this call did not run.</message>\n' +
        "  <recovery>Wait 2 seconds, then make the same call with the same key: it will return the first call's outcome.</recovery>\n" +
        '  <details>\n' +
        '    <detail key="tool">refund_order</detail>\n' +
        '    <detail key="idempotencyKey">refund-A-8812-1</detail>\n' +
        '  </details>\n' +
        '  <retry_after>2 seconds</retry_after>\n' +
        '  <category>transient</category>\n' +
        '  <retryable>true</retryable>\n' +
        '</tool_error>',
    },
  ],
  isError: true,
};

// The write's outcome: a business refusal, not retryable, so it is stored and replayed.
const REFUSED = {
  content: [
    {
      type: 'text',
      text:
        '<tool_error code="REFUND_WINDOW_CLOSED" severity="error">\n' +
        '  <message>Order A-8812 was paid 120 days ago; refunds close after 90.</message>\n' +
        '  <category>business</category>\n' +
        '  <retryable>false</retryable>\n' +
        '</tool_error>',
    },
  ],
  isError: true,
};

const STOP =
  '<tool_error code="NOT_FOUND" severity="critical">\n' +
  '  <message>Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.</message>\n' +
  '  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n' +
  '</tool_error>';

for (const [kind, makeStore, makeLedger] of [
  ['Idempotency and Ledger', () => new Idempotency(), () => new Ledger()],
  [
    'SharedIdempotency and SharedLedger',
    () => new SharedIdempotency(new MemoryStore()),
    () => new SharedLedger(new MemoryStore(), 'session-1'),
  ],
]) {
  describe(`a write behind an idempotency key, in a session with a repeat ledger (${kind})`, () => {
    let client;
    let server;
    let writes = 0;
    let release;
    const released = new Promise((resolve) => {
      release = resolve;
    });

    before(async () => {
      server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { ledger: makeLedger() });
      server.registerTool(
        'refund_order',
        { inputSchema: { orderId: z.string(), amountCents: z.number(), idempotency_key: z.string() } },
        withIdempotency(
          makeStore(),
          async ({ orderId }) => {
            writes += 1;
            await released;
            return toolError('REFUND_WINDOW_CLOSED', {
              message: `Order ${orderId} was paid 120 days ago; refunds close after 90.`,
              category: 'business',
              retryable: false,
            });
          },
          { tool: 'refund_order' },
        ),
      );
      server.registerTool('get_invoice', { inputSchema: { id: z.string() } }, async ({ id }) =>
        toolError('NOT_FOUND', { message: `No invoice ${id}` }),
      );
      client = new Client({ name: 'test-client', version: '1.0.0' });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    });

    after(async () => {
      await client.close();
      await server.close();
    });

    test('the ledger is on: the third identical failure of a call is told to stop', async () => {
      for (let i = 0; i < 2; i++) await client.callTool({ name: 'get_invoice', arguments: { id: 'inv_9' } });
      const third = await client.callTool({ name: 'get_invoice', arguments: { id: 'inv_9' } });
      assert.equal(third.content[0].text, STOP);
    });

    test('retrying as the CONFLICT says never meets the stop; the write runs once; the outcome replays byte for byte', async () => {
      const first = client.callTool({ name: 'refund_order', arguments: ARGS });
      // While the first call runs: five retries, each the same CONFLICT, none told to stop.
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await client.callTool({ name: 'refund_order', arguments: ARGS }), IN_PROGRESS, `retry ${i + 1}`);
      }
      release();
      const outcome = await first;
      assert.deepEqual(outcome, REFUSED);
      // The stored outcome, replayed: the first call's bytes each time, never "Nothing has changed".
      for (let i = 0; i < 3; i++) {
        const replay = await client.callTool({ name: 'refund_order', arguments: ARGS });
        assert.equal(JSON.stringify(replay), JSON.stringify(outcome), `replay ${i + 1}`);
      }
      assert.equal(writes, 1);
    });
  });
}
