// MCP SDK integration (`mcp-envelope/mcp`): wraps `McpServer.registerTool`
// callbacks, of SDK 1.x (`@modelcontextprotocol/sdk`) and 2.x
// (`@modelcontextprotocol/server`) alike, so every way a handler can fail
// reaches the model as an envelope, and no exception text (which can name a
// password, a path, a host) does. What a call's outcome becomes is
// tool-call.ts's, shared with the FastMCP integration.

import * as z from 'zod/v4';
import { acceptingAnything, checkArguments, checkOptions, hasJsonSchema, outcomeOf, resultFor } from './tool-call.js';
import { formatOf } from './render.js';
import { unknownTool } from './recovery.js';
import { validationError } from './validation.js';
import { LockedContract } from './contract.js';
import type { ToolList } from './contract.js';
import type { CallToolResult, ContractDelta, EnvelopeToolOptions, Format, InferOutput, StandardJSONSchemaV1, StandardSchemaV1 } from './types.js';

export type { EnvelopeToolOptions, InternalFailure, StandardJSONSchemaV1, StandardSchemaV1 } from './types.js';
export { resultFor } from './tool-call.js';

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
    return resultFor(await outcomeOf(() => handler(...args)), tool, toolArgs, options) as CallToolResult;
  };
}

/**
 * How SDK 1.x's McpServer writes a Zod 4 input schema into `tools/list`
 * (its `toJsonSchemaCompat`: draft-07, the input side); unrepresentable parts
 * (a transform) are listed as accepting anything rather than refused.
 */
const SDK1_LISTING = { target: 'draft-7', io: 'input', unrepresentable: 'any' } as const;

/** The parts of the SDK's McpServer this module uses. */
export interface ToolRegistrar {
  registerTool(name: string, config: Record<string, unknown>, callback: (...args: never[]) => unknown): unknown;
}

/** An input schema: a Standard Schema (Zod, Valibot, ArkType) or a raw shape of Zod fields. */
export type InputSchema = StandardSchemaV1 | Record<string, StandardSchemaV1>;

type SchemaLike = { safeParseAsync?: unknown; _zod?: unknown } | Record<string, unknown>;

/** A Zod 4 object schema from `inputSchema` (a schema or a raw shape); undefined for anything else. */
function zod4Object(inputSchema: SchemaLike): z.ZodType | undefined {
  if (typeof inputSchema !== 'object' || inputSchema === null) return undefined;
  if ('_zod' in inputSchema) return inputSchema as unknown as z.ZodType;
  const values = Object.values(inputSchema);
  const shape = values.length > 0 && values.every((value) => typeof value === 'object' && value !== null && '_zod' in value);
  return shape ? z.object(inputSchema as Record<string, z.ZodType>) : undefined;
}

/** A raw shape's output: a key whose schema's output allows `undefined` is optional, as Zod makes it. */
type ShapeOutput<Shape> = {
  [K in keyof Shape as undefined extends InferOutput<Shape[K]> ? never : K]: InferOutput<Shape[K]>;
} & {
  [K in keyof Shape as undefined extends InferOutput<Shape[K]> ? K : never]?: InferOutput<Shape[K]>;
};

/**
 * The arguments a handler receives for an input schema (a Standard Schema or
 * a raw shape), read from the schema's Standard Schema types, so they come
 * out the same whichever copy of Zod (or which validator) the schema is from.
 */
export type ArgsOf<Schema> = Schema extends StandardSchemaV1 ? InferOutput<Schema>
  : Schema extends Record<string, StandardSchemaV1> ? { [K in keyof ShapeOutput<Schema>]: ShapeOutput<Schema>[K] }
  : Record<string, unknown>;

/** The tool config `registerTool` takes: the SDK's, with the input schema typed. */
export type ToolConfig<Schema> = Record<string, unknown> & { inputSchema?: Schema };

/** SDK 1.x still has the deprecated `server.tool(...)`; 2.x removed it. */
const isSdk1 = (server: ToolRegistrar) => typeof (server as { tool?: unknown }).tool === 'function';

/**
 * `server.registerTool` with envelopes for every failure, including arguments
 * that fail the input schema: those become a `<validation_error>` naming each
 * field with the value sent, where the SDK alone answers with plain text
 * (1.x) or a JSON-RPC -32602 error (2.x).
 *
 * ```ts
 * registerTool(server, 'get_invoice', { description: '...', inputSchema: { id: z.string().uuid() } },
 *   async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}` }));
 * ```
 * The SDK is given a schema that accepts any object but lists the same JSON
 * Schema, and the arguments are checked here: with SDK 1.x for a Zod 4 input
 * schema (from `zod` 4 or `zod/v4`; other schemas are left to the SDK to
 * check), with SDK 2.x for any Standard Schema that gives its JSON Schema
 * (Zod 4.2 and later, ArkType, Valibot through `toStandardJsonSchema`) and
 * for a raw shape of Zod fields.
 */
