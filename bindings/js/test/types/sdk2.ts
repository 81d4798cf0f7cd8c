// SDK 2.x users: registerTool takes any Standard Schema; the handler's
// arguments are typed from it (Zod 4, a raw shape, Valibot, ArkType).
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import { error, toolError } from 'mcp-envelope';
import { Ledger } from 'mcp-envelope/server';
import { envelopeServer, registerTool, withEnvelope } from 'mcp-envelope/mcp';

const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
registerTool(
  server,
  'zod',
  { inputSchema: z.object({ id: z.string(), limit: z.number().optional() }) },
  async ({ id, limit }) => toolError('NOT_FOUND', { message: `No invoice ${id.toUpperCase()} ${limit?.toFixed(0)}` }),
  { ledger: new Ledger() },
);
registerTool(server, 'shape', { inputSchema: { id: z.string() } }, async ({ id }) => error('X', id.toUpperCase()));
registerTool(server, 'valibot', { inputSchema: toStandardJsonSchema(v.object({ n: v.number() })) }, async ({ n }) =>
  error('X', n.toFixed(1)),
);
registerTool(server, 'arktype', { inputSchema: type({ s: 'string' }) }, async ({ s }) => error('X', s.toUpperCase()));
// @ts-expect-error n is a number, not a string
registerTool(server, 'wrong', { inputSchema: toStandardJsonSchema(v.object({ n: v.number() })) }, async ({ n }) => n.toUpperCase());
// The SDK's own registerTool, the wrapper alone: a builder where it expects a CallToolResult.
server.registerTool(
  'plain',
  { inputSchema: z.object({ id: z.string() }) },
  withEnvelope('plain', async ({ id }) => error('NOT_FOUND', id)),
);
server.registerTool('bare', {}, async () => error('NOT_FOUND', 'gone').build());
await server.connect(new StdioServerTransport());
