// mcp-envelope/mcp on the MCP TypeScript SDK 2.x (@modelcontextprotocol/server
// with @modelcontextprotocol/client), end to end as on 1.x (mcp.test.mjs): a
// real McpServer and Client in-process. 2.x takes any Standard Schema, so the
// same tool is declared with Zod 4, Valibot and ArkType; where 1.x answers an
// unknown tool with text, 2.x throws a JSON-RPC -32602.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { error, parseEnvelope, throwIfError, toolError } from 'mcp-envelope';
import { exceptionResult, Ledger, unknownTool } from 'mcp-envelope/server';
import { envelopeServer, registerTool, withEnvelope } from 'mcp-envelope/mcp';
import {
  assertLedgerStreak,
  badOrder,
  EQUAL_SCHEMAS_XML,
  placeOrder,
  plain,
  RESULTS,
  RESULTS_IS_ERROR,
  UNKNOWN_MESSAGE,
  UNKNOWN_XML,
} from './fixtures.mjs';

const SECRET = 'hunter2-db-password@10.0.0.7:/var/lib/billing';

async function connected(server) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

describe('SDK 2.x alone', () => {
  test('an unknown tool is a JSON-RPC -32602 error; bad arguments and an exception are their messages as text', async () => {
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    server.registerTool('place_order', { inputSchema: placeOrder.zod }, async () => ({ content: [] }));
    server.registerTool('crash', {}, async () => {
      throw new TypeError(SECRET);
    });
    const client = await connected(server);
    await assert.rejects(
      client.callTool({ name: 'refund_orders', arguments: {} }),
      (e) => e.code === -32602 && e.message === 'Tool refund_orders not found',
    );
    const bad = await client.callTool({ name: 'place_order', arguments: badOrder });
    assert.equal(bad.isError, true);
    assert.equal(
      bad.content[0].text,
      'Input validation error: Invalid arguments for tool place_order: email: Invalid email address, ' +
        'quantity: Invalid input: expected number, received string, count: Invalid input: expected number, received undefined, ' +
        'size: Invalid option: expected one of "S"|"M"|"L"',
    );
    assert.deepEqual(await client.callTool({ name: 'crash', arguments: {} }), { content: [{ type: 'text', text: SECRET }], isError: true });
    await client.close();
  });
});

