// envelopeServer on every way an McpServer is built, on SDK 1.x
// (@modelcontextprotocol/sdk) and 2.x (@modelcontextprotocol/server): with
// and without declared capabilities (which make the SDK install its tools
// handlers in the constructor), envelopeServer called before or after the
// tools are registered, and tools registered with the SDK's registerTool,
// its tool (1.x) and this package's registerTool. Each server, connected to
// the SDK's own Client in-process, must answer an exception, bad arguments,
// a returned and a thrown envelope and an unknown tool (under both answers)
// with exactly the core's bytes, and list its tools exactly as the same
// server built without envelopeServer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemory1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError as UrlElicitation1 } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import {
  createMcpHandler,
  InMemoryTransport as InMemory2,
  McpServer as McpServer2,
  UrlElicitationRequiredError as UrlElicitation2,
} from '@modelcontextprotocol/server';
import { error, parseEnvelope, toolError } from 'mcp-envelope';
import { exceptionResult, unknownTool } from 'mcp-envelope/server';
import { envelopeServer, registerTool, withEnvelope } from 'mcp-envelope/mcp';
import { badOrder, EQUAL_SCHEMAS_XML, placeOrder } from './fixtures.mjs';

const SECRET = 'hunter2-db-password@10.0.0.7:/var/lib/billing';

const SDKS = {
  '1.x': { McpServer: McpServer1, Client: Client1, InMemoryTransport: InMemory1, UrlElicitation: UrlElicitation1 },
  '2.x': { McpServer: McpServer2, Client: Client2, InMemoryTransport: InMemory2, UrlElicitation: UrlElicitation2 },
};

/** How a tool is registered: the SDK's two ways and this package's, each given the same tool. */
const STYLES = {
  'server.registerTool': (server, name, config, callback) => server.registerTool(name, config, callback),
  // SDK 1.x's deprecated form, which 2.x removed: a raw shape, or no schema at all.
  'server.tool': (server, name, config, callback) =>
    config.inputSchema === undefined
      ? server.tool(name, config.description, callback)
      : server.tool(name, config.description, config.inputSchema, callback),
  registerTool: (server, name, config, callback, options) => registerTool(server, name, config, callback, options),
};

/** The tools every server has: one of each outcome. */
const TOOLS = [
  [
    'crash',
    { description: 'Always fails' },
    async () => {
      throw new TypeError(`connect ECONNREFUSED ${SECRET}`);
    },
  ],
  [
    'place_order',
    { description: 'Places an order', inputSchema: placeOrder.zod.shape },
    async ({ quantity }) => ({ content: [{ type: 'text', text: `ordered ${quantity}` }] }),
  ],
  ['refuse', { description: 'Returns an envelope' }, async () => toolError('NOT_FOUND', { message: 'No invoice inv_9' })],
  [
    'limited',
    { description: 'Throws a builder' },
    async () => {
      throw error('RATE_LIMITED', 'Too many lookups').retryAfter(30);
    },
  ],
];
const NAMES = TOOLS.map(([name]) => name);

/**
 * A server built one way: `sdk`, `capabilities` declared or not, `order`
 * (envelopeServer `before` or `after` the tools, or `never`), `style`.
 */
function build({ sdk, capabilities, order, style, options = {} }) {
  const { McpServer } = SDKS[sdk];
  const server = new McpServer(
    { name: 'billing', version: '1.0.0' },
    capabilities ? { capabilities: { tools: { listChanged: true } } } : undefined,
  );
  if (order === 'before') envelopeServer(server, options);
  // Without envelopeServer, this package's registerTool's counterpart is the SDK's registerTool.
  const register = order === 'never' && style === 'registerTool' ? STYLES['server.registerTool'] : STYLES[style];
  for (const [name, config, callback] of TOOLS) register(server, name, config, callback, { logger: options.logger });
  if (order === 'after') envelopeServer(server, options);
  return server;
}

