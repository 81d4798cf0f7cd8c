// mcp-envelope/fastmcp end to end: a real FastMCP server and the MCP SDK's
// Client, connected in-process (FastMCP's `server.connect`) or over
// Streamable HTTP (`server.start`). Tools declared with Zod 4, Valibot and
// ArkType; tools that return and throw envelopes, UserErrors and Errors
// holding a secret; what FastMCP alone answers for each; and each way in:
// envelopeFastMCP (one call), addTool with envelopeTransport.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { FastMCP, UserError } from 'fastmcp';
import * as v from 'valibot';
import * as z from 'zod';
import { error, parseEnvelope, throwIfError, toolError } from 'mcp-envelope';
import { exceptionResult, Ledger, unknownTool, userError } from 'mcp-envelope/server';
import { addTool, envelopeFastMCP, envelopeTool, envelopeTransport } from 'mcp-envelope/fastmcp';
import {
  assertLedgerStreak,
  badOrder,
  EQUAL_SCHEMAS_XML,
  placeOrder,
  plain,
  RESULTS,
  RESULTS_IS_ERROR,
  UNKNOWN_MESSAGE,
} from './fixtures.mjs';

const SECRET = 'hunter2-db-password@10.0.0.7:/var/lib/billing';

/** A client of `server` over an in-memory pair, the server's end wrapped (or not); `close` ends both. */
async function connected(server, { wrap = true } = {}) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const [session] = await Promise.all([
    server.connect(wrap ? envelopeTransport(serverTransport) : serverTransport),
    client.connect(clientTransport),
  ]);
  const call = (name, args = {}) => client.callTool({ name, arguments: args });
  return {
    client,
    call,
    close: async () => {
      await client.close();
      await session.close();
    },
  };
}

// No pings, so a test that fails before closing its session does not keep the process alive.
const newServer = () => new FastMCP({ name: 'billing', version: '1.0.0', ping: { enabled: false } });

describe('FastMCP alone', () => {
  test('an unknown tool is -32601, bad arguments -32602; an exception shows its text, a UserError its message', async () => {
    const server = newServer();
    server.addTool({ name: 'place_order', parameters: placeOrder.zod, execute: async () => 'ok' });
    server.addTool({
      name: 'crash',
      execute: async () => {
        throw new TypeError(SECRET);
      },
    });
    server.addTool({
      name: 'refuse',
      execute: async () => {
        throw new UserError('This URL is not allowed', { url: 'x' });
      },
    });
    const { call, close } = await connected(server, { wrap: false });
    try {
      await assert.rejects(
        call('refund_orders'),
        (e) => e.code === -32601 && e.message === 'MCP error -32601: MCP error -32601: Unknown tool: refund_orders',
      );
      await assert.rejects(
        call('place_order', badOrder),
        (e) => e.code === -32602 && e.message.includes("Tool 'place_order' parameter validation failed: email: Invalid email address, "),
      );
      assert.deepEqual(await call('crash'), {
        content: [{ type: 'text', text: `Tool 'crash' execution failed: ${SECRET}` }],
        isError: true,
      });
      assert.deepEqual(await call('refuse'), {
        content: [{ type: 'text', text: 'This URL is not allowed' }],
        isError: true,
        structuredContent: { url: 'x' },
      });
    } finally {
      await close();
    }
  });
});