describe('SDK 2.x with mcp-envelope/mcp', () => {
  const logged = [];
  let client;

  before(async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
    const options = { logger: (failure) => logged.push(failure) };
    const ok = async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] });
    // The shop order in each validator, and Zod's as a raw shape.
    registerTool(server, 'zod', { inputSchema: placeOrder.zod }, ok, { ...options, action: 'place_order' });
    registerTool(server, 'shape', { inputSchema: placeOrder.zod.shape }, ok, { ...options, action: 'place_order' });
    registerTool(server, 'valibot', { inputSchema: placeOrder.valibot }, ok, { ...options, action: 'place_order' });
    registerTool(server, 'arktype', { inputSchema: placeOrder.arktype }, ok, { ...options, action: 'place_order' });
    registerTool(server, 'trims', { inputSchema: { name: z.string().trim() } }, ok);
    registerTool(
      server,
      'throws_builder',
      {},
      async () => {
        throw error('RATE_LIMITED', 'Too many lookups').retryAfter(30);
      },
      options,
    );
    registerTool(
      server,
      'throws_secret',
      {},
      async () => {
        throw new TypeError(`connect ECONNREFUSED ${SECRET}`);
      },
      options,
    );
    registerTool(
      server,
      'proxies_envelope',
      {},
      async () => throwIfError(toolError('CONFLICT', { message: 'Order changed', correlationId: 'req-5' })),
      options,
    );
    registerTool(server, 'throws_zod', {}, async () => z.object({ limit: z.number().max(100) }).parse({ limit: 500 }), options);
    server.registerTool(
      'plain_wrapped',
      { inputSchema: z.object({ n: z.number() }) },
      withEnvelope(
        'plain_wrapped',
        async ({ n }) => (n > 1 ? Promise.reject(new TypeError(SECRET)) : error('X_WARN', 'careful').warning()),
        options,
      ),
    );
    client = await connected(server);
  });

  after(() => client.close());
  const call = (name, args = {}) => client.callTool({ name, arguments: args });

  test('clients list the schema the SDK lists for the original, byte for byte', async () => {
    const bare = new McpServer({ name: 'billing', version: '1.0.0' });
    for (const name of ['zod', 'valibot', 'arktype'])
      bare.registerTool(name, { inputSchema: placeOrder[name] }, async () => ({ content: [] }));
    bare.registerTool('shape', { inputSchema: placeOrder.zod.shape }, async () => ({ content: [] }));
    const bareClient = await connected(bare);
    const listed = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema]));
    for (const tool of (await bareClient.listTools()).tools) assert.deepEqual(listed[tool.name], tool.inputSchema, tool.name);
    await bareClient.close();
  });

  test('bad arguments are the <validation_error> every language gives, whichever validator checks them', async () => {
    for (const name of ['zod', 'shape', 'valibot'])
      assert.deepEqual(await call(name, badOrder), { content: [{ type: 'text', text: EQUAL_SCHEMAS_XML }], isError: true }, name);
    // ArkType lists and reports the required keys by name (and sorts the enum it lists).
    const [head, email, quantity, count, size, ...tail] = EQUAL_SCHEMAS_XML.split('\n');
    assert.equal(
      (await call('arktype', badOrder)).content[0].text,
      [head, count, email, quantity, size.replace("'S', 'M', 'L'", "'L', 'M', 'S'"), ...tail].join('\n'),
    );
  });

  test('good arguments reach the handler as the schema parses them', async () => {
    const order = { email: 'a@example.com', quantity: 2, count: 1, size: 'M' };
    for (const name of ['zod', 'shape', 'valibot', 'arktype'])
      assert.deepEqual(await call(name, order), { content: [{ type: 'text', text: JSON.stringify(order) }] });
    assert.deepEqual(await call('trims', { name: '  Jo  ' }), { content: [{ type: 'text', text: '{"name":"Jo"}' }] });
  });

  test('a thrown builder is its result; a thrown EnvelopeError passes its text; a ZodError is a <validation_error>', async () => {
    assert.deepEqual(await call('throws_builder'), error('RATE_LIMITED', 'Too many lookups').retryAfter(30).build());
    assert.deepEqual(await call('proxies_envelope'), toolError('CONFLICT', { message: 'Order changed', correlationId: 'req-5' }));
    assert.match((await call('throws_zod')).content[0].text, /^<validation_error action="throws_zod">\n {2}<field name="limit">/);
  });

  test('an exception is INTERNAL_ERROR under a fresh correlation id; its text goes to the logger only', async () => {
    logged.length = 0;
    const result = await call('throws_secret');
    const { correlationId } = parseEnvelope(result).error;
    assert.deepEqual(result, exceptionResult({ tool: 'throws_secret', exception: '', correlationId }).result);
    assert.ok(!JSON.stringify(result).includes('hunter2'));
    assert.deepEqual(
      logged.map((f) => [f.correlationId, f.tool, f.error.message]),
      [[correlationId, 'throws_secret', `connect ECONNREFUSED ${SECRET}`]],
    );
  });

  test("withEnvelope on the SDK's own registerTool: warnings pass, exceptions are hidden", async () => {
    assert.equal(parseEnvelope(await call('plain_wrapped', { n: 1 })).severity, 'warning');
    const failed = await call('plain_wrapped', { n: 2 });
    assert.equal(parseEnvelope(failed).code, 'INTERNAL_ERROR');
    assert.ok(!JSON.stringify(failed).includes('hunter2'));
  });
});

