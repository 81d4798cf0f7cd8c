import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { EnvelopeError, error, parseEnvelope, throwIfError, toolError } from 'mcp-envelope';
import { registerTool, withEnvelope } from 'mcp-envelope/mcp';

const server = new McpServer({ name: 'billing', version: '1.0.0' });
server.registerTool('get', { inputSchema: { id: z.string() } },
  withEnvelope('get', async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id.toUpperCase()}` })));
registerTool(server, 'find', { inputSchema: { limit: z.number() } }, async ({ limit }) => error('X', `over ${limit.toFixed(0)}`));
// A builder returned from a handler typed by the SDK alone.
server.registerTool('plain', {}, async () => error('NOT_FOUND', 'gone'));
// No schema: the handler gets the arguments as a plain record.
registerTool(server, 'noargs', {}, async () => toolError('X', { message: 'm' }));
// Args are typed from the schema: this must not compile.
// @ts-expect-error limit is a number, not a string
registerTool(server, 'typed', { inputSchema: { limit: z.number() } }, async ({ limit }) => limit.toUpperCase());

// A reading narrows by kind: a tool error has the faithful spec, a validation error its fields.
const reading = parseEnvelope(toolError('X', { message: 'm' }));
if (reading?.kind === 'tool_error') console.log(reading.error.code, reading.recovery?.length, reading.category);
if (reading?.kind === 'validation_error') console.log(reading.validation.fields.map((field) => field.name));
try {
  throwIfError({ content: [{ type: 'text', text: 'Upstream said no' }], isError: true });
} catch (e) {
  if (e instanceof EnvelopeError) console.log(e.code, e.reading.kind, e.malformed, e.retryable, e.raw.length);
}
// @ts-expect-error a reading of kind none is null, never returned
parseEnvelope('x')?.kind === 'none';
