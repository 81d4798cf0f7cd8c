// MCP SDK integration (`mcp-envelope/mcp`): wraps `McpServer.registerTool`
// callbacks so every way a handler can fail reaches the model as an envelope,
// and no exception text (which can name a password, a path, a host) does.

import * as z from 'zod/v4';
import { isErrorBuilder } from './builder.js';
import { EnvelopeError } from './read.js';
import { exceptionResult, unknownTool } from './recovery.js';
import { codeDefaults, formatOf } from './render.js';
import type { CallToolResult, EnvelopeToolOptions, Format, InternalFailure, SessionLedger } from './types.js';
import { validationError } from './validation.js';

export type { EnvelopeToolOptions, InternalFailure } from './types.js';

/** One line on stderr: the component's logfmt line, the exception's stack in it as a JSON string. */
const defaultLogger = (f: InternalFailure) => console.error(`[mcp-envelope] ${f.log}`);

function isZodError(value: unknown): value is { issues: unknown[] } {
  return value instanceof Error && value.name === 'ZodError' && Array.isArray((value as { issues?: unknown }).issues);
}

/**
 * The result a handler's return value or exception becomes, passed through
 * `options.ledger` when there is one. Exported for hosts other than the MCP
 * SDK; `args` are the call's arguments.
 */
export function resultFor(outcome: { returned: unknown } | { thrown: unknown }, tool: string, args: unknown,
  options: EnvelopeToolOptions = {}): unknown {
  const source = 'returned' in outcome ? outcome.returned : outcome.thrown;
  const { ledger } = options;
  if (ledger !== undefined && isErrorBuilder(source)) {
    // A builder goes through the ledger as its own spec (its locale, caps and
    // ToolFailure clock kept, as Python's raised ToolError does), rendered once.
    try {
      return ledger.failure(tool, source, { arguments: args });
    } catch {
      // A refused spec or a reset ledger: the builder's own result, as without a ledger.
      return outcomeResult(outcome, tool, args, options);
    }
  }
  const result = outcomeResult(outcome, tool, args, options);
  return ledger === undefined ? result : observed(result, tool, args, ledger);
}

function outcomeResult(outcome: { returned: unknown } | { thrown: unknown }, tool: string, args: unknown,
  options: EnvelopeToolOptions): unknown {
  try {
    // A builder is turned into its plain result, so nothing downstream depends on reading its getters.
    if ('returned' in outcome) return isErrorBuilder(outcome.returned) ? outcome.returned.build() : outcome.returned;
    const thrown = outcome.thrown;
    if (isErrorBuilder(thrown)) return thrown.build();
    // An error read from another tool's result (throwIfError) is passed on as it came.
    if (thrown instanceof EnvelopeError) return { content: [{ type: 'text', text: thrown.raw }], isError: true };
    if (isZodError(thrown)) return validationError(options.action ?? tool, thrown, { input: args, locale: options.locale });
    if (Array.isArray((thrown as CallToolResult | null)?.content) && (thrown as CallToolResult).isError === true) return thrown;
  } catch (conversionFailure) {
    // A builder whose spec is refused, or a malformed envelope thrown by the handler, is itself an internal failure.
    return internalError(conversionFailure, tool, options);
  }
  return internalError(outcome.thrown, tool, options);
}

/** The component's INTERNAL_ERROR with a fresh correlation id; the exception goes to the logger only. */
function internalError(error: unknown, tool: string, options: EnvelopeToolOptions): CallToolResult {
  const { result, correlationId, log } = exceptionResult({ tool: String(tool), exception: error, format: formatOf(options),
    locale: options.locale });
  try {
    (options.logger ?? defaultLogger)({ correlationId, tool, error, log });
  } catch {
    // A failing logger must not turn into a different error for the model.
  }
  return result;
}

/**
 * Any other result goes through the ledger's `observe`, and the core decides:
 * a `<tool_error>` in any form counts and a repeat comes back in the
 * handler's own form; a success ends the streak.
 */
function observed(result: unknown, tool: string, args: unknown, ledger: SessionLedger): unknown {
  const plain = result as CallToolResult | null;
  if (plain === null || typeof plain !== 'object' || !Array.isArray(plain.content)) return result;
  try {
    return ledger.observe(tool, plain, { arguments: args }) ?? result;
  } catch {
    // A ledger whose component instance was reset after a failure: the
    // result still reaches the model as it came.
    return result;
  }
}