describe('FastMCP with mcp-envelope/fastmcp', () => {
  const logged = [];
  let session;

  before(async () => {
    const server = newServer();
    const options = { logger: (failure) => logged.push(failure) };
    const echo = async (args) => JSON.stringify(args);
    for (const name of ['zod', 'valibot', 'arktype']) {
      addTool(server, { name, parameters: placeOrder[name], execute: echo }, { ...options, action: 'place_order' });
    }
    addTool(server, { name: 'trims', parameters: z.object({ name: z.string().trim() }), execute: echo });
    addTool(
      server,
      { name: 'returns_builder', execute: async () => error('NOT_FOUND', 'No invoice inv_2').suggest('List invoices first') },
      options,
    );
    addTool(
      server,
      {
        name: 'throws_builder',
        execute: async () => {
          throw error('RATE_LIMITED', 'Too many lookups').retryAfter(30);
        },
      },
      options,
    );
    addTool(
      server,
      {
        name: 'throws_secret',
        execute: async () => {
          throw new TypeError(`connect ECONNREFUSED ${SECRET}`);
        },
      },
      options,
    );
    addTool(
      server,
      { name: 'proxies_envelope', execute: async () => throwIfError(toolError('CONFLICT', { message: 'Order changed' })) },
      options,
    );
    addTool(
      server,
      {
        name: 'user_error',
        execute: async () => {
          throw new UserError('This URL is not allowed', { url: 'x' });
        },
      },
      options,
    );
    class Archived extends UserError {}
    addTool(
      server,
      {
        name: 'user_subclass',
        execute: async () => {
          throw new Archived('That invoice was archived.');
        },
      },
      options,
    );
    addTool(
      server,
      {
        name: 'user_envelope',
        execute: async () => {
          throw new UserError(String(error('FORBIDDEN', 'Not your invoice')));
        },
      },
      options,
    );
    // A tool FastMCP takes as it is, beside the wrapped ones.
    server.addTool({ name: 'unwrapped', parameters: z.object({ n: z.number() }), execute: async () => 'ok' });
    session = await connected(server);
  });

  after(() => session.close());

  test('clients list the schema FastMCP lists for the original, byte for byte', async () => {
    const bare = newServer();
    for (const name of ['zod', 'valibot', 'arktype']) bare.addTool({ name, parameters: placeOrder[name], execute: async () => '' });
    const bareSession = await connected(bare, { wrap: false });
    const listed = Object.fromEntries((await session.client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema]));
    const bareTools = (await bareSession.client.listTools()).tools;
    assert.equal(bareTools.length, 3);
    for (const tool of bareTools) assert.deepEqual(listed[tool.name], tool.inputSchema, tool.name);
    await bareSession.close();
  });

  test('bad arguments are the <validation_error> every language gives, where FastMCP alone throws -32602', async () => {
    for (const name of ['zod', 'valibot']) {
      assert.deepEqual(await session.call(name, badOrder), { content: [{ type: 'text', text: EQUAL_SCHEMAS_XML }], isError: true }, name);
    }
    const [head, email, quantity, count, size, ...tail] = EQUAL_SCHEMAS_XML.split('\n');
    assert.equal(
      (await session.call('arktype', badOrder)).content[0].text,
      [head, count, email, quantity, size.replace("'S', 'M', 'L'", "'L', 'M', 'S'"), ...tail].join('\n'),
    );
  });

  test('good arguments reach execute as the schema parses them', async () => {
    const order = { email: 'a@example.com', quantity: 2, count: 1, size: 'M' };
    for (const name of ['zod', 'valibot', 'arktype']) {
      assert.deepEqual(await session.call(name, order), { content: [{ type: 'text', text: JSON.stringify(order) }] }, name);
    }
    assert.deepEqual(await session.call('trims', { name: '  Jo ' }), { content: [{ type: 'text', text: '{"name":"Jo"}' }] });
  });

  test('a builder returned or thrown is its own result; a thrown EnvelopeError passes its text', async () => {
    assert.deepEqual(await session.call('returns_builder'), error('NOT_FOUND', 'No invoice inv_2').suggest('List invoices first').build());
    assert.deepEqual(await session.call('throws_builder'), error('RATE_LIMITED', 'Too many lookups').retryAfter(30).build());
    assert.deepEqual(await session.call('proxies_envelope'), toolError('CONFLICT', { message: 'Order changed' }));
  });

  test('a UserError is a TOOL_ERROR envelope stating its message, its extras kept; one whose message is an envelope is sent as it is', async () => {
    assert.deepEqual(await session.call('user_error'), {
      content: [
        {
          type: 'text',
          text: ['<tool_error code="TOOL_ERROR" severity="error">', '  <message>This URL is not allowed</message>', '</tool_error>'].join(
            '\n',
          ),
        },
      ],
      isError: true,
      structuredContent: { url: 'x' },
    });
    assert.deepEqual(await session.call('user_error'), {
      ...toolError('TOOL_ERROR', { message: 'This URL is not allowed' }),
      structuredContent: { url: 'x' },
    });
    assert.deepEqual(await session.call('user_envelope'), error('FORBIDDEN', 'Not your invoice').build());
    assert.deepEqual(await session.call('user_subclass'), toolError('TOOL_ERROR', { message: 'That invoice was archived.' }));
  });

  test('an exception is INTERNAL_ERROR under a fresh correlation id; its text goes to the logger only', async () => {
    logged.length = 0;
    const result = await session.call('throws_secret');
    const { correlationId } = parseEnvelope(result).error;
    assert.deepEqual(result, exceptionResult({ tool: 'throws_secret', exception: '', correlationId }).result);
    assert.ok(!JSON.stringify(result).includes('hunter2'));
    assert.deepEqual(
      logged.map((f) => [f.correlationId, f.tool, f.error.message]),
      [[correlationId, 'throws_secret', `connect ECONNREFUSED ${SECRET}`]],
    );
  });

  test("envelopeTransport: an unknown tool is the core's -32602 naming the listed tools; an error about a listed tool passes", async () => {
    const { error: expected } = unknownTool({
      tool: 'refund_orders',
      tools: [
        'zod',
        'valibot',
        'arktype',
        'trims',
        'returns_builder',
        'throws_builder',
        'throws_secret',
        'proxies_envelope',
        'user_error',
        'user_subclass',
        'user_envelope',
        'unwrapped',
      ],
    });
    await assert.rejects(
      session.call('refund_orders', { amount_cents: 300 }),
      (e) => e.code === -32602 && e.message === `MCP error -32602: ${expected.message}` && isDeepStrictEqual(e.data, expected.data),
    );
    // A tool not added through addTool keeps FastMCP's own check and answer.
    await assert.rejects(session.call('unwrapped', { n: 'x' }), (e) => e.code === -32602);
  });
});

