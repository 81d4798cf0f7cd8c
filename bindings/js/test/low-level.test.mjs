// envelopeServer on servers built as many published ones are (the official
// GitHub server among them): on the SDK's low-level `Server`, with a
// `tools/list` and a `tools/call` handler of the author's own, on SDK 1.0.1
// (what those servers pin), 1.x as installed and 2.x. Each server, connected
// to its SDK's own Client in-process, must answer an unknown tool, arguments
// its listed schemas refuse and whatever its handler throws with exactly the
// core's bytes, and send its successes, its own error results and its tool
// list exactly as the same server without envelopeServer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemory1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as Server1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema as CallTool1,
  ListToolsRequestSchema as ListTools1,
  McpError as McpError1,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemory2, McpServer as McpServer2, ProtocolError, Server as Server2 } from '@modelcontextprotocol/server';
import { Client as Client101 } from 'sdk-1.0.1/client/index.js';
import { InMemoryTransport as InMemory101 } from 'sdk-1.0.1/inMemory.js';
import { Server as Server101 } from 'sdk-1.0.1/server/index.js';
import { CallToolRequestSchema as CallTool101, ListToolsRequestSchema as ListTools101, McpError as McpError101 } from 'sdk-1.0.1/types.js';
import * as z from 'zod';
import { unknownTool } from 'mcp-envelope/server';
import { envelopeServer } from 'mcp-envelope/mcp';
import { badOrder, EQUAL_SCHEMAS_XML, placeOrder } from './fixtures.mjs';

/** Each SDK: its classes, and how a handler is set (1.x by the request's schema, 2.x by the method's name). */
const SDKS = {
  '1.0.1': {
    Server: Server101,
    Client: Client101,
    InMemoryTransport: InMemory101,
    McpError: McpError101,
    handle: (server, method, handler) => server.setRequestHandler(method === 'tools/call' ? CallTool101 : ListTools101, handler),
  },
  '1.x': {
    Server: Server1,
    Client: Client1,
    InMemoryTransport: InMemory1,
    McpError: McpError1,
    handle: (server, method, handler) => server.setRequestHandler(method === 'tools/call' ? CallTool1 : ListTools1, handler),
  },
  '2.x': {
    Server: Server2,
    Client: Client2,
    InMemoryTransport: InMemory2,
    McpError: ProtocolError,
    handle: (server, method, handler) => server.setRequestHandler(method, handler),
  },
};

