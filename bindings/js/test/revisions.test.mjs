// Answers by negotiated protocol revision (docs/revisions.md) through the
// MCP TypeScript SDK 2.x's own client and server: the SDK's
// UrlElicitationRequiredError a tool throws reaches a 2026-07-28 client as an
// `input_required` result, which the client answers and retries (the SDK
// alone refuses it with -32603 on that revision), and a 2025-11-25 client as
// the error -32042. The SDK serves 2026-07-28 through `createMcpHandler`
// (here fetched in-process) and 2025-11-25 over any transport.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, McpServer, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { envelopeServer } from 'mcp-envelope/mcp';

const CONSENT = {
  mode: 'url',
  message: 'Connect your bank account to continue.',
  url: 'https://bank.example/consent?session=7',
  elicitationId: 'bank-consent',
};
const CARD = { ...CONSENT, elicitationId: 'card' };
/** What a 2026-07-28 client is asked: the elicitation without its id, which that revision removed (its key names it). */
const { elicitationId, ...ASKED } = CONSENT;

function billing(wrapped = true) {
  const plain = new McpServer({ name: 'billing', version: '1.0.0' });
  const server = wrapped ? envelopeServer(plain) : plain;
  // The SDK's own URL elicitation error (the 2025-11-25 way), until the client has answered it.
  server.registerTool('connect_bank', {}, async (ctx) => {
    const answered = ctx.mcpReq.inputResponses;
    if (answered) return { content: [{ type: 'text', text: `connected after ${Object.keys(answered)}` }] };
    throw new UrlElicitationRequiredError([CONSENT]);
  });
  // An input_required result (the 2026-07-28 way), until the client has answered it.
  server.registerTool('link_card', {}, async (ctx) => {
    if (ctx.mcpReq.inputResponses) return { content: [{ type: 'text', text: 'linked' }] };
    return { resultType: 'input_required', inputRequests: { card: { method: 'elicitation/create', params: CARD } } };
  });
  server.registerTool('crash', {}, async () => {
    throw new TypeError('password=hunter2');
  });
  return server;
}

/** The result (or the error) of one call by a client of `revision`, and what the client was asked. */
async function call(revision, tool, wrapped = true) {
  const asked = [];
  const options = { capabilities: { elicitation: { url: {} } } };
  if (revision === '2026-07-28') options.versionNegotiation = { mode: { pin: '2026-07-28' } };
  const client = new Client({ name: 'test-client', version: '1.0.0' }, options);
  client.setRequestHandler('elicitation/create', async (request) => {
    const { _meta, ...params } = request.params;
    asked.push(params);
    return { action: 'accept' };
  });
  if (revision === '2026-07-28') {
    const handler = createMcpHandler(() => billing(wrapped));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }),
    );
  } else {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([billing(wrapped).connect(serverTransport), client.connect(clientTransport)]);
  }
  try {
    return [await client.callTool({ name: tool, arguments: {} }), asked];
  } catch (error) {
    return [error, asked];
  } finally {
    await client.close();
  }
}

describe('answers by protocol revision, SDK 2.x', () => {
  test('a thrown URL elicitation reaches a 2026-07-28 client as input_required, which it answers and retries', async () => {
    const [result, asked] = await call('2026-07-28', 'connect_bank');
    assert.deepEqual(asked, [ASKED]);
    assert.deepEqual(result.content, [{ type: 'text', text: 'connected after bank-consent' }]);
  });

  test('without mcp-envelope the SDK refuses that error on 2026-07-28 with -32603', async () => {
    const [error, asked] = await call('2026-07-28', 'connect_bank', false);
    assert.deepEqual(asked, []);
    assert.equal(error.code, -32603);
  });

  test('a thrown URL elicitation reaches a 2025-11-25 client as the error -32042', async () => {
    const [error, asked] = await call('2025-11-25', 'connect_bank');
    assert.deepEqual(asked, []);
    assert.equal(error.code, -32042);
    assert.deepEqual(error.data, { elicitations: [CONSENT] });
  });

  test('a returned input_required result reaches a 2026-07-28 client as it came', async () => {
    const [result, asked] = await call('2026-07-28', 'link_card');
    assert.deepEqual(asked, [ASKED]);
    assert.deepEqual(result.content, [{ type: 'text', text: 'linked' }]);
  });

  test('a returned input_required result on 2025-11-25 is left to the SDK, which asks the client itself', async () => {
    const [result, asked] = await call('2025-11-25', 'link_card');
    assert.deepEqual(asked, [CARD]);
    assert.deepEqual(result.content, [{ type: 'text', text: 'linked' }]);
  });

  for (const revision of ['2026-07-28', '2025-11-25']) {
    test(`an exception is the same INTERNAL_ERROR envelope under ${revision}, no secret in it`, async () => {
      const [result] = await call(revision, 'crash');
      assert.equal(result.isError, true);
      assert.match(
        result.content[0].text,
        /^<tool_error code="INTERNAL_ERROR" severity="error">\n {2}<message>crash failed with an internal error\.<\/message>/,
      );
      assert.doesNotMatch(result.content[0].text, /hunter2/);
    });
  }
});