describe('FastMCP: one channel for every outcome', () => {
  test('every helper result a tool returns reaches the client as itself', async () => {
    const server = newServer();
    for (const [name, make] of Object.entries(RESULTS))
      addTool(server, { name, parameters: z.object({ n: z.number().optional() }), execute: async () => make() });
    const { call, close } = await connected(server);
    const errors = [];
    for (const [name, make] of Object.entries(RESULTS)) {
      const result = await call(name);
      assert.deepEqual(result, plain(make()), name);
      errors.push(result.isError);
    }
    assert.deepEqual(errors, RESULTS_IS_ERROR);
    await close();
  });

  test('the unknown tool names what tools/list lists then: the list follows addTool and removeTool', async () => {
    const server = newServer();
    for (const name of ['list_invoices', 'get_invoice', 'refund_order']) addTool(server, { name, execute: async () => 'ok' });
    const { call, close } = await connected(server);
    await assert.rejects(call('refund_orders'), { code: -32602, message: `MCP error -32602: ${UNKNOWN_MESSAGE}` });
    server.removeTool('refund_order');
    await assert.rejects(call('refund_order'), {
      code: -32602,
      message: "MCP error -32602: Unknown tool: refund_order. This server's tools: list_invoices, get_invoice.",
    });
    addTool(server, { name: 'refund_order', execute: async () => 'refunded' });
    assert.deepEqual(await call('refund_order'), { content: [{ type: 'text', text: 'refunded' }] });
    await close();
  });

  test('a repeat ledger: the same failure again is "nothing has changed", then "stop"; a returned string ends the streak', async () => {
    const server = newServer();
    const notFound = (id) => error('NOT_FOUND', `No invoice ${id}`).actions('list_invoices');
    addTool(
      server,
      {
        name: 'get_invoice',
        parameters: z.object({ id: z.string() }),
        execute: async ({ id }) => (id === 'ok' ? 'invoice ok' : notFound(id)),
      },
      { ledger: new Ledger() },
    );
    const { call, close } = await connected(server);
    const get = async (id) => parseEnvelope(await call('get_invoice', { id }));
    await assertLedgerStreak(get);
    await close();
  });

  test("envelopeFastMCP's ledger function reads the conversation from the request's _meta", async () => {
    const ledgers = new Map();
    const seen = [];
    const server = envelopeFastMCP(newServer(), {
      ledger: (request) => {
        seen.push(request);
        if (request.conversation === undefined) return undefined;
        if (!ledgers.has(request.conversation)) ledgers.set(request.conversation, new Ledger());
        return ledgers.get(request.conversation);
      },
    });
    server.addTool({
      name: 'get_invoice',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }) => error('NOT_FOUND', `No invoice ${id}`),
    });
    const { client, close } = await connected(server, { wrap: false });
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
    assert.equal(typeof seen[0].context.reportProgress, 'function'); // FastMCP's own context
    assert.deepEqual([...ledgers.keys()], ['a', 'b']);
    await close();
  });

  test("envelopeTransport with unknownTool: 'tool-result': the UNKNOWN_ACTION result, in its format", async () => {
    const server = newServer();
    addTool(server, { name: 'list_invoices', execute: async () => 'ok' });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const [fastSession] = await Promise.all([
      server.connect(envelopeTransport(serverTransport, { format: 'text', unknownTool: 'tool-result' })),
      client.connect(clientTransport),
    ]);
    assert.deepEqual(
      await client.callTool({ name: 'get_invoice', arguments: {} }),
      unknownTool({ tool: 'get_invoice', tools: ['list_invoices'], format: 'text', answer: 'tool-result' }).result,
    );
    await client.close();
    await fastSession.close();
  });
});