/**
 * Wraps a `registerTool` callback: returned results pass through; a thrown
 * builder or EnvelopeError becomes its own result; a thrown ZodError becomes
 * a `<validation_error>`; anything else becomes INTERNAL_ERROR with a fresh
 * correlation id, its text going to `logger`, never to the model.
 *
 * ```ts
 * server.registerTool('get_invoice', { inputSchema: { id: z.string() } },
 *   withEnvelope('get_invoice', async ({ id }) => { ... }));
 * ```
 */
export function withEnvelope<Args extends unknown[]>(tool: string, handler: (...args: Args) => unknown,
  options: EnvelopeToolOptions = {}): (...args: Args) => Promise<CallToolResult> {
  checkOptions(options);
  return async (...args: Args) => {
    // The SDK calls `cb(args, extra)` for tools with an input schema and `cb(extra)` without.
    const toolArgs = args.length > 1 ? args[0] : undefined;
    const outcome = await Promise.resolve().then(() => handler(...args)).then((returned) => ({ returned }), (thrown) => ({ thrown }));
    return resultFor(outcome, tool, toolArgs, options) as CallToolResult;
  };
}

/**
 * Refuses bad options when the tool is registered, not when a call first
 * fails: a wrong format or locale would otherwise replace the envelope of
 * the first exception with a refusal.
 */
function checkOptions(options: EnvelopeToolOptions): void {
  formatOf(options);
  // The component's own refusal of a locale it does not know.
  if (options.locale !== undefined) codeDefaults('INTERNAL_ERROR', { locale: options.locale });
  const ledger = options.ledger as Partial<SessionLedger> | undefined;
  // Duck-typed, so a ledger from another copy of the package works too.
  if (ledger !== undefined && (typeof ledger?.observe !== 'function' || typeof ledger.failure !== 'function')) {
    throw new TypeError('options.ledger must be a Ledger (new Ledger() from mcp-envelope), one per server session');
  }
}

/**
 * How the SDK's McpServer writes a Zod 4 input schema into `tools/list`
 * (its `toJsonSchemaCompat`: draft-07, the input side); unrepresentable parts
 * (a transform) are listed as accepting anything rather than refused.
 */
const SDK_LISTING = { target: 'draft-7', io: 'input', unrepresentable: 'any' } as const;

/** The parts of the SDK's McpServer this module uses. */
export interface ToolRegistrar {
  registerTool(name: string, config: Record<string, unknown>, callback: (...args: never[]) => unknown): unknown;
}

type SchemaLike = { safeParseAsync?: unknown; _zod?: unknown } | Record<string, unknown>;

/** A Zod 4 object schema from `inputSchema` (a schema or a raw shape); undefined for anything else. */
function zod4Object(inputSchema: SchemaLike): z.ZodType | undefined {
  if (typeof inputSchema !== 'object' || inputSchema === null) return undefined;
  if ('_zod' in inputSchema) return inputSchema as unknown as z.ZodType;
  const values = Object.values(inputSchema);
  const shape = values.length > 0 && values.every((value) => typeof value === 'object' && value !== null && '_zod' in value);
  return shape ? z.object(inputSchema as Record<string, z.ZodType>) : undefined;
}

/** The arguments a handler receives for an input schema (a Zod schema or a raw shape). */
export type ArgsOf<Schema> = Schema extends z.ZodType ? z.output<Schema>
  : Schema extends z.ZodRawShape ? z.output<z.ZodObject<Schema>>
  : Record<string, unknown>;

/** The tool config `registerTool` takes: the SDK's, with the input schema typed. */
export type ToolConfig<Schema> = Record<string, unknown> & { inputSchema?: Schema };

/**
 * `server.registerTool` with envelopes for every failure, including arguments
 * that fail the input schema: those become a `<validation_error>` naming each
 * field with the value sent, where the SDK alone answers with plain text.
 *
 * ```ts
 * registerTool(server, 'get_invoice', { description: '...', inputSchema: { id: z.string().uuid() } },
 *   async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}` }));
 * ```
 * For a Zod 4 input schema (from `zod` 4 or `zod/v4`) the SDK is given a
 * schema that accepts any object but lists the same JSON Schema, and the
 * arguments are checked here; other schemas are left to the SDK to check.
 */
