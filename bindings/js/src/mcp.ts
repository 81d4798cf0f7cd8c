// MCP SDK integration (`mcp-envelope/mcp`): one call, `envelopeServer`, makes
// every tool of an McpServer, of SDK 1.x (`@modelcontextprotocol/sdk`) and 2.x
// (`@modelcontextprotocol/server`) alike, answer every way a call can fail
// with an envelope, and no exception text (which can name a password, a path,
// a host) reaches the model; a low-level `Server` with handlers of its own
// is wrapped by low-level.ts. What a call's outcome becomes is tool-call.ts's,
// shared with the FastMCP integration.

import { LockedContract } from './lockfile.js';
import type { ToolList } from './lockfile.js';
import { answerUnknownTool, answeredForRevision, handlerMap, listedTools, wrapEntries } from './handler-map.js';
import type { RequestHandler } from './handler-map.js';
import { wrapLowLevel } from './low-level.js';
import type { LowLevelServer } from './low-level.js';
import { unknownTool } from './recovery.js';
import { formatOf } from './render.js';
import { checkOptions, outcomeOf, passesThrough, resultFor } from './tool-call.js';
import type { Outcome } from './tool-call.js';
import type { CallToolResult, EnvelopeToolOptions, InferOutput, StandardSchemaV1, UnknownToolAnswerKind } from './types.js';
import { tracedToolCall } from './telemetry.js';
import type { OpenTelemetryApi } from './telemetry.js';
import { validationError } from './validation.js';

export type { EnvelopeToolOptions, InternalFailure, StandardJSONSchemaV1, StandardSchemaV1 } from './types.js';
export { resultFor } from './tool-call.js';
export { UnknownToolCallError } from './handler-map.js';
export type { LowLevelServer } from './low-level.js';

/**
 * Marks a callback whose outcome already goes through `resultFor` (the output
 * of `withEnvelope`, or a wrapper `envelopeServer` put in), with the options
 * it applies, so no callback is wrapped twice. `Symbol.for`, so a callback
 * wrapped by another copy of this package counts too.
 */
const ENVELOPED = Symbol.for('mcp-envelope/enveloped');

type Marked = { readonly [ENVELOPED]?: { tool: string; options: EnvelopeToolOptions; original?: unknown } };
type Callback = ((...args: any[]) => unknown) & Marked;

/**
 * The result of a callback's outcome; the SDK's own URL elicitation request
 * goes as the request's revision wants it: the error rethrown for the SDK to
 * send (2025-11-25), or the `input_required` result (2026-07-28).
 */
function callbackResult(outcome: Outcome, tool: string, args: unknown, options: EnvelopeToolOptions, extra: unknown): unknown {
  if (passesThrough(outcome)) return answeredForRevision(extra, outcome.thrown);
  return resultFor(outcome, tool, args, options, extra);
}

/** `callback`, marked as going through `resultFor` for `tool` (and, for a wrapper `envelopeServer` made, the callback it wraps). */
function marked<F extends (...args: any[]) => unknown>(callback: F, tool: string, options: EnvelopeToolOptions, original?: unknown): F {
  Object.defineProperty(callback, ENVELOPED, { value: { tool, options, original } });
  return callback;
}

/**
 * Wraps a `registerTool` callback: returned results pass through; a thrown
 * builder or EnvelopeError becomes its own result; a thrown ZodError becomes
 * a `<validation_error>`; a system error, an HTTP client's status or a
 * timeout the core's code for it, and a plain `Error` its author's words
 * (`thrownMessages`); anything else becomes INTERNAL_ERROR with a fresh
 * correlation id, its text going to `logger`, never to the model. For the
 * options of one tool (its ledger, locale, action name) on a server that
 * `envelopeServer` already wraps whole; `envelopeServer` leaves a wrapped
 * callback as it is.
 *
 * ```ts
 * server.registerTool('get_invoice', { inputSchema: { id: z.string() } },
 *   withEnvelope('get_invoice', async ({ id }) => { ... }, { ledger }));
 * ```
 */
