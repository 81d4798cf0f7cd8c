import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { EnvelopeError, error, parseEnvelope, throwIfError, toolError } from 'mcp-envelope';
import { envelopeServer, registerTool, withEnvelope } from 'mcp-envelope/mcp';

const server = new McpServer({ name: 'billing', version: '1.0.0' });
server.registerTool(
  'get',
  { inputSchema: { id: z.string() } },
  withEnvelope('get', async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id.toUpperCase()}` })),
);
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

// The recovery helpers, partial results and the ledger, as a handler uses them.
import { codeDefaults, limitsInForce, partialResult, renderPartial } from 'mcp-envelope';
import { accessError, authRequired, emptyResult, exceptionResult, forbidden, Ledger, upstreamError } from 'mcp-envelope/server';
import type { CallToolResult as SdkResult } from '@modelcontextprotocol/sdk/types.js';

const ledger = new Ledger();
registerTool(
  server,
  'charge',
  { inputSchema: { amount: z.number() } },
  async ({ amount }, _extra) => {
    const response = await fetch(`https://payments.example/charge?amount=${amount}`);
    if (!response.ok) {
      const { error: spec, log } = upstreamError({ status: response.status, headers: response.headers, body: await response.text() });
      console.warn(log.status, log.body.length, log.retryAfterIgnored);
      return toolError(spec.code, spec);
    }
    if (amount === 0) return emptyResult({ what: 'charges', structuredContent: { charges: [] } });
    if (amount < 0) return forbidden({ action: 'refund', resource: `charge ${amount}`, locale: 'pt-BR' });
    return partialResult({ obtained: ['charge 1'], failed: [{ item: 'charge 2', code: 'TIMEOUT', retryable: true }] });
  },
  { ledger, locale: 'pt-BR', logger: ({ correlationId, log }) => console.error(correlationId, log.length) },
);

const sdkResult: SdkResult = ledger.failure(
  'charge',
  error('RATE_LIMITED', 'slow').retryAfter(3).toolFailure().limits({ messageChars: 100 }),
  { arguments: { amount: 3 }, format: 'json' },
);
const { result: crashed, correlationId: id, log: line } = exceptionResult({ tool: 'charge', exception: new Error('x'), locale: 'en' });
const fromSdk: SdkResult = authRequired({ format: 'text' });
console.log(
  sdkResult,
  crashed.isError,
  id,
  line,
  fromSdk,
  accessError({ kind: 'auth-required' }).code,
  renderPartial({ obtained: [], failed: [] }).length,
);
console.log(codeDefaults('NOT_FOUND', { locale: 'pt-BR' })?.recovery, limitsInForce().messageChars);
ledger.dispose();

// A partial result reads back by kind.
const partial = parseEnvelope(partialResult({ obtained: [], failed: [{ item: 'c', code: 'X' }] }));
if (partial?.kind === 'partial_result') console.log(partial.partial.failed[0]?.retryable, partial.category);

// @ts-expect-error the locale is spelled exactly: pt-BR, not pt_BR
toolError('X', { message: 'm', locale: 'pt_BR' });
// @ts-expect-error an access error is forbidden or auth-required
accessError({ kind: 'unauthorized' });
// @ts-expect-error toolFailure is true or { now }, in milliseconds
error('X', 'm').correlationId('c').toolFailure('now');

// One line on a server with declared capabilities, before or after its tools; the SDK's own registerTool and tool.
const whole = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }, { capabilities: { tools: {} } }), {
  unknownTool: 'tool-result',
  format: 'json',
  ledger: new Ledger(),
});
whole.registerTool('get', { inputSchema: { id: z.string() } }, async ({ id }) => toolError('NOT_FOUND', { message: id.toUpperCase() }));
whole.tool('list', async () => ({ content: [] }));
// @ts-expect-error the unknown-tool answer is 'protocol-error' or 'tool-result'
envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }), { unknownTool: 'isError' });
