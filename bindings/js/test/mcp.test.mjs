// The MCP SDK integration, end to end: a real McpServer and Client connected
// in-process; tools that return an envelope, throw one, throw a plain Error
// holding a secret, and receive bad arguments.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { error, EnvelopeError, parseEnvelope, throwIfError, toolError } from 'mcp-envelope';
import { registerTool, withEnvelope } from 'mcp-envelope/mcp';

const SECRET = 'hunter2-db-password@10.0.0.7:/var/lib/billing';
const logged = [];
let client;
let server;

before(async () => {
  server = new McpServer({ name: 'billing', version: '1.0.0' });
  const options = { logger: (failure) => logged.push(failure) };

  registerTool(server, 'returns_envelope', { inputSchema: { id: z.string() } },
    async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}`, availableActions: ['billing.list_invoices'] }), options);
  registerTool(server, 'returns_builder', { inputSchema: { id: z.string() } },
    async ({ id }) => error('NOT_FOUND', `No invoice ${id}`).suggest('List invoices first'), options);
  registerTool(server, 'throws_builder', {},
    async () => { throw error('RATE_LIMITED', 'Too many lookups').retryAfter(30); }, options);
  // A proxy: the upstream result is read with throwIfError, and the thrown EnvelopeError passes its text on.
  registerTool(server, 'proxies_envelope', {},
    async () => throwIfError(toolError('CONFLICT', { message: 'Order changed', correlationId: 'req-5' })), options);
  registerTool(server, 'proxies_plain_error', {},
    async () => throwIfError({ content: [{ type: 'text', text: 'Upstream said no' }, { type: 'text', text: 'twice' }], isError: true }), options);
  registerTool(server, 'throws_secret', {},
    async () => { throw new Error(`connect ECONNREFUSED ${SECRET}`); }, options);
  registerTool(server, 'throws_zod', {},
    async () => z.object({ limit: z.number().max(100) }).parse({ limit: 500 }), options);
  registerTool(server, 'get_invoice', {
    description: 'One invoice',
    inputSchema: { id: z.string().uuid(), email: z.string().email(), limit: z.number().int().max(100).optional() },
  }, async ({ id }) => ({ content: [{ type: 'text', text: `invoice ${id}` }] }), options);
  // The plain wrapper on the SDK's own registerTool.
  server.registerTool('plain_wrapped', { inputSchema: { n: z.number() } },
    withEnvelope('plain_wrapped', async ({ n }) => { if (n > 1) throw new Error(SECRET); return error('X_WARN', 'careful').warning(); }, options));

  // No wrapper at all: the SDK's own catch shows String(thrown), which for a builder is the envelope.
  server.registerTool('bare_throws_builder', {}, async () => { throw error('FORBIDDEN', 'Not your invoice'); });
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
    assert.deepEqual([reading.code, reading.message, reading.error.availableActions], ['NOT_FOUND', 'No invoice inv_1', ['billing.list_invoices']]);
  });

  test('a returned unbuilt builder is an error result, not a success', async () => {
    const result = await call('returns_builder', { id: 'inv_2' });
    assert.equal(result.isError, true);
    assert.equal(parseEnvelope(result).recovery, 'List invoices first');
  });

  test('a thrown builder becomes its own result', async () => {
    const result = await call('throws_builder');
    assert.equal(result.isError, true);
    assert.deepEqual({ code: parseEnvelope(result).code, retryAfter: parseEnvelope(result).error.retryAfter }, { code: 'RATE_LIMITED', retryAfter: 30 });
  });

  test('a thrown EnvelopeError (a proxied error) passes its text through unchanged', async () => {
    const result = await call('proxies_envelope');
    assert.deepEqual(result, toolError('CONFLICT', { message: 'Order changed', correlationId: 'req-5' }));
    assert.deepEqual(await call('proxies_plain_error'), { content: [{ type: 'text', text: 'Upstream said no\ntwice' }], isError: true });
  });

  test('a plain Error becomes INTERNAL_ERROR; its text goes to the logger, never to the model', async () => {
    logged.length = 0;
    const result = await call('throws_secret');
    assert.equal(result.isError, true);
    const envelope = parseEnvelope(result);
    assert.equal(envelope.code, 'INTERNAL_ERROR');
    assert.equal(envelope.message, 'throws_secret failed with an internal error.');
    assert.match(envelope.recovery, /^Do not retry blindly/);
    const { correlationId } = envelope.error;
    assert.match(correlationId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(result, toolError('INTERNAL_ERROR', { message: 'throws_secret failed with an internal error.', correlationId }));
    assert.ok(!JSON.stringify(result).includes('hunter2'), 'the secret reached the result');
    assert.ok(!JSON.stringify(result).includes('10.0.0.7'), 'the host reached the result');
    assert.equal(logged.length, 1);
    assert.equal(logged[0].correlationId, correlationId);
    assert.equal(logged[0].tool, 'throws_secret');
    assert.match(logged[0].error.message, /hunter2/);
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
    assert.deepEqual(parsed.validation.fields.map((f) => f.name), ['id', 'email', 'limit']);
    assert.throws(() => throwIfError(result), (e) => e instanceof EnvelopeError && e.code === 'VALIDATION_ERROR' &&
      e.reading.validation.fields.length === 3);
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
    assert.match(result.content[0].text, /^<validation_error action="throws_zod">\n  <field name="limit">/);
  });

  test('without any wrapper, a builder thrown or returned still reaches the model as an error envelope', async () => {
    const thrown = await call('bare_throws_builder');
    assert.equal(thrown.isError, true);
    assert.equal(parseEnvelope(thrown).code, 'FORBIDDEN');
    const returned = await call('bare_returns_builder');
    assert.equal(returned.isError, true);
    assert.equal(parseEnvelope(returned).code, 'NOT_FOUND');
  });

  test('withEnvelope on the SDK\'s own registerTool: warnings pass, exceptions are hidden', async () => {
    const warning = await call('plain_wrapped', { n: 1 });
    assert.equal(warning.isError, false);
    assert.equal(parseEnvelope(warning).severity, 'warning');
    const failed = await call('plain_wrapped', { n: 2 });
    assert.equal(parseEnvelope(failed).code, 'INTERNAL_ERROR');
    assert.ok(!JSON.stringify(failed).includes('hunter2'));
  });
});