export function withEnvelope<Args extends unknown[]>(
  tool: string,
  handler: (...args: Args) => unknown,
  options: EnvelopeToolOptions = {},
): (...args: Args) => Promise<CallToolResult> {
  checkOptions(options);
  return marked(
    async (...args: Args) => {
      // The SDK calls `cb(args, extra)` for tools with an input schema and `cb(extra)` without.
      const toolArgs = args.length > 1 ? args[0] : undefined;
      return callbackResult(await outcomeOf(() => handler(...args)), tool, toolArgs, options, args.at(-1)) as CallToolResult;
    },
    tool,
    options,
  );
}

/** The parts of the SDK's McpServer this module uses. */
export interface ToolRegistrar {
  registerTool(name: string, config: Record<string, unknown>, callback: (...args: never[]) => unknown): unknown;
}

/** An input schema: a Standard Schema (Zod, Valibot, ArkType) or a raw shape of Zod fields. */
export type InputSchema = StandardSchemaV1 | Record<string, StandardSchemaV1>;

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
export type ArgsOf<Schema> = Schema extends StandardSchemaV1
  ? InferOutput<Schema>
  : Schema extends Record<string, StandardSchemaV1>
    ? { [K in keyof ShapeOutput<Schema>]: ShapeOutput<Schema>[K] }
    : Record<string, unknown>;

/** The tool config `registerTool` takes: the SDK's, with the input schema typed. */
export type ToolConfig<Schema> = Record<string, unknown> & { inputSchema?: Schema };

/**
 * `server.registerTool(name, config, withEnvelope(name, handler, options))`
 * on a server `envelopeServer` wraps (it is wrapped here if it is not yet):
 * the SDK gets the config as it is, so `tools/list` is what the server lists
 * without this package, and the tool gets the options of its own.
 *
 * ```ts
 * registerTool(server, 'get_invoice', { description: '...', inputSchema: { id: z.string().uuid() } },
 *   async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}` }), { ledger });
 * ```
 */
export function registerTool<Schema extends InputSchema | undefined = undefined>(
  server: ToolRegistrar,
  name: string,
  config: ToolConfig<Schema>,
  handler: (args: ArgsOf<Schema>, extra: any) => unknown,
  options: EnvelopeToolOptions = {},
): unknown {
  const callback = withEnvelope(name, handler as (...args: unknown[]) => unknown, options);
  if (!states.has(server)) install(server as unknown as EnvelopeServerHost, {}, false);
  return server.registerTool(name, config, callback);
}

/** The parts of the SDK's McpServer `envelopeServer` reads: its low-level `Server` (its request handler map) and its tools. */
export interface EnvelopeServerHost {
  readonly server: object;
}

/** Options of `envelopeServer`: the tool options for every tool (a tool wrapped by `withEnvelope` keeps its own), and the server's. */
export interface EnvelopeServerOptions extends Omit<EnvelopeToolOptions, 'action' | 'contract'> {
  /**
   * The answer to a call of a tool the server does not list: `protocol-error`
   * (the default), the JSON-RPC error -32602 the MCP specification asks for,
   * naming the server's tools, the UNKNOWN_ACTION envelope in its `data`; or
   * `tool-result`, the `isError` result holding that envelope (SEP-2145).
   */
  unknownTool?: UnknownToolAnswerKind;
  /**
   * The contract a model learned: a lockfile (`mcp-envelope contract lock`;
   * its text or parsed JSON; docs/contract-diff.md). A `<validation_error>`
   * then also tells the model the tool's BREAKING and RISKY changes since,
   * computed once from this server's `tools/list`. A lockfile the core cannot
   * read is refused here.
   */
  lockfile?: ToolList | string;
  /**
   * The application's OpenTelemetry API (`import * as opentelemetry from
   * '@opentelemetry/api'`): each `tools/call` then runs in a server span that
   * continues the trace context in the request's `_meta`, a failure's span
   * carrying `error.type` and the envelope's code, category, retryability
   * and correlation id (docs/telemetry.md). Off without it.
   */
  opentelemetry?: OpenTelemetryApi;
}