describe('SDK 2.x: one channel for every outcome', () => {
  test('every helper result a tool returns reaches the client as itself, through registerTool or withEnvelope', async () => {
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    for (const [name, make] of Object.entries(RESULTS)) {
      registerTool(server, `wrapped_${name}`, { inputSchema: { n: z.number().optional() } }, async () => make());
      server.registerTool(
        `plain_${name}`,
        {},
        withEnvelope(`plain_${name}`, async () => make()),
      );
    }
    const client = await connected(server);
    const errors = [];
    for (const [name, make] of Object.entries(RESULTS)) {
      for (const prefix of ['wrapped', 'plain']) {
        const result = await client.callTool({ name: `${prefix}_${name}`, arguments: {} });
        assert.deepEqual(result, plain(make()), `${prefix}_${name}`);
        if (prefix === 'wrapped') errors.push(result.isError);
      }
    }
    assert.deepEqual(errors, RESULTS_IS_ERROR);
    await client.close();
  });

  test('envelopeServer: a tool the server does not list is a JSON-RPC -32602 naming the listed tools, the envelope in its data', async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
    for (const name of ['list_invoices', 'get_invoice']) registerTool(server, name, {}, async () => ({ content: [] }));
    const refund = server.registerTool('refund_order', { inputSchema: z.object({ id: z.string() }) }, async () => ({ content: [] }));
    const client = await connected(server);
    const expected = unknownTool({ tool: 'refund_orders', tools: ['list_invoices', 'get_invoice', 'refund_order'] }).error;
    // 2.x's ProtocolError holds the response's code, message and data as sent.
    await assert.rejects(
      client.callTool({ name: 'refund_orders', arguments: { amount_cents: 300 } }),
      (e) => e.code === -32602 && e.message === UNKNOWN_MESSAGE && isDeepStrictEqual(e.data, expected.data),
    );
    refund.disable();
    await assert.rejects(client.callTool({ name: 'refund_order', arguments: {} }), {
      message: "Unknown tool: refund_order. This server's tools: list_invoices, get_invoice.",
    });
    refund.enable();
    assert.deepEqual(await client.callTool({ name: 'refund_order', arguments: { id: 'r' } }), { content: [] });
    await client.close();
  });

  test("envelopeServer with unknownTool: 'tool-result': the UNKNOWN_ACTION result naming the listed tools", async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { unknownTool: 'tool-result' });
    for (const name of ['list_invoices', 'get_invoice', 'refund_order']) registerTool(server, name, {}, async () => ({ content: [] }));
    const client = await connected(server);
    const result = await client.callTool({ name: 'refund_orders', arguments: { amount_cents: 300 } });
    assert.deepEqual(result, { content: [{ type: 'text', text: UNKNOWN_XML }], isError: true });
    await client.close();
  });

  test('a repeat ledger: the same failure again is "nothing has changed", then "stop"', async () => {
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    const notFound = (id) => error('NOT_FOUND', `No invoice ${id}`).actions('list_invoices');
    registerTool(
      server,
      'get_invoice',
      { inputSchema: { id: z.string() } },
      async ({ id }) => (id === 'ok' ? { content: [{ type: 'text', text: 'invoice ok' }] } : notFound(id)),
      { ledger: new Ledger() },
    );
    const client = await connected(server);
    const get = async (id) => parseEnvelope(await client.callTool({ name: 'get_invoice', arguments: { id } }));
    await assertLedgerStreak(get);
    await client.close();
  });

  test("a ledger function reads the conversation from 2.x's ctx, and keeps conversations apart", async () => {
    const ledgers = new Map();
    const seen = [];
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), {
      ledger: (request) => {
        seen.push(request);
        if (request.conversation === undefined) return undefined;
        if (!ledgers.has(request.conversation)) ledgers.set(request.conversation, new Ledger());
        return ledgers.get(request.conversation);
      },
    });
    server.registerTool('get_invoice', { inputSchema: { id: z.string() } }, async ({ id }) => error('NOT_FOUND', `No invoice ${id}`));
    const client = await connected(server);
    const message = async (conversation) =>
      parseEnvelope(
        await client.callTool({ name: 'get_invoice', arguments: { id: 'inv_9' }, _meta: { 'mcp-envelope/conversation': conversation } }),
      ).message;
    const repeat = 'Nothing has changed since the last attempt: the same failure again (2 in a row).';
    assert.deepEqual(
      [await message('a'), await message('b'), await message('b'), await message('a')],
      ['No invoice inv_9', 'No invoice inv_9', repeat, repeat],
    );
    assert.equal(seen[0].conversation, 'a');
    assert.equal(seen[0].meta['mcp-envelope/conversation'], 'a');
    assert.equal(typeof seen[0].context.mcpReq, 'object'); // the SDK's own `ctx`
    assert.deepEqual([...ledgers.keys()], ['a', 'b']);
    await client.close();
  });
});