/** A Client of `server` over the SDK's in-memory pair, recording every message the server sends it. */
async function connect(sdk, server) {
  const { Client, InMemoryTransport } = SDKS[sdk];
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const received = [];
  const onmessage = clientTransport.onmessage;
  clientTransport.onmessage = (message, extra) => {
    received.push(message);
    onmessage.call(clientTransport, message, extra);
  };
  /** The JSON-RPC response to a tools/call, as it came over the wire. */
  const call = async (name, args = {}) => {
    await client.callTool({ name, arguments: args }).catch(() => undefined);
    const response = received.at(-1);
    return response.error === undefined ? { result: response.result } : { error: response.error };
  };
  return { client, call };
}

const WAYS = [];
for (const sdk of Object.keys(SDKS)) {
  for (const style of Object.keys(STYLES)) {
    if (sdk === '2.x' && style === 'server.tool') continue;
    for (const capabilities of [false, true]) for (const order of ['before', 'after']) WAYS.push({ sdk, style, capabilities, order });
  }
}

describe('envelopeServer on every way a server is built', () => {
  for (const way of WAYS) {
    const title = `SDK ${way.sdk}, ${way.style}, capabilities ${way.capabilities ? 'declared' : 'not declared'}, envelopeServer ${way.order} the tools`;
    test(title, async () => {
      const logged = [];
      const server = build({ ...way, options: { logger: (failure) => logged.push(failure) } });
      const { client, call } = await connect(way.sdk, server);

      // tools/list: the same bytes as the server without envelopeServer.
      const bare = await connect(way.sdk, build({ ...way, order: 'never' }));
      assert.equal(JSON.stringify(await client.listTools()), JSON.stringify(await bare.client.listTools()));
      await bare.client.close();

      // An exception: INTERNAL_ERROR under a fresh correlation id, the text only in the log.
      const crash = await call('crash');
      const { correlationId } = parseEnvelope(crash.result).error;
      assert.deepEqual(crash, { result: exceptionResult({ tool: 'crash', exception: '', correlationId }).result });
      assert.ok(!JSON.stringify(crash).includes('hunter2'));
      assert.deepEqual(
        logged.map((f) => [f.correlationId, f.tool, f.error.message]),
        [[correlationId, 'crash', `connect ECONNREFUSED ${SECRET}`]],
      );

      // Bad arguments: the <validation_error> every language gives; good ones reach the tool.
      assert.deepEqual(await call('place_order', badOrder), {
        result: { content: [{ type: 'text', text: EQUAL_SCHEMAS_XML }], isError: true },
      });
      assert.deepEqual(await call('place_order', { email: 'a@example.com', quantity: 2, count: 1, size: 'M' }), {
        result: { content: [{ type: 'text', text: 'ordered 2' }] },
      });

      // An envelope returned or a builder thrown: itself.
      assert.deepEqual(await call('refuse'), { result: toolError('NOT_FOUND', { message: 'No invoice inv_9' }) });
      assert.deepEqual(await call('limited'), { result: error('RATE_LIMITED', 'Too many lookups').retryAfter(30).build() });

      // An unknown tool: the core's JSON-RPC error, -32602 naming the tools.
      const unknown = await call('refund_orders', { amount_cents: 300 });
      assert.deepEqual(unknown, unknownTool({ tool: 'refund_orders', tools: NAMES }));
      assert.equal(unknown.error.code, -32602);
      assert.equal(unknown.error.message, "Unknown tool: refund_orders. This server's tools: crash, place_order, refuse, limited.");
      assert.equal(unknown.error.data.code, 'UNKNOWN_ACTION');
      assert.deepEqual(unknown.error.data.availableActions, NAMES);
      await client.close();

      // Under unknownTool: 'tool-result', the isError UNKNOWN_ACTION result.
      const asResult = await connect(way.sdk, build({ ...way, options: { unknownTool: 'tool-result', logger: () => {} } }));
      const result = await asResult.call('refund_orders');
      assert.deepEqual(result, unknownTool({ tool: 'refund_orders', tools: NAMES, answer: 'tool-result' }));
      assert.equal(result.result.isError, true);
      assert.match(
        result.result.content[0].text,
        /^<tool_error code="UNKNOWN_ACTION" severity="error">\n {2}<message>No tool named 'refund_orders' on this server.<\/message>/,
      );
      await asResult.client.close();
    });
  }
});