/** What `envelopeServer` keeps per server: its options (replaced when `registerTool` wrapped it first) and its lockfile. */
interface ServerState {
  options: EnvelopeServerOptions;
  contract: LockedContract | undefined;
  /** Whether `envelopeServer` itself was called (not only `registerTool`). */
  explicit: boolean;
}

const states = new WeakMap<object, ServerState>();

/** The SDK's private fields this module relies on (the same names in 1.32 and 2.4). */
interface SdkServer {
  server: unknown;
  _registeredTools?: Record<string, RegisteredTool>;
  _toolHandlersInitialized?: boolean;
  _maxToolInputElements?: number;
}

/** A tool as McpServer keeps it: 1.x calls `handler`, 2.x calls `executor`, which calls `handler`. */
interface RegisteredTool {
  enabled?: boolean;
  inputSchema?: unknown;
  handler?: unknown;
  executor?: unknown;
}

/**
 * Makes every tool of an McpServer (SDK 1.x or 2.x) answer every failure
 * with an envelope: an exception becomes INTERNAL_ERROR (its text goes to
 * `logger`, never to the model), unless its structure tells its kind (a
 * system error, an HTTP client's status, a timeout: the core's code for it)
 * or it is a plain `Error`, its author's words (`thrownMessages`);
 * arguments that fail the tool's input schema a `<validation_error>` naming
 * each field with the value sent, worded from the JSON Schema the server's
 * `tools/list` sends; a returned or thrown
 * envelope or builder is sent as itself; a call of a tool the server does not
 * list gets the core's answer (`unknownTool`: by default the JSON-RPC -32602
 * naming the listed tools). `tools/list` is unchanged.
 *
 * ```ts
 * const server = envelopeServer(new McpServer({ name: 'billing', version: '1.0.0' }, { capabilities: { tools: {} } }));
 * server.registerTool('get_invoice', { inputSchema: { id: z.string() } }, async ({ id }) => { ... });
 * ```
 * Call it once per server, before it connects, before or after its tools are
 * registered: it wraps the server's `tools/call` request handler where the
 * SDK keeps it (its `Server`'s request handler map, also catching a handler
 * the SDK installs later) and each tool's callback as it is called. A tool
 * registered through `withEnvelope` or this module's `registerTool` keeps
 * its own options. A `tools/call` request without a name or with arguments
 * that are not an object stays the SDK's to answer, as does any `tools/call`
 * handler the author set on the low-level `Server` instead of McpServer's.
 *
 * It also takes a low-level `Server` (SDK 1.x from 1.0 on, and 2.x) whose
 * author set `tools/call` and `tools/list` handlers of their own, before or
 * after they are set (low-level.ts): the tools are the ones its `tools/list`
 * handler lists, arguments are checked against each tool's listed
 * `inputSchema` before the handler runs, and what the handler throws
 * (a JSON-RPC error raised with the SDK's `McpError` too) is answered as an
 * McpServer tool's throw is.
 *
 * ```ts
 * const server = envelopeServer(new Server({ name: 'github', version: '1.0.0' }, { capabilities: { tools: {} } }));
 * server.setRequestHandler(CallToolRequestSchema, async (request) => { ... });
 * ```
 */
export function envelopeServer<Host extends EnvelopeServerHost | LowLevelServer>(server: Host, options: EnvelopeServerOptions = {}): Host {
  const state = states.get(server);
  if (state?.explicit) {
    throw new TypeError('envelopeServer(server) was already called on this server: pass every option in that one call');
  }
  const checked = checkServerOptions(options);
  if (state === undefined) return install(server, options, true, checked);
  Object.assign(state, { options, contract: checked, explicit: true });
  return server;
}

