// The agent host's side (docs/host-loop.md), end to end: callToolWithRecovery
// over the TypeScript SDK's own Client, against an McpServer in
// envelopeServer whose tools fail as upstreams do. The waits are recorded
// instead of slept; every answer crosses the real client and server.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { error } from 'mcp-envelope';
import { callToolWithRecovery, hostStep } from 'mcp-envelope/agent';
import { envelopeServer } from 'mcp-envelope/mcp';

const calls = new Map();
const ran = (tool) => calls.set(tool, (calls.get(tool) ?? 0) + 1).get(tool);
let client;
let listed;

before(async () => {
  const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
  // Two timeouts, then the invoice.
  server.registerTool('get_invoice', { annotations: { readOnlyHint: true } }, async () => {
    if (ran('get_invoice') <= 2) throw error('TIMEOUT', 'The billing API did not answer within 10 s.');
    return { content: [{ type: 'text', text: 'inv_1: 120.00 EUR, paid' }] };
  });
  // Rate limited every time, with a stated wait.
  server.registerTool('list_invoices', { annotations: { readOnlyHint: true } }, async () => {
    ran('list_invoices');
    throw error('RATE_LIMITED', 'Too many lookups.').retryAfter(1);
  });
  // A write, neither read-only nor idempotent, that times out.
  server.registerTool('refund_order', {}, async () => {
    ran('refund_order');
    throw error('TIMEOUT', 'The billing API did not answer within 10 s.');
  });
  server.registerTool('find_invoice', { annotations: { readOnlyHint: true } }, async () => {
    ran('find_invoice');
    throw error('NOT_FOUND', 'No invoice inv_9.').actions('list_invoices');
  });
  client = new Client({ name: 'host', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  listed = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
});

/** Calls `name` through the host loop, the waits recorded. */
async function recovered(name, options = {}) {
  const waits = [];
  const outcome = await callToolWithRecovery(
    client,
    { name, arguments: {} },
    {
      tool: listed.get(name),
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...options,
    },
  );
  return { ...outcome, waits };
}

describe('callToolWithRecovery', () => {
  test('a transient failure is absorbed: two timeouts waited out, the third call answers, no model turn', async () => {
    const { then, result, tried, waits } = await recovered('get_invoice');
    assert.equal(then, 'done');
    assert.deepEqual(result.content, [{ type: 'text', text: 'inv_1: 120.00 EUR, paid' }]);
    assert.deepEqual(waits, [500, 1000]);
    assert.deepEqual(tried, [
      { code: 'TIMEOUT', branch: 'wait-and-retry', waitedMs: 500 },
      { code: 'TIMEOUT', branch: 'wait-and-retry', waitedMs: 1000 },
      { branch: 'accept' },
    ]);
    assert.equal(calls.get('get_invoice'), 3);
  });

  test('a failure that lasts is escalated once the budget is spent, with the record the core writes', async () => {
    const { then, result, waits } = await recovered('list_invoices');
    assert.equal(then, 'escalate');
    assert.deepEqual(waits, [1000, 1000]);
    assert.equal(calls.get('list_invoices'), 3);
    assert.equal(result.isError, true);
    assert.equal(
      result.content[0].text,
      `<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call list_invoices: gave up after 3 calls, the most the budget allows</task>
  <failed>
    <failure item="list_invoices" code="RATE_LIMITED" category="transient" retryable="true" retry_after="1 second"/>
  </failed>
  <tried>
    <attempt>call 1: RATE_LIMITED (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 2: RATE_LIMITED (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 3: RATE_LIMITED (wait-and-retry)</attempt>
  </tried>
  <recovery>The failure is transient, but the retries the host allows are spent: try again later, or tell the user.</recovery>
</partial_result>`,
    );
  });

  test('a write that is neither read-only nor idempotent is never retried blindly: escalated after one call', async () => {
    const { then, result, waits } = await recovered('refund_order');
    assert.deepEqual([then, waits, calls.get('refund_order')], ['escalate', [], 1]);
    assert.match(result.content[0].text, /<attempt>call 1: TIMEOUT \(verify-before-retry\)<\/attempt>/);
  });

  test('without the tool listing the same timeout is retried: the annotations are what make a write safe or not', async () => {
    const before = calls.get('refund_order');
    const { then, waits } = await recovered('refund_order', { tool: undefined, budget: { maxAttempts: 2 } });
    assert.deepEqual([then, waits, calls.get('refund_order') - before], ['escalate', [500], 2]);
  });

  test('what only the model can fix goes to the model at once, as it came', async () => {
    const { then, result, tried, waits } = await recovered('find_invoice');
    assert.deepEqual([then, waits, tried], ['to-model', [], [{ code: 'NOT_FOUND', branch: 'fix-and-retry' }]]);
    assert.match(result.content[0].text, /^<tool_error code="NOT_FOUND"/);
  });

  test('an unknown tool is the JSON-RPC error the server sent, to the model', async () => {
    const { then, result } = await recovered('refund_orders');
    assert.equal(then, 'to-model');
    assert.equal(result.code, -32602);
    assert.match(
      result.message,
      /Unknown tool: refund_orders\. This server's tools: get_invoice, list_invoices, refund_order, find_invoice\./,
    );
  });

  test('hostStep refuses a request without the tool name, in the core words', () => {
    assert.throws(() => hostStep({ result: { content: [] } }), {
      name: 'TypeError',
      message: 'missing "name": the name of the tool called',
    });
  });
});