/** A loopback port nothing listens on: one the system gave, then closed. */
async function closedPort() {
  const probe = createNetServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The tools every server lists: `get_issue` as zod-to-json-schema writes it (draft-07), the rest without `$schema` (2020-12). */
const TOOLS = [
  {
    name: 'get_issue',
    description: 'Gets an issue',
    inputSchema: {
      type: 'object',
      properties: { owner: { type: 'string' }, repo: { type: 'string' }, issue_number: { type: 'number' } },
      required: ['owner', 'repo', 'issue_number'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    name: 'create_issue',
    description: 'Fails as its author words it',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
  },
  { name: 'search_code', description: 'Its upstream is down', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'merge_pull_request', description: 'Raises a JSON-RPC error', inputSchema: { type: 'object', properties: {} } },
  { name: 'list_commits', description: 'Returns its own error result', inputSchema: { type: 'object', properties: {} } },
  { name: 'place_order', description: 'Places an order', inputSchema: z.toJSONSchema(placeOrder.zod) },
  // A `$ref` to nowhere: ajv cannot compile it, so the handler judges the arguments.
  {
    name: 'broken_schema',
    description: 'Lists a schema ajv refuses',
    inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
  },
];
const NAMES = TOOLS.map((tool) => tool.name);

/** The author's handlers, as a low-level server writes them: a switch on the name, its own errors thrown. */
function handlers(sdk, port) {
  const { McpError } = SDKS[sdk];
  return {
    'tools/list': async () => ({ tools: structuredClone(TOOLS) }),
    'tools/call': async (request) => {
      const { name, arguments: args } = request.params;
      switch (name) {
        case 'get_issue':
        case 'place_order':
        case 'broken_schema':
          return { content: [{ type: 'text', text: `${name} ${JSON.stringify(args)}` }] };
        case 'create_issue':
          throw new Error("Repository 'octo/hello' not found");
        case 'search_code':
          await fetch(`http://127.0.0.1:${port}/search/code?q=${encodeURIComponent(args.q)}`);
          return { content: [{ type: 'text', text: 'found' }] };
        case 'merge_pull_request':
          throw new McpError(-32602, 'Pull request 7 is not open');
        case 'list_commits':
          return { isError: true, content: [{ type: 'text', text: 'GitHub API rate limit exceeded' }] };
        default:
          throw new Error(`Unknown tool: ${name}`);
      }
    },
  };
}

/** A server of `sdk` with the handlers, envelopeServer called `before` or `after` they are set, or `never`. */
function build(sdk, port, { order = 'before', options = { logger: () => {} }, without = [] } = {}) {
  const { Server, handle } = SDKS[sdk];
  const server = new Server({ name: 'github', version: '1.0.0' }, { capabilities: { tools: {} } });
  if (order === 'before') envelopeServer(server, options);
  for (const [method, handler] of Object.entries(handlers(sdk, port))) if (!without.includes(method)) handle(server, method, handler);
  if (order === 'after') envelopeServer(server, options);
  return server;
}

/** A client of `server` over the SDK's in-memory pair. */
async function connect(sdk, server) {
  const { Client, InMemoryTransport } = SDKS[sdk];
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: {} });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** What a call answers: the result, or the JSON-RPC error as the client holds it. */
async function answer(client, name, args) {
  try {
    return { result: await client.callTool({ name, arguments: args }) };
  } catch (error) {
    return { error: { code: error.code, message: error.message, data: error.data } };
  }
}

/** The result's text, its fresh correlation id written as `err_ID`. */
const textOf = (result) =>
  result.content
    .map((c) => c.text)
    .join('\n')
    .replace(/err_[0-9a-f]{12}/g, 'err_ID');

/** The calls every server gets, with a name each. */
const CALLS = {
  'an unknown tool': ['nope', {}],
  'a wrong argument type': ['get_issue', { owner: 'octo', repo: 'hello', issue_number: 'seven' }],
  'a missing required field': ['get_issue', { owner: 'octo', repo: 'hello' }],
  'a thrown Error': ['create_issue', { title: 'Bug' }],
  'a thrown McpError': ['merge_pull_request', {}],
  'a fetch that failed': ['search_code', { q: 'envelope' }],
  'a success': ['get_issue', { owner: 'octo', repo: 'hello', issue_number: 7 }],
  'an error result': ['list_commits', {}],
  'the arguments of the shared bad order': ['place_order', badOrder],
  'arguments for a schema ajv cannot compile': ['broken_schema', { a: 1 }],
};

const UNKNOWN =
  "Unknown tool: nope. This server's tools: get_issue, create_issue, search_code, merge_pull_request, list_commits, place_order, broken_schema.";

/** A `<validation_error>` of get_issue naming issue_number. */
const ISSUE_NUMBER = (line) =>
  [
    '<validation_error action="get_issue">',
    `  <field name="issue_number">${line}</field>`,
    '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
    '</validation_error>',
  ].join('\n');

/** What the model reads for each failure, as the core words it (an error's message is checked per SDK). */
const EXPECTED = {
  'a wrong argument type': ISSUE_NUMBER("Wrong type. You sent: 'seven'. Expected a number."),
  'a missing required field': ISSUE_NUMBER('Missing required field. You sent: nothing. Expected a number.'),
  'a thrown Error': `<tool_error code="TOOL_ERROR" severity="error">
  <message>Repository 'octo/hello' not found</message>
</tool_error>`,
  'a thrown McpError': `<tool_error code="VALIDATION_ERROR" severity="error">
  <message>Pull request 7 is not open</message>
  <recovery>Fix the arguments named above and call the tool again.</recovery>
</tool_error>`,
  'a fetch that failed': `<tool_error code="UPSTREAM_UNAVAILABLE" severity="error">
  <message>A service this tool depends on could not be reached.</message>
  <recovery>Wait, then make the same call once more; if it fails again, tell the user the service is unavailable.</recovery>
  <category>transient</category>
  <retryable>true</retryable>
  <customer_message>A service we depend on is unavailable right now. Please try again later.</customer_message>
  <correlation_id>err_ID</correlation_id>
</tool_error>`,
  'the arguments of the shared bad order': EQUAL_SCHEMAS_XML,
};

for (const sdk of Object.keys(SDKS)) {
  describe(`SDK ${sdk}: a low-level Server with envelopeServer`, () => {
    let port;
    let plain;
    let wrapped;
    const logged = [];

    before(async () => {
      port = await closedPort();
      plain = await connect(sdk, build(sdk, port, { order: 'never' }));
      wrapped = await connect(sdk, build(sdk, port, { options: { logger: (failure) => logged.push(failure) } }));
    });
    after(async () => {
      await plain.close();
      await wrapped.close();
    });

    test('tools/list is what the server lists without it', async () => {
      assert.deepEqual(await wrapped.listTools(), await plain.listTools());
      assert.deepEqual(
        (await wrapped.listTools()).tools.map((tool) => tool.name),
        NAMES,
      );
    });

    test('an unknown tool is the JSON-RPC error -32602 naming the listed tools, the UNKNOWN_ACTION envelope in its data', async () => {
      const { error } = await answer(wrapped, ...CALLS['an unknown tool']);
      // SDK 1.x's client prefixes the message with its code; SDK 1.0.1's server sends no `data`.
      assert.equal(error.code, -32602);
      assert.equal(error.message, sdk === '2.x' ? UNKNOWN : `MCP error -32602: ${UNKNOWN}`);
      assert.deepEqual(error.data, sdk === '1.0.1' ? undefined : unknownTool({ tool: 'nope', tools: NAMES }).error.data);
    });

    for (const [what, expected] of Object.entries(EXPECTED)) {
      test(`${what} is answered as the core words it`, async () => {
        const { result, error } = await answer(wrapped, ...CALLS[what]);
        assert.equal(error, undefined);
        assert.equal(result.isError, true);
        assert.equal(textOf(result), expected);
      });
    }

    test("a fetch that failed: its text, which names the upstream, goes to the logger under the envelope's correlation id", async () => {
      logged.length = 0;
      const { result } = await answer(wrapped, ...CALLS['a fetch that failed']);
      assert.equal(logged.length, 1);
      assert.equal(result.content[0].text.match(/err_[0-9a-f]{12}/)[0], logged[0].correlationId);
      assert.match(
        logged[0].log,
        /^code=UPSTREAM_UNAVAILABLE correlationId="err_[0-9a-f]{12}" tool="search_code" exception="TypeError: fetch failed/,
      );
    });

    for (const what of ['a success', 'an error result', 'arguments for a schema ajv cannot compile']) {
      test(`${what} is sent as the handler returned it`, async () => {
        assert.deepEqual(await answer(wrapped, ...CALLS[what]), await answer(plain, ...CALLS[what]));
      });
    }

    test('envelopeServer before or after the handlers are set: the same answers', async () => {
      const later = await connect(sdk, build(sdk, port, { order: 'after' }));
      try {
        for (const [name, args] of Object.values(CALLS)) {
          const [first, second] = [await answer(wrapped, name, args), await answer(later, name, args)];
          if (first.result !== undefined) {
            assert.equal(textOf(second.result), textOf(first.result), name);
            assert.equal(second.result.isError, first.result.isError, name);
          } else assert.deepEqual(second, first, name);
        }
      } finally {
        await later.close();
      }
    });

    test("unknownTool: 'tool-result' answers an unknown tool with the UNKNOWN_ACTION result", async () => {
      const client = await connect(sdk, build(sdk, port, { options: { unknownTool: 'tool-result' } }));
      try {
        const { result } = await answer(client, ...CALLS['an unknown tool']);
        assert.deepEqual(result, unknownTool({ tool: 'nope', tools: NAMES, answer: 'tool-result' }).result);
      } finally {
        await client.close();
      }
    });

    test("thrownMessages: 'hidden' makes a thrown Error and an McpError INTERNAL_ERROR, their text in the log only", async () => {
      const hidden = [];
      const client = await connect(sdk, build(sdk, port, { options: { thrownMessages: 'hidden', logger: (f) => hidden.push(f) } }));
      try {
        for (const [name, args] of [CALLS['a thrown Error'], CALLS['a thrown McpError']]) {
          const { result } = await answer(client, name, args);
          assert.equal(
            textOf(result),
            `<tool_error code="INTERNAL_ERROR" severity="error">
  <message>${name} failed with an internal error.</message>
  <recovery>Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.</recovery>
  <customer_message>Something went wrong on our side. It was recorded under the reference err_ID.</customer_message>
  <correlation_id>err_ID</correlation_id>
</tool_error>`,
          );
        }
        assert.deepEqual(
          hidden.map((f) => f.tool),
          ['create_issue', 'merge_pull_request'],
        );
      } finally {
        await client.close();
      }
    });

    test('without a tools/list handler every call goes to the handler: its unknown-tool Error is a TOOL_ERROR', async () => {
      const client = await connect(sdk, build(sdk, port, { without: ['tools/list'] }));
      try {
        const { result } = await answer(client, 'nope', {});
        assert.equal(
          textOf(result),
          '<tool_error code="TOOL_ERROR" severity="error">\n  <message>Unknown tool: nope</message>\n</tool_error>',
        );
      } finally {
        await client.close();
      }
    });

    test('envelopeServer twice on one server is refused', () => {
      const server = build(sdk, port);
      assert.throws(() => envelopeServer(server), {
        name: 'TypeError',
        message: 'envelopeServer(server) was already called on this server: pass every option in that one call',
      });
    });
  });
}

describe('a thrown McpError in an McpServer tool: the same rule', () => {
  for (const [sdk, McpServer, McpError] of [
    ['1.x', McpServer1, McpError1],
    ['2.x', McpServer2, ProtocolError],
  ]) {
    test(`SDK ${sdk}: -32602 is a VALIDATION_ERROR stating its words, -32601 an UNKNOWN_ACTION`, async () => {
      const server = envelopeServer(new McpServer({ name: 'github', version: '1.0.0' }));
      server.registerTool('merge_pull_request', { description: 'Raises a JSON-RPC error' }, async () => {
        throw new McpError(-32602, 'Pull request 7 is not open');
      });
      server.registerTool('run_workflow', { description: 'Raises a JSON-RPC error' }, async () => {
        throw new McpError(-32601, 'No workflow named deploy');
      });
      const client = await connect(sdk, server);
      try {
        assert.equal(textOf((await answer(client, 'merge_pull_request', {})).result), EXPECTED['a thrown McpError']);
        assert.equal(
          textOf((await answer(client, 'run_workflow', {})).result),
          `<tool_error code="UNKNOWN_ACTION" severity="error">
  <message>No workflow named deploy</message>
  <recovery>Call the tool again with one of the available actions.</recovery>
</tool_error>`,
        );
      } finally {
        await client.close();
      }
    });
  }
});

test('mcp-envelope/mcp loads no ajv until a low-level server checks arguments', () => {
  // In a process of its own, on SDK 1.0.1, which has no ajv: the newer SDKs this file imports load ajv themselves.
  const script = `
    import { createRequire } from 'node:module';
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/ajv/'));
    const { envelopeServer } = await import('mcp-envelope/mcp');
    const { Client } = await import('sdk-1.0.1/client/index.js');
    const { InMemoryTransport } = await import('sdk-1.0.1/inMemory.js');
    const { Server } = await import('sdk-1.0.1/server/index.js');
    const { CallToolRequestSchema, ListToolsRequestSchema } = await import('sdk-1.0.1/types.js');
    const atLoad = loaded();
    const server = envelopeServer(new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } }));
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }));
    const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    const atConnect = loaded();
    await client.callTool({ name: 't', arguments: {} });
    console.log(JSON.stringify([atLoad, atConnect, loaded()]));
    await client.close();
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(output), [false, false, true]);
});