/** Refuses bad options when the server is wrapped, not when a call first fails; gives the lockfile's contract. */
function checkServerOptions(options: EnvelopeServerOptions): LockedContract | undefined {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`options must be an object such as { format: 'xml' }, not ${String(options)}`);
  checkOptions(options);
  // The core's own refusal of an answer it does not know, now rather than on the first unknown tool.
  unknownTool({ tool: 'unknown', tools: [], format: formatOf(options), answer: options.unknownTool });
  return options.lockfile === undefined ? undefined : new LockedContract(options.lockfile);
}

function install<Host extends EnvelopeServerHost | LowLevelServer>(
  server: Host,
  options: EnvelopeServerOptions,
  explicit: boolean,
  contract?: LockedContract,
): Host {
  const sdk = server as unknown as SdkServer;
  const handlers = handlerMap(sdk.server);
  if (handlers === undefined || typeof sdk._registeredTools !== 'object' || sdk._registeredTools === null) {
    // Not an McpServer: a low-level Server keeps the request handler map itself.
    const own = handlerMap(server);
    if (own === undefined) {
      throw new TypeError(
        'envelopeServer(server) takes an McpServer or a low-level Server of @modelcontextprotocol/sdk 1.x or ' +
          '@modelcontextprotocol/server 2.x: this server has no request handler map where those SDKs keep it',
      );
    }
    const state: ServerState = { options, contract, explicit };
    states.set(server, state);
    wrapLowLevel(own, state);
    return server;
  }
  const state: ServerState = { options, contract, explicit };
  states.set(server, state);
  wrapEntries(handlers, 'tools/call', (sdkHandler) => toolsCall(sdk, state, handlers, sdkHandler));
  return server;
}

const isArguments = (args: unknown) => args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args));

/**
 * The `tools/call` handler that answers an unknown tool and bad arguments,
 * makes sure the tool's callback is wrapped, and hands the call to the SDK's.
 */
function toolsCall(sdk: SdkServer, state: ServerState, handlers: Map<string, RequestHandler>, sdkHandler: RequestHandler): RequestHandler {
  return async (request, extra) => {
    const name: unknown = request?.params?.name;
    const otel = state.options.opentelemetry;
    const answer = () => answerToolsCall(sdk, state, handlers, sdkHandler, request, extra);
    return otel === undefined || typeof name !== 'string' ? answer() : tracedToolCall(otel, name, request, answer);
  };
}

/** The `tools/call` answer of `toolsCall`'s handler. */
async function answerToolsCall(
  sdk: SdkServer,
  state: ServerState,
  handlers: Map<string, RequestHandler>,
  sdkHandler: RequestHandler,
  request: any,
  extra: unknown,
): Promise<unknown> {
  const name: unknown = request?.params?.name;
  const args: unknown = request?.params?.arguments;
  // A handler the author set on the low-level Server, or a malformed request: the SDK's own answer.
  if (sdk._toolHandlersInitialized !== true || typeof name !== 'string' || !isArguments(args)) return sdkHandler(request, extra);
  const registered = sdk._registeredTools ?? {};
  const tool = Object.hasOwn(registered, name) ? registered[name] : undefined;
  if (tool === undefined || tool.enabled === false) {
    const tools = (await listedTools(handlers, request, extra)).map((listed) => listed.name);
    return answerUnknownTool(name, tools, { format: formatOf(state.options), unknownTool: state.options.unknownTool });
  }
  // A task tool (1.x `registerToolTask`: a handler object with `createTask`) or a task-augmented call answers with a
  // task, not a CallToolResult: the SDK's.
  if (typeof tool.handler !== 'function' || request?.params?.task !== undefined) return sdkHandler(request, extra);
  const options = toolOptions(tool, state);
  const invalid = await argumentsFailure(sdk, tool, name, args, options, state, () => listedTools(handlers, request, extra));
  if (invalid !== undefined) return resultFor({ returned: invalid }, name, args, options, extra);
  wrapCallback(tool, name, state);
  return sdkHandler(request, extra);
}