export function registerTool<Schema extends InputSchema | undefined = undefined>(
  server: ToolRegistrar, name: string, config: ToolConfig<Schema>,
  handler: (args: ArgsOf<Schema>, extra: any) => unknown, options: EnvelopeToolOptions = {}): unknown {
  if (config.inputSchema === undefined) return server.registerTool(name, config, withEnvelope(name, handler, options));
  const register = isSdk1(server) ? sdk1Checked : sdk2Checked;
  const deltas = (extra: unknown) => lockedDeltas(server, name, extra);
  const checked = register(config.inputSchema as SchemaLike, name, handler as (args: unknown, extra: unknown) => unknown, options, deltas);
  if (checked === undefined) return server.registerTool(name, config, withEnvelope(name, handler, options));
  return server.registerTool(name, { ...config, inputSchema: checked.inputSchema }, withEnvelope(name, checked.callback, options));
}

type Handler = (args: unknown, extra: unknown) => unknown;
/** The contract deltas of the tool for a call (its `extra`), when `envelopeServer` was given a lockfile. */
type Deltas = (extra: unknown) => Promise<readonly ContractDelta[] | undefined>;
type Checked = { inputSchema: unknown; callback: (args: unknown, extra: unknown) => unknown } | undefined;

/**
 * SDK 1.x lists and checks Zod schemas only: the schema it is handed is a Zod
 * one that accepts any object and carries the original's JSON Schema, made as
 * the SDK makes it, as metadata (Zod copies a schema's metadata into its JSON
 * Schema); a bad call then reaches the check here with its arguments intact.
 */
function sdk1Checked(inputSchema: SchemaLike, name: string, handler: Handler, options: EnvelopeToolOptions, deltas: Deltas): Checked {
  const schema = zod4Object(inputSchema);
  if (schema === undefined) return undefined;
  const { $schema: _dialect, ...listed } = z.toJSONSchema(schema, SDK1_LISTING) as Record<string, unknown>;
  const acceptAnything = z.looseObject({}).meta(listed);
  // The JSON Schema tools/list sends for this tool, byte for byte: the one the
  // model read, from which the core words each field's "Expected …".
  const sent = z.toJSONSchema(acceptAnything, SDK1_LISTING) as Record<string, unknown>;
  const callback = async (args: unknown, extra: unknown) => {
    const parsed = await schema.safeParseAsync(args, { reportInput: true });
    if (!parsed.success) {
      const changed = await deltas(extra);
      return validationError(options.action ?? name, parsed.error,
        { input: args, inputSchema: sent, locale: options.locale, ...(changed === undefined ? {} : { deltas: changed }) });
    }
    return handler(parsed.data, extra);
  };
  return { inputSchema: acceptAnything, callback };
}

/**
 * SDK 2.x lists and checks any Standard Schema that gives its JSON Schema
 * (a raw shape it wraps in `z.object`, as done here): it is handed one that
 * accepts anything and lists the original's JSON Schema.
 */
function sdk2Checked(inputSchema: SchemaLike, name: string, handler: Handler, options: EnvelopeToolOptions, deltas: Deltas): Checked {
  const schema = hasJsonSchema(inputSchema) ? inputSchema : zod4Object(inputSchema) as unknown;
  if (!hasJsonSchema(schema)) return undefined;
  let sent: Record<string, unknown> | undefined;
  const listed = () => (sent ??= sdk2Listing(schema));
  const callback = async (args: unknown, extra: unknown) => {
    const check = { action: options.action ?? name, inputSchema: listed, locale: options.locale, deltas: () => deltas(extra) };
    const checked = await checkArguments(schema, args, check);
    return 'result' in checked ? checked.result : handler(checked.value, extra);
  };
  return { inputSchema: acceptingAnything(schema), callback };
}

/**
 * The JSON Schema SDK 2.x sends in `tools/list` for an input schema (its
 * `standardSchemaToJsonSchema`): draft 2020-12, the input side, `type:
 * "object"` first.
 */
function sdk2Listing(schema: StandardJSONSchemaV1): Record<string, unknown> {
  return { type: 'object', ...schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) };
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
  /**
   * The contract a model learned: a lockfile (`mcp-envelope contract lock`;
   * its text or parsed JSON; docs/contract-diff.md). A `<validation_error>`
   * of a tool registered with `registerTool` then also tells the model the
   * tool's BREAKING and RISKY changes since, computed once from this
   * server's `tools/list`. A lockfile the core cannot read is refused here.
   */
  lockfile?: ToolList | string;
}

/** Each enveloped server's lockfile and a way to list its tools, for `registerTool`'s argument checks. */
const contracts = new WeakMap<object, { contract: LockedContract; listTools: (extra: unknown) => unknown }>();

function lockedDeltas(server: object, tool: string, extra: unknown): Promise<readonly ContractDelta[] | undefined> {
  const locked = contracts.get(server);
  return locked === undefined ? Promise.resolve(undefined) : locked.contract.deltasFor(tool, () => locked.listTools(extra));
}

type RequestHandler = (request: any, extra: any) => unknown;

/** The method a request handler is set for: 2.x names it, 1.x gives a request schema (its `method` literal; Zod 4, or Zod 3's `_def`). */
function methodOf(requestSchema: any): unknown {
  if (typeof requestSchema === 'string') return requestSchema;
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
  if (options.lockfile !== undefined) {
    const contract = new LockedContract(options.lockfile);
    contracts.set(server, { contract, listTools: (extra) => listTools?.({ method: 'tools/list', params: {} }, extra) ?? { tools: [] } });
  }
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