// envelopeFastMCP: one call, right after new FastMCP(...), and the tools
// added as FastMCP's own documentation adds them, over the in-memory pair
// (server.connect) and over Streamable HTTP from server.start, where no host
// can reach the transport.
describe('envelopeFastMCP: one call', () => {
  /** The same tools, added with FastMCP's own addTool and addTools. */
  const addTools = (server, logged) => {
    server.addTool({
      name: 'crash',
      description: 'Always fails',
      execute: async () => {
        throw new TypeError(`connect ECONNREFUSED ${SECRET}`);
      },
    });
    server.addTool({
      name: 'place_order',
      description: 'Places an order',
      parameters: placeOrder.zod,
      execute: async ({ quantity }) => `ordered ${quantity}`,
    });
    server.addTools([
      { name: 'refuse', execute: async () => toolError('NOT_FOUND', { message: 'No invoice inv_9' }) },
      {
        name: 'limited',
        execute: async () => {
          throw error('RATE_LIMITED', 'Too many lookups').retryAfter(30);
        },
      },
      {
        name: 'user_error',
        execute: async () => {
          throw new UserError('This URL is not allowed', { url: 'x' });
        },
      },
    ]);
    return logged;
  };
  const NAMES = ['crash', 'place_order', 'refuse', 'limited', 'user_error'];

  /** The answers of a server's session: each failure, and the list. */
  async function assertAnswers(call, _client, logged, unknownAnswer) {
    const crash = await call('crash');
    const { correlationId } = parseEnvelope(crash).error;
    assert.deepEqual(crash, exceptionResult({ tool: 'crash', exception: '', correlationId }).result);
    assert.deepEqual(
      logged.map((f) => [f.correlationId, f.tool, f.error.message]),
      [[correlationId, 'crash', `connect ECONNREFUSED ${SECRET}`]],
    );
    assert.deepEqual(await call('place_order', badOrder), { content: [{ type: 'text', text: EQUAL_SCHEMAS_XML }], isError: true });
    assert.deepEqual(await call('place_order', { email: 'a@example.com', quantity: 2, count: 1, size: 'M' }), {
      content: [{ type: 'text', text: 'ordered 2' }],
    });
    assert.deepEqual(await call('refuse'), toolError('NOT_FOUND', { message: 'No invoice inv_9' }));
    assert.deepEqual(await call('limited'), error('RATE_LIMITED', 'Too many lookups').retryAfter(30).build());
    assert.deepEqual(await call('user_error'), { ...userError({ message: 'This URL is not allowed' }), structuredContent: { url: 'x' } });
    if (unknownAnswer === 'tool-result') {
      assert.deepEqual(await call('refund_orders'), unknownTool({ tool: 'refund_orders', tools: NAMES, answer: 'tool-result' }).result);
    } else {
      const { error: expected } = unknownTool({ tool: 'refund_orders', tools: NAMES });
      assert.equal(expected.message, "Unknown tool: refund_orders. This server's tools: crash, place_order, refuse, limited, user_error.");
      await assert.rejects(
        call('refund_orders'),
        (e) => e.code === -32602 && e.message === `MCP error -32602: ${expected.message}` && isDeepStrictEqual(e.data, expected.data),
      );
    }
  }

  for (const unknownAnswer of [undefined, 'tool-result']) {
    test(`over server.connect, unknownTool ${unknownAnswer ?? 'by default'}: every failure is an envelope; tools/list is FastMCP's own`, async () => {
      const logged = [];
      const server = envelopeFastMCP(newServer(), {
        logger: (f) => logged.push(f),
        ...(unknownAnswer ? { unknownTool: unknownAnswer } : {}),
      });
      addTools(server, logged);
      const session = await connected(server, { wrap: false });
      const bare = newServer();
      addTools(bare, []);
      const bareSession = await connected(bare, { wrap: false });
      try {
        assert.equal(JSON.stringify(await session.client.listTools()), JSON.stringify(await bareSession.client.listTools()));
        await assertAnswers(session.call, session.client, logged, unknownAnswer);
      } finally {
        await session.close();
        await bareSession.close();
      }
    });
  }

  test('over Streamable HTTP from server.start: the sessions FastMCP makes itself answer the same', async () => {
    const logged = [];
    const server = envelopeFastMCP(new FastMCP({ name: 'billing', version: '1.0.0' }), { logger: (f) => logged.push(f) });
    addTools(server, logged);
    const port = 41000 + Math.floor(Math.random() * 2000);
    await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1' } });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      await assertAnswers((name, args = {}) => client.callTool({ name, arguments: args }), client, logged);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  test('parameters FastMCP converts itself (a plain Valibot schema): FastMCP checks the arguments, the outcome is still an envelope', async () => {
    const server = envelopeFastMCP(newServer(), { logger: () => {} });
    server.addTool({
      name: 'count',
      parameters: v.object({ n: v.number() }),
      execute: async ({ n }) => {
        if (n > 1) throw new TypeError(SECRET);
        return toolError('NOT_FOUND', { message: `No item ${n}` });
      },
    });
    const bare = newServer();
    bare.addTool({ name: 'count', parameters: v.object({ n: v.number() }), execute: async () => '' });
    const session = await connected(server, { wrap: false });
    const bareSession = await connected(bare, { wrap: false });
    try {
      assert.equal(JSON.stringify(await session.client.listTools()), JSON.stringify(await bareSession.client.listTools()));
      assert.deepEqual(await session.call('count', { n: 1 }), toolError('NOT_FOUND', { message: 'No item 1' }));
      assert.equal(parseEnvelope(await session.call('count', { n: 2 })).code, 'INTERNAL_ERROR');
      await assert.rejects(session.call('count', { n: 'x' }), (e) => e.code === -32602 && /parameter validation failed/.test(e.message));
    } finally {
      await session.close();
      await bareSession.close();
    }
  });

  test('a second call and a server that is not FastMCP are refused', () => {
    const server = envelopeFastMCP(newServer());
    assert.throws(() => envelopeFastMCP(server), {
      name: 'TypeError',
      message: 'envelopeFastMCP(server) was already called on this server: pass every option in that one call',
    });
    assert.throws(() => envelopeFastMCP({ addTool() {} }), { name: 'TypeError' });
    assert.throws(() => envelopeFastMCP(newServer(), { unknownTool: 'isError' }), { name: 'TypeError' });
  });
});

