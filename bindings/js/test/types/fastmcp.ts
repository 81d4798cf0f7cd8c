// FastMCP users: addTool types execute's arguments from its parameters and
// its context from the server (its auth type); envelopeTransport keeps the
// transport's type for server.connect; envelopeFastMCP keeps the server's
// type, so FastMCP's own addTool types the tools added after it.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { FastMCP, UserError } from 'fastmcp';
import * as v from 'valibot';
import * as z from 'zod';
import { error, toolError } from 'mcp-envelope';
import { Ledger } from 'mcp-envelope/server';
import { addTool, envelopeFastMCP, envelopeTool, envelopeTransport } from 'mcp-envelope/fastmcp';

const server = new FastMCP<{ user: string }>({ name: 'billing', version: '1.0.0', authenticate: async () => ({ user: 'jo' }) });
addTool(
  server,
  {
    name: 'get_invoice',
    description: 'Get one invoice.',
    parameters: z.object({ id: z.string(), limit: z.number().optional() }),
    annotations: { readOnlyHint: true },
    execute: async ({ id, limit }, { log, session }) => {
      log.info(`invoice ${id} for ${session?.user.toUpperCase()}`);
      if (limit === 0) throw new UserError('No limit of 0');
      return toolError('NOT_FOUND', { message: `No invoice ${id.toUpperCase()}` });
    },
  },
  { ledger: new Ledger() },
);
addTool(server, {
  name: 'valibot',
  parameters: toStandardJsonSchema(v.object({ n: v.number() })),
  execute: async ({ n }) => error('X', n.toFixed(1)),
});
addTool(server, { name: 'arktype', parameters: type({ s: 'string' }), execute: async ({ s }) => s.toUpperCase() });
addTool(server, { name: 'none', execute: async () => 'done' });
// @ts-expect-error n is a number, not a string
addTool(server, { name: 'wrong', parameters: z.object({ n: z.number() }), execute: async ({ n }) => n.toUpperCase() });
// @ts-expect-error FastMCP types the description
addTool(server, { name: 'described', description: 42, execute: async () => 'x' });
// The wrapped tool handed to FastMCP's own addTool.
server.addTool(
  envelopeTool({ name: 'plain', parameters: z.object({ id: z.string() }), execute: async ({ id }) => error('NOT_FOUND', id) }),
);
await server.connect(envelopeTransport(new StdioServerTransport()), { user: 'jo' });

// One line: FastMCP's own addTool, a returned envelope, the unknown-tool option.
const whole = envelopeFastMCP(new FastMCP({ name: 'billing', version: '1.0.0' }), { unknownTool: 'tool-result', ledger: new Ledger() });
whole.addTool({
  name: 'get',
  parameters: z.object({ id: z.string() }),
  execute: async ({ id }) => JSON.stringify(toolError('NOT_FOUND', { message: id })),
});
// @ts-expect-error the unknown-tool answer is 'protocol-error' or 'tool-result'
envelopeFastMCP(new FastMCP({ name: 'billing', version: '1.0.0' }), { unknownTool: 'isError' });