/** The options a tool's call is answered with: its own (`withEnvelope`), else the server's as they are now. */
function toolOptions(tool: RegisteredTool, state: ServerState): EnvelopeToolOptions {
  const own = (tool.handler as Callback | undefined)?.[ENVELOPED];
  // A wrapper `envelopeServer` made (it names the callback it wraps) applies the server's options.
  return own !== undefined && own.original === undefined ? own.options : state.options;
}

/**
 * The `<validation_error>` for arguments that fail the tool's input schema
 * (its Standard Schema, as the SDK checks it), worded from the JSON Schema
 * the server's own `tools/list` sends for the tool, byte for byte the one the
 * model read; undefined when they pass, or when the SDK is to answer them
 * itself (a schema without `~standard`, or more elements than the server's
 * `maxToolInputElements`, which it checks before any schema).
 */
async function argumentsFailure(
  sdk: SdkServer,
  tool: RegisteredTool,
  name: string,
  args: unknown,
  options: EnvelopeToolOptions,
  state: ServerState,
  listTools: () => Promise<{ name: string; inputSchema?: Record<string, unknown> }[]>,
): Promise<CallToolResult | undefined> {
  const schema = tool.inputSchema as Partial<StandardSchemaV1> | undefined;
  const validate = schema?.['~standard']?.validate;
  if (typeof validate !== 'function') return undefined;
  const max = sdk._maxToolInputElements;
  if (typeof max === 'number' && elementCount(args, max) > max) return undefined;
  // As the SDK checks them: missing arguments as an empty object.
  const parsed = await validate(args ?? {});
  if (parsed.issues === undefined) return undefined;
  const listed = await listTools();
  const inputSchema = listed.find((listedTool) => listedTool.name === name)?.inputSchema;
  const deltas = state.contract === undefined ? undefined : await state.contract.deltasFor(name, () => ({ tools: listed }));
  return validationError(
    options.action ?? name,
    { issues: parsed.issues },
    {
      input: args ?? {},
      locale: options.locale,
      ...(inputSchema === undefined ? {} : { inputSchema }),
      ...(deltas === undefined ? {} : { deltas }),
    },
  );
}

/** Array elements and object members in `value`, counted as the SDK counts them, stopping once past `max`. */
function elementCount(value: unknown, max: number): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (++count > max) return count;
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return count;
}

/**
 * Wraps the tool's callback so its outcome goes through `resultFor`, once:
 * checked on every call, since `tool.update({ callback })` replaces it. SDK
 * 1.x calls `tool.handler`; 2.x calls `tool.executor`, made from the
 * handler. A callback `withEnvelope` wrapped keeps its own options.
 */
function wrapCallback(tool: RegisteredTool, name: string, state: ServerState): void {
  const handler = tool.handler as Callback;
  const own = handler[ENVELOPED];
  if (own !== undefined && own.original === undefined) return;
  const sdk2 = typeof tool.executor === 'function';
  const current = (sdk2 ? tool.executor : handler) as Callback;
  const wrapped = current[ENVELOPED];
  if (wrapped !== undefined && wrapped.tool === name) return;
  // A wrapper made for the tool's former name (`update({ name })`) is made again from the callback it wraps.
  const original = (wrapped?.original ?? current) as Callback;
  const options = () => state.options;
  if (sdk2) {
    tool.executor = marked(
      async (args: unknown, ctx: unknown) => callbackResult(await outcomeOf(() => original(args, ctx)), name, args, options(), ctx),
      name,
      state.options,
      original,
    );
  } else {
    // `cb(args, extra)` for a tool with an input schema, `cb(extra)` without.
    tool.handler = marked(
      async (...args: unknown[]) =>
        callbackResult(await outcomeOf(() => original(...args)), name, args.length > 1 ? args[0] : undefined, options(), args.at(-1)),
      name,
      state.options,
      original,
    );
  }
}