describe('envelopeServer on a server', () => {
  for (const sdk of Object.keys(SDKS)) {
    test(`SDK ${sdk}: a second call is refused; registerTool first, then envelopeServer's options apply`, async () => {
      const { McpServer } = SDKS[sdk];
      const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
      assert.throws(() => envelopeServer(server), {
        name: 'TypeError',
        message: 'envelopeServer(server) was already called on this server: pass every option in that one call',
      });
      const late = new McpServer({ name: 'billing', version: '1.0.0' });
      registerTool(late, 'list_invoices', {}, async () => ({ content: [] }));
      assert.equal(envelopeServer(late, { unknownTool: 'tool-result', format: 'text' }), late);
      const { client, call } = await connect(sdk, late);
      assert.deepEqual(
        await call('get_invoice'),
        unknownTool({ tool: 'get_invoice', tools: ['list_invoices'], format: 'text', answer: 'tool-result' }),
      );
      await client.close();
    });

    test(`SDK ${sdk}: bad options are refused when the server is wrapped`, () => {
      const { McpServer } = SDKS[sdk];
      assert.throws(() => envelopeServer(new McpServer({ name: 'b', version: '1' }), { format: 'yaml' }), {
        name: 'TypeError',
        message: 'format must be "xml", "json" or "text", not "yaml"',
      });
      assert.throws(() => envelopeServer(new McpServer({ name: 'b', version: '1' }), { unknownTool: 'isError' }), { name: 'TypeError' });
      assert.throws(() => envelopeServer({ server: {} }), {
        name: 'TypeError',
        message:
          'envelopeServer(server) takes an McpServer or a low-level Server of @modelcontextprotocol/sdk 1.x or ' +
          '@modelcontextprotocol/server 2.x: this server has no request handler map where those SDKs keep it',
      });
    });

    test(`SDK ${sdk}: a disabled, removed, renamed or updated tool is followed on every call`, async () => {
      const { McpServer } = SDKS[sdk];
      const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }, { capabilities: { tools: {} } }), {
        logger: () => {},
      });
      const refund = server.registerTool('refund_order', {}, async () => ({ content: [{ type: 'text', text: 'refunded' }] }));
      const list = server.registerTool('list_invoices', {}, async () => ({ content: [] }));
      const { client, call } = await connect(sdk, server);
      assert.deepEqual(await call('refund_order'), { result: { content: [{ type: 'text', text: 'refunded' }] } });
      refund.disable();
      assert.deepEqual(await call('refund_order'), unknownTool({ tool: 'refund_order', tools: ['list_invoices'] }));
      refund.enable();
      refund.update({
        callback: async () => {
          throw new TypeError(SECRET);
        },
      });
      assert.equal(parseEnvelope((await call('refund_order')).result).message, 'refund_order failed with an internal error.');
      refund.update({ name: 'refund' });
      assert.equal(parseEnvelope((await call('refund')).result).message, 'refund failed with an internal error.');
      assert.deepEqual(await call('refund_order'), unknownTool({ tool: 'refund_order', tools: ['list_invoices', 'refund'] }));
      list.remove();
      assert.deepEqual(await call('list_invoices'), unknownTool({ tool: 'list_invoices', tools: ['refund'] }));
      await client.close();
    });

    test(`SDK ${sdk}: the SDK's URL elicitation request thrown by a tool stays the SDK's JSON-RPC error`, async () => {
      const { McpServer, UrlElicitation } = SDKS[sdk];
      const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { logger: () => {} });
      const elicitation = { mode: 'url', elicitationId: 'e1', url: 'https://example.com/sign-in', message: 'Sign in first' };
      server.registerTool('connect_bank', {}, async () => {
        throw new UrlElicitation([elicitation]);
      });
      const { client, call } = await connect(sdk, server);
      // As the SDK sends it without envelopeServer: 1.x's McpError puts its code in the message.
      const message = sdk === '1.x' ? 'MCP error -32042: URL elicitation required' : 'URL elicitation required';
      assert.deepEqual(await call('connect_bank'), { error: { code: -32042, message, data: { elicitations: [elicitation] } } });
      await client.close();
    });

    test(`SDK ${sdk}: a callback withEnvelope wrapped keeps its own options`, async () => {
      const { McpServer } = SDKS[sdk];
      const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { logger: () => {} });
      server.registerTool(
        'get_invoice',
        { inputSchema: placeOrder.zod.shape },
        withEnvelope(
          'get_invoice',
          async () => {
            throw new TypeError(SECRET);
          },
          { action: 'billing.get_invoice', locale: 'pt-BR', logger: () => {} },
        ),
      );
      const { client, call } = await connect(sdk, server);
      const failed = parseEnvelope((await call('get_invoice', { email: 'a@example.com', quantity: 1, count: 1, size: 'S' })).result);
      assert.equal(
        failed.error.customerMessage,
        `Algo deu errado do nosso lado. O problema foi registrado com a referência ${failed.error.correlationId}.`,
      );
      assert.equal(
        (await call('get_invoice', badOrder)).result.content[0].text,
        [
          '<validation_error action="billing.get_invoice">',
          '  <field name="email">Formato de email inválido. Você enviou: \'nope\'. Esperado: um endereço de email válido.</field>',
          '  <field name="quantity">Tipo incorreto. Você enviou: \'abc\'. Esperado: um inteiro.</field>',
          '  <field name="count">Campo obrigatório ausente. Você enviou: nada. Esperado: um inteiro.</field>',
          "  <field name=\"size\">Não é um dos valores permitidos. Você enviou: 'XL'. Esperado: um destes: 'S', 'M', 'L'.</field>",
          '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
          '</validation_error>',
        ].join('\n'),
      );
      await client.close();
    });
  }
});