describe('tool registration', () => {
  test('parameters without a JSON Schema, a bad format, locale or ledger are refused when the tool is added', () => {
    const execute = async () => 'ok';
    assert.throws(() => envelopeTool({ name: 'a', parameters: v.object({ n: v.number() }), execute }), {
      name: 'TypeError',
      message:
        "tool 'a': parameters must be a Standard Schema that gives its JSON Schema (~standard.jsonSchema): " +
        'Zod 4.2 or later, ArkType, or Valibot through toStandardJsonSchema from @valibot/to-json-schema',
    });
    assert.throws(() => envelopeTool({ name: 'b', execute }, { locale: 'pt_BR' }), {
      name: 'TypeError',
      message: 'locale: unknown variant `pt_BR`, expected `en` or `pt-BR`',
    });
    assert.throws(() => envelopeTool({ name: 'c', execute }, { format: 'yaml' }), {
      name: 'TypeError',
      message: 'format must be "xml", "json" or "text", not "yaml"',
    });
    assert.throws(() => envelopeTool({ name: 'd', execute }, { ledger: {} }), {
      name: 'TypeError',
      message:
        'options.ledger must be a Ledger (new Ledger() from mcp-envelope, one per server session), a SharedLedger, ' +
        "or a function of the call's request returning the ledger of its conversation",
    });
    assert.throws(() => envelopeTransport(InMemoryTransport.createLinkedPair()[0], { format: 'yaml' }), { name: 'TypeError' });
  });
});