export function registerTool<Schema extends z.ZodRawShape | z.ZodType | undefined = undefined>(
  server: ToolRegistrar, name: string, config: ToolConfig<Schema>,
  handler: (args: ArgsOf<Schema>, extra: any) => unknown, options: EnvelopeToolOptions = {}): unknown {
  const schema = config.inputSchema === undefined ? undefined : zod4Object(config.inputSchema as SchemaLike);
  if (schema === undefined) return server.registerTool(name, config, withEnvelope(name, handler, options));

  // What clients list is the original schema's JSON Schema, made as the SDK
  // makes it (draft-07, input side), carried as metadata (Zod copies a
  // schema's metadata into its JSON Schema); what the SDK checks accepts any
  // object, so a bad call reaches the check below with its arguments intact.
  const { $schema: _dialect, ...listed } = z.toJSONSchema(schema, SDK_LISTING) as Record<string, unknown>;
  const acceptAnything = z.looseObject({}).meta(listed);
  // The JSON Schema tools/list sends for this tool, byte for byte: the one the
  // model read, from which the core words each field's "Expected …".
  const inputSchema = z.toJSONSchema(acceptAnything, SDK_LISTING) as Record<string, unknown>;
  const checked = async (args: unknown, extra: unknown) => {
    const parsed = await schema.safeParseAsync(args, { reportInput: true });
    if (!parsed.success) {
      return validationError(options.action ?? name, parsed.error, { input: args, inputSchema, locale: options.locale });
    }
    return handler(parsed.data as ArgsOf<Schema>, extra);
  };
  return server.registerTool(name, { ...config, inputSchema: acceptAnything }, withEnvelope(name, checked, options));
}

/** The parts of the SDK's McpServer `envelopeServer` uses: its low-level `Server` and the list-changed notice. */
export interface EnvelopeServerHost {
  readonly server: {
    setRequestHandler(requestSchema: any, handler: (request: any, extra: any) => unknown): void;
    assertCanSetRequestHandler(method: string): void;
  };
  sendToolListChanged(): void;
}

/** Options of `envelopeServer`. */
export interface EnvelopeServerOptions {
  /** The rendering of the UNKNOWN_ACTION envelope (xml by default). */
  format?: Format;
}

type RequestHandler = (request: any, extra: any) => unknown;

/** The method a request schema of the SDK's names (its `method` literal; Zod 4, or Zod 3's `_def`). */
function methodOf(requestSchema: any): unknown {
  const literal = requestSchema?.shape?.method;
  return literal?.value ?? literal?._def?.value;
}

/**
 * Answers a call of a tool the server does not list as the core's
 * UNKNOWN_ACTION envelope (`unknownTool`), naming the tools it does list,
 * instead of the SDK's "MCP error -32602: Tool NAME not found": a model never
 * reads a JSON-RPC error, only what its client makes of one. Call it on a new
 * McpServer, before the first tool is registered: the SDK installs its
 * `tools/call` handler with the first tool (through its `Server`'s public
 * `setRequestHandler`), and this wraps that handler as it is installed.
 *
 * ```ts
 * const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }));
 * registerTool(server, 'get_invoice', { inputSchema: { id: z.string() } }, handler);
 * ```
 * The names are what `tools/list` sends (registered and enabled, in its
 * order), read again after the SDK announces a change to the list. A
 * `tools/call` request without a name or with non-object arguments stays the
 * SDK's JSON-RPC -32602.
 */
export function envelopeServer<Host extends EnvelopeServerHost>(server: Host, options: EnvelopeServerOptions = {}): Host {
  const format = formatOf(options);
  const low = server.server;
  try {
    low.assertCanSetRequestHandler('tools/call');
  } catch {
    throw new TypeError('envelopeServer(server) must be called before the first tool is registered: '
      + 'the SDK installs its tools/call handler with the first tool');
  }
  let listTools: RequestHandler | undefined;
  let names: string[] | undefined;
  const listed = async (extra: unknown): Promise<string[]> => {
    if (names === undefined && listTools !== undefined) {
      const { tools } = await listTools({ method: 'tools/list', params: {} }, extra) as { tools: { name: string }[] };
      names = tools.map((tool) => tool.name);
    }
    return names ?? [];
  };

  const setRequestHandler = low.setRequestHandler;
  low.setRequestHandler = function (this: unknown, requestSchema: unknown, handler: RequestHandler) {
    const method = methodOf(requestSchema);
    if (method === 'tools/list') listTools = handler;
    const installed: RequestHandler = method !== 'tools/call' ? handler : async (request, extra) => {
      const tool = request?.params?.name;
      if ((await listed(extra)).includes(tool)) return handler(request, extra);
      names = undefined; // a change the SDK did not announce (an `enabled` set by hand): read the list again
      const tools = await listed(extra);
      return tools.includes(tool) ? handler(request, extra) : unknownTool({ tool: String(tool), tools, format });
    };
    return setRequestHandler.call(this, requestSchema, installed);
  };
  const sendToolListChanged = server.sendToolListChanged;
  server.sendToolListChanged = function (this: unknown) {
    names = undefined;
    return sendToolListChanged.call(this);
  };
  return server;
}
