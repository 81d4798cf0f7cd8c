// The MCP SDK integration, end to end: a real McpServer and Client connected
// in-process; tools that return an envelope, throw one, throw a TypeError
// holding a secret, and receive bad arguments.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import * as z3 from 'zod/v3';
import { error, EnvelopeError, parseEnvelope, throwIfError, toolError, validationError } from 'mcp-envelope';
import { exceptionResult, Ledger, MemoryStore, SharedLedger, unknownTool } from 'mcp-envelope/server';
import { envelopeServer, registerTool, withEnvelope } from 'mcp-envelope/mcp';
import { EQUAL_SCHEMAS_XML, LEDGER_STREAK, plain, RESULTS, RESULTS_IS_ERROR, UNKNOWN_MESSAGE, UNKNOWN_XML } from './fixtures.mjs';

const SECRET = 'hunter2-db-password@10.0.0.7:/var/lib/billing';
const logged = [];
let client;
let server;

before(async () => {
  server = new McpServer({ name: 'billing', version: '1.0.0' });
  const options = { logger: (failure) => logged.push(failure) };

  registerTool(
    server,
    'returns_envelope',
    { inputSchema: { id: z.string() } },
    async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}`, availableActions: ['billing.list_invoices'] }),
    options,
  );
  registerTool(
    server,
    'returns_builder',
    { inputSchema: { id: z.string() } },
    async ({ id }) => error('NOT_FOUND', `No invoice ${id}`).suggest('List invoices first'),
    options,
  );
  registerTool(
    server,
    'throws_builder',
    {},
    async () => {
      throw error('RATE_LIMITED', 'Too many lookups').retryAfter(30);
    },
    options,
  );
  // A proxy: the upstream result is read with throwIfError, and the thrown EnvelopeError passes its text on.
  registerTool(
    server,
    'proxies_envelope',
    {},
    async () => throwIfError(toolError('CONFLICT', { message: 'Order changed', correlationId: 'req-5' })),
    options,
  );
  registerTool(
    server,
    'proxies_plain_error',
    {},
    async () =>
      throwIfError({
        content: [
          { type: 'text', text: 'Upstream said no' },
          { type: 'text', text: 'twice' },
        ],
        isError: true,
      }),
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
  registerTool(server, 'throws_zod', {}, async () => z.object({ limit: z.number().max(100) }).parse({ limit: 500 }), options);
  registerTool(
    server,
    'get_invoice',
    {
      description: 'One invoice',
      inputSchema: { id: z.string().uuid(), email: z.string().email(), limit: z.number().int().max(100).optional() },
    },
    async ({ id }) => ({ content: [{ type: 'text', text: `invoice ${id}` }] }),
    options,
  );
  // The plain wrapper on the SDK's own registerTool.
  server.registerTool(
    'plain_wrapped',
    { inputSchema: { n: z.number() } },
    withEnvelope(
      'plain_wrapped',
      async ({ n }) => {
        if (n > 1) throw new TypeError(SECRET);
        return error('X_WARN', 'careful').warning();
      },
      options,
    ),
  );

  // No wrapper at all: the SDK's own catch shows String(thrown), which for a builder is the envelope.
  server.registerTool('bare_throws_builder', {}, async () => {
    throw error('FORBIDDEN', 'Not your invoice');
  });
  server.registerTool('bare_returns_builder', {}, async () => error('NOT_FOUND', 'gone'));

  client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
});

after(async () => {
  await client.close();
  await server.close();
});

const call = (name, args = {}) => client.callTool({ name, arguments: args });

describe('MCP SDK integration', () => {
  test('a returned envelope passes through', async () => {
    const result = await call('returns_envelope', { id: 'inv_1' });
    assert.equal(result.isError, true);
    assert.deepEqual(result, toolError('NOT_FOUND', { message: 'No invoice inv_1', availableActions: ['billing.list_invoices'] }));
    const reading = parseEnvelope(result);
    assert.deepEqual(
      [reading.code, reading.message, reading.error.availableActions],
      ['NOT_FOUND', 'No invoice inv_1', ['billing.list_invoices']],
    );
  });

  test('a returned unbuilt builder is an error result, not a success', async () => {
    const result = await call('returns_builder', { id: 'inv_2' });
    assert.equal(result.isError, true);
    assert.equal(parseEnvelope(result).recovery, 'List invoices first');
  });

  test('a thrown builder becomes its own result', async () => {
    const result = await call('throws_builder');
    assert.equal(result.isError, true);
    assert.deepEqual(
      { code: parseEnvelope(result).code, retryAfter: parseEnvelope(result).error.retryAfter },
      { code: 'RATE_LIMITED', retryAfter: 30 },
    );
  });

  test('a thrown EnvelopeError (a proxied error) passes its text through unchanged', async () => {
    const result = await call('proxies_envelope');
    assert.deepEqual(result, toolError('CONFLICT', { message: 'Order changed', correlationId: 'req-5' }));
    assert.deepEqual(await call('proxies_plain_error'), { content: [{ type: 'text', text: 'Upstream said no\ntwice' }], isError: true });
  });

  test('an exception (a TypeError) becomes INTERNAL_ERROR; its text goes to the logger, never to the model', async () => {
    logged.length = 0;
    const result = await call('throws_secret');
    assert.equal(result.isError, true);
    const envelope = parseEnvelope(result);
    assert.equal(envelope.code, 'INTERNAL_ERROR');
    assert.equal(envelope.message, 'throws_secret failed with an internal error.');
    assert.match(envelope.recovery, /^Do not retry blindly/);
    const { correlationId } = envelope.error;
    // A fresh id from 8 random bytes: err_ and the first 12 hex digits.
    assert.match(correlationId, /^err_[0-9a-f]{12}$/);
    assert.equal(envelope.error.customerMessage, `Something went wrong on our side. It was recorded under the reference ${correlationId}.`);
    // The same bytes as the component's exception result for that id, whatever the exception.
    assert.deepEqual(result, exceptionResult({ tool: 'throws_secret', exception: 'anything', correlationId }).result);
    assert.ok(!JSON.stringify(result).includes('hunter2'), 'the secret reached the result');
    assert.ok(!JSON.stringify(result).includes('10.0.0.7'), 'the host reached the result');
    assert.equal(logged.length, 1);
    const [entry] = logged;
    assert.deepEqual(Object.keys(entry), ['correlationId', 'tool', 'error', 'log']);
    assert.equal(entry.correlationId, correlationId);
    assert.equal(entry.tool, 'throws_secret');
    assert.match(entry.error.message, /hunter2/);
    // The log line holds the stack, one line, quoted as JSON.
    assert.equal(
      entry.log,
      `code=INTERNAL_ERROR correlationId="${correlationId}" tool="throws_secret" exception=${JSON.stringify(entry.error.stack)}`,
    );
    assert.match(entry.error.stack, /^TypeError: connect ECONNREFUSED hunter2/);
  });

  test('every INTERNAL_ERROR gets a fresh correlation id', async () => {
    const first = parseEnvelope(await call('throws_secret')).error.correlationId;
    const second = parseEnvelope(await call('throws_secret')).error.correlationId;
    assert.notEqual(first, second);
  });

  test('bad arguments become a validation_error naming each field with the value sent', async () => {
    const result = await call('get_invoice', { id: 'not-a-uuid', email: 'nope', limit: 500, extra: true });
    assert.equal(result.isError, true);
    const text = result.content[0].text;
    assert.match(text, /^<validation_error action="get_invoice">/);
    assert.ok(text.includes("'not-a-uuid'") && text.includes("'nope'") && text.includes('500'), text);
    const parsed = parseEnvelope(result);
    assert.equal(parsed.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      parsed.validation.fields.map((f) => f.name),
      ['id', 'email', 'limit'],
    );
    assert.throws(
      () => throwIfError(result),
      (e) => e instanceof EnvelopeError && e.code === 'VALIDATION_ERROR' && e.reading.validation.fields.length === 3,
    );
  });

  test('good arguments reach the handler, parsed', async () => {
    const id = '5f0c1c6e-6d1a-4c36-9a4e-8d6f9b1f2a11';
    const result = await call('get_invoice', { id, email: 'a@example.com' });
    assert.deepEqual(result.content, [{ type: 'text', text: `invoice ${id}` }]);
    assert.notEqual(result.isError, true);
  });

  test('clients still see the input schema', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_invoice');
    assert.deepEqual(tool.inputSchema.required, ['id', 'email']);
    assert.deepEqual(Object.keys(tool.inputSchema.properties), ['id', 'email', 'limit']);
    assert.equal(tool.inputSchema.properties.email.format, 'email');
    assert.equal(tool.inputSchema.type, 'object');
  });

  test('a ZodError thrown inside a handler becomes a validation_error', async () => {
    const result = await call('throws_zod');
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /^<validation_error action="throws_zod">\n {2}<field name="limit">/);
  });

  test('without any wrapper, a builder thrown or returned still reaches the model as an error envelope', async () => {
    const thrown = await call('bare_throws_builder');
    assert.equal(thrown.isError, true);
    assert.equal(parseEnvelope(thrown).code, 'FORBIDDEN');
    const returned = await call('bare_returns_builder');
    assert.equal(returned.isError, true);
    assert.equal(parseEnvelope(returned).code, 'NOT_FOUND');
  });

  test("withEnvelope on the SDK's own registerTool: warnings pass, exceptions are hidden", async () => {
    const warning = await call('plain_wrapped', { n: 1 });
    assert.equal(warning.isError, false);
    assert.equal(parseEnvelope(warning).severity, 'warning');
    const failed = await call('plain_wrapped', { n: 2 });
    assert.equal(parseEnvelope(failed).code, 'INTERNAL_ERROR');
    assert.ok(!JSON.stringify(failed).includes('hunter2'));
  });
});

// One server session with a repeat ledger and pt-BR words for people: the
// ledger sees every result a tool sends, in the order the client calls.
// The in-memory Ledger and a SharedLedger over a store give the same bytes.
for (const [kind, makeLedger] of [
  ['Ledger', () => new Ledger()],
  ['SharedLedger', () => new SharedLedger(new MemoryStore(), 'session-1')],
]) {
  describe(`a server session with a repeat ledger (${kind})`, () => {
    const sessionLogged = [];
    let session;
    let sessionServer;
    const notFound = (id) => error('NOT_FOUND', `No invoice ${id}`).suggest('List invoices first').actions('billing.list_invoices');
    const NOW = 1764374400000;

    before(async () => {
      sessionServer = new McpServer({ name: 'billing', version: '1.0.0' });
      const options = { ledger: makeLedger(), locale: 'pt-BR', logger: (failure) => sessionLogged.push(failure) };
      registerTool(
        sessionServer,
        'get_invoice',
        { inputSchema: { id: z.string() } },
        async ({ id }) => {
          if (id === 'ok') return { content: [{ type: 'text', text: 'invoice ok' }] };
          if (id === 'old') return error('DEPRECATED', 'id is deprecated; use number').warning();
          if (id === 'crash') throw new TypeError(`connect ECONNREFUSED ${SECRET}`);
          if (id === 'plain') return toolError('CONFLICT', { message: 'Invoice changed', format: 'json' });
          return notFound(id);
        },
        options,
      );
      registerTool(
        sessionServer,
        'charge',
        {},
        async () => {
          throw error('RATE_LIMITED', 'Too many charges')
            .retryAfter(30)
            .correlationId('req_42')
            .toolFailure(NOW)
            .locale('pt-BR')
            .localizeSteering();
        },
        options,
      );
      session = new Client({ name: 'test-client', version: '1.0.0' });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await Promise.all([sessionServer.connect(serverTransport), session.connect(clientTransport)]);
    });

    after(async () => {
      await session.close();
      await sessionServer.close();
    });

    const get = (id) => session.callTool({ name: 'get_invoice', arguments: { id } });

    test('the same failure again is answered "nothing has changed", then "stop"', async () => {
      // What a ledger of its own gives for the same three failures, byte for byte.
      const mirror = new Ledger();
      const expected = [1, 2, 3].map(() => mirror.failure('get_invoice', notFound('inv_9'), { arguments: { id: 'inv_9' } }));
      mirror.dispose();
      const results = [await get('inv_9'), await get('inv_9'), await get('inv_9')];
      assert.deepEqual(results, expected);
      assert.deepEqual(results[0], notFound('inv_9').build());
      assert.deepEqual(
        results.map((r) => [parseEnvelope(r).severity, parseEnvelope(r).message]),
        LEDGER_STREAK,
      );
    });

    test('a success ends the streak; other arguments start a new one', async () => {
      assert.deepEqual(await get('ok'), { content: [{ type: 'text', text: 'invoice ok' }] });
      assert.deepEqual(await get('inv_9'), notFound('inv_9').build());
      assert.deepEqual(await get('inv_7'), notFound('inv_7').build());
      assert.equal(
        parseEnvelope(await get('inv_7')).message,
        'Nothing has changed since the last attempt: the same failure again (2 in a row).',
      );
    });

    test('a warning passes as it is and neither counts nor ends the streak', async () => {
      const warning = await get('old');
      assert.deepEqual(warning, error('DEPRECATED', 'id is deprecated; use number').warning().build());
      assert.equal(parseEnvelope(await get('inv_7')).severity, 'critical');
      await get('ok');
    });

    test('a result in another form is watched the same way, and a repeat comes back in its form', async () => {
      const first = await get('plain');
      assert.deepEqual(first, toolError('CONFLICT', { message: 'Invoice changed', format: 'json' }));
      const second = await get('plain');
      assert.ok(second.content[0].text.startsWith('{"code":"CONFLICT","severity":"error"'));
      assert.equal(parseEnvelope(second).message, 'Nothing has changed since the last attempt: the same failure again (2 in a row).');
      await get('ok');
    });

    test('an exception goes through the ledger too; the logger gets every one, the customer message in pt-BR', async () => {
      sessionLogged.length = 0;
      const first = await get('crash');
      const { correlationId } = parseEnvelope(first).error;
      assert.deepEqual(first, exceptionResult({ tool: 'get_invoice', exception: '', correlationId, locale: 'pt-BR' }).result);
      assert.equal(
        parseEnvelope(first).error.customerMessage,
        `Algo deu errado do nosso lado. O problema foi registrado com a referência ${correlationId}.`,
      );
      const second = parseEnvelope(await get('crash'));
      assert.equal(second.message, 'Nothing has changed since the last attempt: the same failure again (2 in a row).');
      // Each exception gets its own id and log entry; the repeat quotes the new one.
      assert.equal(sessionLogged.length, 2);
      assert.equal(sessionLogged[0].correlationId, correlationId);
      assert.notEqual(sessionLogged[1].correlationId, correlationId);
      assert.equal(second.error.correlationId, sessionLogged[1].correlationId);
      assert.ok(sessionLogged.every((f) => f.log.includes('hunter2')));
      assert.ok(!JSON.stringify(second).includes('hunter2'));
      await get('ok');
    });

    test('a builder goes through as its own spec: its ToolFailure clock and its locale stay', async () => {
      const first = await session.callTool({ name: 'charge', arguments: {} });
      assert.deepEqual(first._meta, {
        'io.modelcontextprotocol/toolFailure': {
          class: 'reliability',
          code: 'retryable_transient_error',
          retryable: true,
          retryNotBefore: NOW + 30_000,
          correlationId: 'req_42',
          agentGuidance: 'Aguarde o período de retry-after e faça a mesma chamada de novo.',
        },
      });
      const second = await session.callTool({ name: 'charge', arguments: {} });
      assert.equal(parseEnvelope(second).message, 'Nada mudou desde a última tentativa: a mesma falha de novo (2 seguidas).');
      assert.equal(second._meta['io.modelcontextprotocol/toolFailure'].retryNotBefore, NOW + 30_000);
    });

    test('arguments that fail the schema get a pt-BR <validation_error>, outside the ledger', async () => {
      const result = await get(42);
      assert.equal(result.isError, true);
      assert.equal(
        result.content[0].text,
        [
          '<validation_error action="get_invoice">',
          '  <field name="id">Tipo incorreto. Você enviou: 42. Esperado: uma string.</field>',
          '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
          '</validation_error>',
        ].join('\n'),
      );
    });
  });
}

describe('tool options', () => {
  test('a bad format, locale or ledger is refused when the tool is registered', () => {
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    const handler = async () => ({ content: [] });
    assert.throws(() => registerTool(server, 'a', {}, handler, { locale: 'pt_BR' }), {
      name: 'TypeError',
      message: 'locale: unknown variant `pt_BR`, expected `en` or `pt-BR`',
    });
    assert.throws(() => withEnvelope('b', handler, { format: 'yaml' }), {
      name: 'TypeError',
      message: 'format must be "xml", "json" or "text", not "yaml"',
    });
    assert.throws(() => withEnvelope('c', handler, { ledger: {} }), {
      name: 'TypeError',
      message:
        'options.ledger must be a Ledger (new Ledger() from mcp-envelope, one per server session), a SharedLedger, ' +
        "or a function of the call's request returning the ledger of its conversation",
    });
    assert.equal(typeof withEnvelope('d', handler, { ledger: new Ledger(), locale: 'en', format: 'json' }), 'function');
  });

  test("a ledger function is given each call's request, and picks the ledger of its conversation", async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), {
      ledger: (request) => {
        seen.push(request);
        if (request.conversation === 'broken') throw new Error('no ledger for this one');
        return request.conversation === undefined ? undefined : new SharedLedger(store, request.conversation);
      },
    });
    const store = new MemoryStore();
    const seen = [];
    server.registerTool('get_invoice', { inputSchema: { id: z.string() } }, async ({ id }) => error('NOT_FOUND', `No invoice ${id}`));
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    const message = async (conversation) => {
      const _meta = conversation === undefined ? undefined : { 'mcp-envelope/conversation': conversation };
      return parseEnvelope(await client.callTool({ name: 'get_invoice', arguments: { id: 'inv_9' }, ...(_meta && { _meta }) })).message;
    };
    const first = 'No invoice inv_9';
    const repeat = 'Nothing has changed since the last attempt: the same failure again (2 in a row).';
    // Two conversations on one connection, interleaved: each its own streak.
    assert.deepEqual([await message('a'), await message('b'), await message('a'), await message('b')], [first, first, repeat, repeat]);
    // No conversation named (and no session in memory), or a function that throws: no ledger, never a repeat.
    assert.deepEqual(
      [await message(undefined), await message(undefined), await message('broken'), await message('broken')],
      [first, first, first, first],
    );
    const { context, ...request } = seen[0];
    assert.deepEqual(request, { conversation: 'a', meta: { 'mcp-envelope/conversation': 'a' } });
    assert.equal(typeof context.sendNotification, 'function'); // the SDK's own `extra`
    assert.deepEqual(seen[4].meta, {});
    await client.close();
  });
});

// One channel for every outcome: what a helper made, a tool returns, and the
// client receives exactly that; a tool the server does not list is the core's
// answer naming the listed tools, a JSON-RPC -32602 or (as an option) the
// UNKNOWN_ACTION result (the same bytes the Python integration sends,
// tests/test_mcp_channel.py).
async function connected(server) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

describe('one channel for every outcome', () => {
  test('every helper result a tool returns reaches the client as itself, through registerTool, withEnvelope or neither', async () => {
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    for (const [name, make] of Object.entries(RESULTS)) {
      registerTool(server, `wrapped_${name}`, { inputSchema: { n: z.number().optional() } }, async () => make());
      server.registerTool(
        `plain_${name}`,
        {},
        withEnvelope(`plain_${name}`, async () => make()),
      );
      server.registerTool(`bare_${name}`, {}, async () => plain(make()));
    }
    const client = await connected(server);
    for (const [name, make] of Object.entries(RESULTS)) {
      for (const prefix of ['wrapped', 'plain', 'bare']) {
        assert.deepEqual(await client.callTool({ name: `${prefix}_${name}`, arguments: {} }), plain(make()), `${prefix}_${name}`);
      }
    }
    const errors = await Promise.all(
      Object.keys(RESULTS).map(async (name) => (await client.callTool({ name: `wrapped_${name}`, arguments: {} })).isError),
    );
    assert.deepEqual(errors, RESULTS_IS_ERROR);
    await client.close();
  });

  test('envelopeServer: a tool the server does not list is a JSON-RPC -32602 naming the listed tools, the envelope in its data', async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
    for (const name of ['list_invoices', 'get_invoice']) registerTool(server, name, {}, async () => ({ content: [] }));
    const refund = server.registerTool('refund_order', { inputSchema: { id: z.string() } }, async () => ({ content: [] }));
    const hidden = server.registerTool('hidden', {}, async () => ({ content: [] }));
    hidden.disable();
    const client = await connected(server);
    const expected = unknownTool({ tool: 'refund_orders', tools: ['list_invoices', 'get_invoice', 'refund_order'] }).error;
    assert.equal(expected.message, UNKNOWN_MESSAGE);
    // The client's McpError holds the response's code and data, its message prefixed by the SDK.
    await assert.rejects(
      client.callTool({ name: 'refund_orders', arguments: { amount_cents: 300 } }),
      (e) =>
        e instanceof McpError &&
        e.code === -32602 &&
        e.message === `MCP error -32602: ${UNKNOWN_MESSAGE}` &&
        isDeepStrictEqual(e.data, expected.data),
    );
    assert.deepEqual(Object.keys(expected.data), [
      'code',
      'severity',
      'errorCategory',
      'isRetryable',
      'reason',
      'recovery',
      'availableActions',
    ]);
    assert.deepEqual(expected.data.availableActions, ['list_invoices', 'get_invoice', 'refund_order']);
    // A disabled tool is not listed, so it is unknown too; the list follows enable and disable.
    await assert.rejects(client.callTool({ name: 'hidden', arguments: {} }), {
      message: "MCP error -32602: Unknown tool: hidden. This server's tools: list_invoices, get_invoice, refund_order.",
    });
    refund.disable();
    await assert.rejects(client.callTool({ name: 'refund_order', arguments: {} }), {
      message: "MCP error -32602: Unknown tool: refund_order. This server's tools: list_invoices, get_invoice.",
    });
    hidden.enable();
    assert.deepEqual(await client.callTool({ name: 'hidden', arguments: {} }), { content: [] });
    await client.close();
  });

  test("envelopeServer with unknownTool: 'tool-result': the UNKNOWN_ACTION result, in its format", async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { unknownTool: 'tool-result' });
    for (const name of ['list_invoices', 'get_invoice', 'refund_order']) registerTool(server, name, {}, async () => ({ content: [] }));
    const client = await connected(server);
    const result = await client.callTool({ name: 'refund_orders', arguments: { amount_cents: 300 } });
    assert.deepEqual(result, { content: [{ type: 'text', text: UNKNOWN_XML }], isError: true });
    assert.deepEqual(
      result,
      unknownTool({ tool: 'refund_orders', tools: ['list_invoices', 'get_invoice', 'refund_order'], answer: 'tool-result' }).result,
    );
    await client.close();

    const textServer = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { format: 'text', unknownTool: 'tool-result' });
    registerTool(textServer, 'list_invoices', {}, async () => ({ content: [] }));
    const textClient = await connected(textServer);
    assert.equal(
      (await textClient.callTool({ name: 'get_invoice', arguments: {} })).content[0].text,
      [
        'error_code: UNKNOWN_ACTION',
        "what_failed: No tool named 'get_invoice' on this server.",
        'next_action: Call one of the available tools instead, with the arguments its input schema asks for.',
        'retryable: true',
        'available_actions: ["list_invoices"]',
      ].join('\n'),
    );
    await textClient.close();
  });

  test("envelopeServer: malformed tools/call params stay the SDK's JSON-RPC error", async () => {
    const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
    registerTool(server, 'list_invoices', {}, async () => ({ content: [] }));
    const client = await connected(server);
    // The SDK's own answer to a request without a name, unchanged: its Protocol parses the request (-32603) before
    // its Server checks the params (-32602).
    await assert.rejects(
      client.request({ method: 'tools/call', params: { arguments: {} } }, CallToolResultSchema),
      (e) => e instanceof McpError && e.code === -32603 && /"path": \[\n\s+"params",\n\s+"name"\n\s+\]/.test(e.message),
    );
    await assert.rejects(
      client.request({ method: 'tools/call', params: { name: 'list_invoices', arguments: [1] } }, CallToolResultSchema),
      (e) => e instanceof McpError && e.code === -32603,
    );
    await client.close();
  });
});

// A Zod 4 server here and a pydantic server in tests/test_mcp_channel.py, with
// equal schemas: the core words each "Expected …" from the JSON Schema
// tools/list sends, so a real client of either gets EQUAL_SCHEMAS_XML.
describe('the input schema a validation failure is worded from', () => {
  const shape = { email: z.email(), quantity: z.int(), count: z.int(), size: z.enum(['S', 'M', 'L']) };
  const input = { email: 'nope', quantity: 'abc', size: 'XL' };

  test('registerTool passes the JSON Schema tools/list sends; the envelope is the one every language gives', async () => {
    const server = envelopeServer(new McpServer({ name: 'shop', version: '1.0.0' }));
    registerTool(server, 'place_order', { inputSchema: shape }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const client = await connected(server);
    const [tool] = (await client.listTools()).tools;
    const result = await client.callTool({ name: 'place_order', arguments: input });
    assert.equal(result.content[0].text, EQUAL_SCHEMAS_XML);
    // Exactly what the listed schema gives: the schema the model read is the one the core got.
    const zodError = z.object(shape).safeParse(input, { reportInput: true }).error;
    assert.deepEqual(result, validationError('place_order', zodError, { input, inputSchema: tool.inputSchema }));
    await client.close();
  });

  test('a Zod 3 schema (zod/v3), which SDK 1.x still takes: the same envelope, checked through its Standard Schema', async () => {
    const server = envelopeServer(new McpServer({ name: 'shop', version: '1.0.0' }));
    server.registerTool(
      'place_order',
      {
        inputSchema: { email: z3.string().email(), quantity: z3.number().int(), count: z3.number().int(), size: z3.enum(['S', 'M', 'L']) },
      },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
    const client = await connected(server);
    assert.deepEqual(await client.callTool({ name: 'place_order', arguments: input }), {
      content: [{ type: 'text', text: EQUAL_SCHEMAS_XML }],
      isError: true,
    });
    await client.close();
  });

  test('validationError puts inputSchema in the spec unchanged', () => {
    const inputSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const issues = [{ path: ['n'], code: 'invalid_type', expected: 'number', input: 'x' }];
    assert.equal(
      validationError('t', issues, { input: { n: 'x' }, inputSchema }).content[0].text,
      [
        '<validation_error action="t">',
        '  <field name="n">Wrong type. You sent: \'x\'. Expected an integer.</field>',
        '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
        '</validation_error>',
      ].join('\n'),
    );
  });
});
