// The lockfile option of every integration (docs/contract-diff.md): a real
// server on SDK 1.x, SDK 2.x and FastMCP, each given yesterday's lockfile,
// answers a bad call with the same <validation_error> as the Python and Rust
// integrations, carrying the tool's BREAKING change since the lock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as Memory1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as Memory2, McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { FastMCP } from 'fastmcp';
import * as z from 'zod';
import { contractLock, LockedContract } from 'mcp-envelope/contract';
import { addTool, envelopeTransport } from 'mcp-envelope/fastmcp';
import { envelopeServer, registerTool } from 'mcp-envelope/mcp';

/** refund({ order_id: 'ab' }) given yesterday's lockfile: the bytes tests/failing_tools.py (Python) and tests/rmcp.rs expect too. */
const LOCKED_REFUND_TEXT = [
  '<validation_error action="refund">',
  '  <field name="order_id">Too short. You sent: \'ab\' (2 characters). Expected at least 3 characters.</field>',
  '  <field name="amount_cents">Missing required field. You sent: nothing. Expected an integer.</field>',
  '  <contract_awareness>',
  '    <delta severity="BREAKING" action="refund" field="amount_cents">amount_cents is a new required field</delta>',
  '  </contract_awareness>',
  '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
  '</validation_error>',
].join('\n');

const refundShape = { order_id: z.string().min(3), amount_cents: z.int().min(1) };
const refund = async ({ order_id: id, amount_cents: cents }) => ({ content: [{ type: 'text', text: `refunded ${cents} on ${id}` }] });

/**
 * Yesterday's contract as a lockfile, from today's tools as `tools/list` sent
 * them: `refund` then took no `amount_cents`, and an `order_id` of at least 5
 * characters (today: a new required field, BREAKING; a looser order_id, SAFE).
 */
function lockedYesterday({ tools }) {
  const yesterday = structuredClone(tools);
  const schema = yesterday.find((tool) => tool.name === 'refund').inputSchema;
  delete schema.properties.amount_cents;
  schema.required = ['order_id'];
  schema.properties.order_id.minLength = 5;
  return contractLock(yesterday);
}

const sdks = [
  ['SDK 1.x', McpServer1, Client1, Memory1],
  ['SDK 2.x', McpServer2, Client2, Memory2],
];

for (const [line, McpServer, Client, InMemoryTransport] of sdks) {
  describe(`envelopeServer({ lockfile }) on the MCP ${line}`, () => {
    const serve = async (options) => {
      const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), options);
      registerTool(server, 'refund', { inputSchema: refundShape }, refund);
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
      return client;
    };

    test('a validation error tells what changed in the tool since the lock', async () => {
      const today = await serve({});
      const lockfile = lockedYesterday(await today.listTools());
      await today.close();
      const client = await serve({ lockfile });
      assert.deepEqual(await client.callTool({ name: 'refund', arguments: { order_id: 'ab' } }), {
        content: [{ type: 'text', text: LOCKED_REFUND_TEXT }],
        isError: true,
      });
      // A good call is untouched.
      assert.deepEqual(await client.callTool({ name: 'refund', arguments: { order_id: 'A-1', amount_cents: 5 } }), {
        content: [{ type: 'text', text: 'refunded 5 on A-1' }],
      });
      await client.close();
    });

    test('a lockfile the core cannot read is refused at start', () => {
      assert.throws(() => envelopeServer(new McpServer({ name: 'b', version: '1' }), { lockfile: '{"tools": 3}' }), {
        message: 'the lock has no "tools" array: give a tools/list result, its tools array or a lockfile',
      });
    });
  });
}

describe('addTool(..., { contract }) on FastMCP', () => {
  const serve = async (options) => {
    const server = new FastMCP({ name: 'billing', version: '1.0.0', ping: { enabled: false } });
    addTool(
      server,
      { name: 'refund', parameters: z.object(refundShape), execute: async (args) => (await refund(args)).content[0].text },
      options,
    );
    const client = new Client1({ name: 'test-client', version: '1.0.0' });
    const [clientTransport, serverTransport] = Memory1.createLinkedPair();
    const [session] = await Promise.all([server.connect(envelopeTransport(serverTransport)), client.connect(clientTransport)]);
    return {
      client,
      close: async () => {
        await client.close();
        await session.close();
      },
    };
  };

  test('a validation error tells what changed in the tool since the lock', async () => {
    const today = await serve({});
    const lockfile = lockedYesterday(await today.client.listTools());
    await today.close();
    const { client, close } = await serve({ contract: new LockedContract(lockfile) });
    try {
      assert.deepEqual(await client.callTool({ name: 'refund', arguments: { order_id: 'ab' } }), {
        content: [{ type: 'text', text: LOCKED_REFUND_TEXT }],
        isError: true,
      });
    } finally {
      await close();
    }
  });
});