// SDK 2.x serving the 2026-07-28 revision (createMcpHandler, one McpServer
// per request from a factory), where every request carries its protocol
// envelope in _meta and results their resultType: the same answers.
describe('envelopeServer at the 2026-07-28 revision', () => {
  test('SDK 2.x createMcpHandler: an unknown tool, bad arguments and an exception answer as at 2025-11-25', async () => {
    const handler = createMcpHandler(() => {
      const server = envelopeServer(new McpServer2({ name: 'billing', version: '1.0.0' }, { capabilities: { tools: {} } }), {
        logger: () => {},
      });
      for (const [name, config, callback] of TOOLS) server.registerTool(name, config, callback);
      return server;
    });
    const META = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
    };
    const call = async (name, args = {}) => {
      const response = await handler.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': name,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
        }),
      );
      const { result, error: sent } = await response.json();
      return sent === undefined ? { result } : { error: sent };
    };
    const stamped = (result) => ({
      ...result,
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'billing', version: '1.0.0' } },
    });
    assert.deepEqual(await call('refund_orders'), unknownTool({ tool: 'refund_orders', tools: NAMES }));
    assert.deepEqual(await call('place_order', badOrder), {
      result: stamped({ content: [{ type: 'text', text: EQUAL_SCHEMAS_XML }], isError: true }),
    });
    const crash = (await call('crash')).result;
    const { correlationId } = parseEnvelope(crash).error;
    assert.deepEqual(crash, stamped(exceptionResult({ tool: 'crash', exception: '', correlationId }).result));
    assert.deepEqual(await call('refuse'), { result: stamped(toolError('NOT_FOUND', { message: 'No invoice inv_9' })) });
  });
});
