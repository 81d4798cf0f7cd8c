// FastMCP integration (`mcp-envelope/fastmcp`): FastMCP's tools answer every
// way a call can fail with an envelope, as `mcp-envelope/mcp` does for the
// MCP SDK (tool-call.ts holds what the two share). FastMCP has no result
// middleware (`onToolCall` runs before a call only) and checks arguments
// before any hook, so the integration goes in where FastMCP takes a tool:
// the tool it is handed lists the same JSON Schema but accepts anything, and
// its `execute` checks the arguments with the tool's own Standard Schema and
// maps what happens. A call of a tool the server does not list never reaches
// a tool: FastMCP answers it from each session's request handler, so
// `envelopeFastMCP` wraps that handler in each session's MCP SDK `Server`
// (`envelopeTransport` answers it on a transport instead).

import { AsyncLocalStorage } from 'node:async_hooks';
import { FastMCP, FastMCPSession } from 'fastmcp';
import { answerUnknownTool, handlerMap, listedTools, wrapEntries } from './handler-map.js';
import { unknownTool } from './recovery.js';
import { formatOf } from './render.js';
import { tracedToolCall } from './telemetry.js';
import type { OpenTelemetryApi } from './telemetry.js';
import { acceptingAnything, checkArguments, checkOptions, hasJsonSchema, ledgerOf, outcomeOf, resultFor } from './tool-call.js';
import type { Outcome } from './tool-call.js';
import type { CallToolResult, EnvelopeToolOptions, Format, InferOutput, StandardJSONSchemaV1, UnknownToolAnswerKind } from './types.js';

export { UnknownToolCallError } from './handler-map.js';

export type { EnvelopeToolOptions, InternalFailure, StandardJSONSchemaV1, StandardSchemaV1 } from './types.js';

/** The part of a FastMCP server `addTool` uses. */
export interface ToolHost {
  addTool(tool: any): void;
}

/** The tool a FastMCP server's `addTool` takes: FastMCP's own `Tool`, the server's auth type kept. */
export type ToolOf<Server> = Server extends { addTool(tool: infer Tool): void } ? Tool : never;

/** The context FastMCP hands a tool's `execute` (its `log`, `session`, `reportProgress`, `signal`, ...). */
export type ContextOf<Server> = ToolOf<Server> extends { execute: (args: any, context: infer Context) => any } ? Context : unknown;

/**
 * A FastMCP tool (`name`, `description`, `parameters`, `execute`,
 * `annotations`, `timeoutMs`, `canAccess`, ... as FastMCP's `Tool` types
 * them when `Base` is that type) whose `execute` gets the arguments typed
 * from `parameters` and may also return or throw this package's results
 * and builders.
 */
export type EnvelopeTool<Params, Context = any, Base = Record<string, unknown>> = Omit<Base, 'execute' | 'parameters'> & {
  name: string;
  parameters?: Params;
  execute: (args: InferOutput<Params>, context: Context) => unknown;
};

/** The tool `envelopeTool` hands FastMCP. */
export type WrappedTool<Context = any> = {
  [key: string]: any;
  name: string;
  parameters?: StandardJSONSchemaV1;
  execute: (args: any, context: Context) => Promise<any>;
};

/**
 * A thrown FastMCP `UserError`, or an error of a class extending it, told by
 * the class's name so any copy of FastMCP counts: its message is meant for
 * the client.
 */
function isUserError(value: unknown): value is Error & { extras?: unknown } {
  if (!(value instanceof Error)) return false;
  for (let proto = Object.getPrototypeOf(value); proto !== null && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === 'UserError') return true;
  }
  return false;
}

/**
 * A thrown `UserError` as a framework's error for the model, by its text:
 * the core answers a TOOL_ERROR envelope stating it, or the text itself when
 * it already is an envelope (`new UserError(String(error(...)))`).
 */
function withUserError(outcome: Outcome): Outcome {
  if (!('thrown' in outcome) || !isUserError(outcome.thrown)) return outcome;
  return { userError: String(outcome.thrown.message) };
}

/** A `UserError`'s `extras` stay the result's `structuredContent`, as FastMCP sends them. */
function withExtras(result: unknown, outcome: Outcome): unknown {
  if (!('thrown' in outcome) || !isUserError(outcome.thrown)) return result;
  const { extras } = outcome.thrown;
  const isObject = extras !== null && typeof extras === 'object' && !Array.isArray(extras);
  return isObject && isResult(result) ? { ...(result as CallToolResult), structuredContent: extras } : result;
}

/** A returned string or nothing, as the result FastMCP makes of it, so the ledger sees the success. */
function asResult(outcome: Outcome): Outcome {
  if (!('returned' in outcome)) return outcome;
  const { returned } = outcome;
  if (typeof returned === 'string') return { returned: { content: [{ text: returned, type: 'text' }] } };
  if (returned === undefined || returned === null) return { returned: { content: [] } };
  return outcome;
}

const isResult = (value: unknown) => Array.isArray((value as CallToolResult | null)?.content);

/**
 * FastMCP's `strictJsonSchema` (xsschema's), which it applies to every input
 * schema it lists: `additionalProperties: false` on the root and on each
 * property that is an object, recursively.
 */
function strictJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown> | null | undefined;
  return {
    ...schema,
    additionalProperties: false,
    properties:
      properties != null
        ? Object.fromEntries(
            Object.entries(properties).map(([key, value]) => [
              key,
              value != null && typeof value === 'object' && (value as { type?: unknown }).type === 'object'
                ? strictJsonSchema(value as Record<string, unknown>)
                : value,
            ]),
          )
        : properties,
  };
}

/** The JSON Schema FastMCP sends in `tools/list` for a tool's parameters: draft-07, made strict. */
const fastmcpListing = (schema: StandardJSONSchemaV1) => strictJsonSchema(schema['~standard'].jsonSchema.input({ target: 'draft-07' }));

/**
 * The tool as FastMCP's `tools/list` sends it (its own handler's fields), for
 * the diff against a lockfile.
 */
function listingOf(tool: { name: string }, inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { name, description, annotations, outputSchema, _meta: meta } = tool as Record<string, any>;
  return {
    name,
    inputSchema,
    ...(description === undefined ? {} : { description }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(hasJsonSchema(outputSchema) ? { outputSchema: outputSchema['~standard'].jsonSchema.output({ target: 'draft-07' }) } : {}),
    ...(meta === undefined ? {} : { _meta: meta }),
  };
}

/**
 * The tool `addTool` hands FastMCP: `parameters` that list the same JSON
 * Schema and accept anything, and an `execute` that checks the arguments
 * with the original schema and answers every failure with an envelope.
 */
export function envelopeTool<Params extends StandardJSONSchemaV1 | undefined = undefined, Context = any>(
  tool: EnvelopeTool<Params, Context>,
  options: EnvelopeToolOptions = {},
): WrappedTool<Context> {
  checkOptions(options);
  const { name, parameters, execute } = tool;
  if (parameters !== undefined && !hasJsonSchema(parameters)) {
    throw new TypeError(
      `tool '${name}': parameters must be a Standard Schema that gives its JSON Schema (~standard.jsonSchema): ` +
        'Zod 4.2 or later, ArkType, or Valibot through toStandardJsonSchema from @valibot/to-json-schema',
    );
  }
  let sent: Record<string, unknown> | undefined;
  const inputSchema = () => (sent ??= fastmcpListing(parameters!));
  const { contract } = options;
  const deltas = contract === undefined ? undefined : () => contract.deltasFor(name, () => [listingOf(tool, inputSchema())]);
  const check = { action: options.action ?? name, inputSchema, locale: options.locale, deltas };
  const run = async (args: unknown, context: Context) => {
    if (parameters === undefined) return execute(args as InferOutput<Params>, context);
    const checked = await checkArguments(parameters, args, check);
    return 'result' in checked ? checked.result : execute(checked.value as InferOutput<Params>, context);
  };
  const wrapped: WrappedTool<Context> = {
    ...tool,
    ...(parameters === undefined ? {} : { parameters: acceptingAnything(parameters) }),
    execute: async (args: unknown, context: Context) => {
      const raw = await outcomeOf(() => run(args, context));
      // The call's ledger, picked once from the request the session is answering (its `_meta`, session, headers).
      const ledger = ledgerOf(options.ledger, context, answering.getStore() ?? context);
      const result = await resultFor(asResult(withUserError(raw)), name, args, { ...options, ledger });
      if (ledger !== undefined && !isResult(result)) {
        // A content item or structured output: a success FastMCP wraps itself.
        try {
          await ledger.success?.(name);
        } catch {
          // A ledger that fails: the result still goes out.
        }
      }
      return withExtras(result, raw);
    },
  };
  enveloped.add(wrapped);
  return wrapped;
}

/** The tools `envelopeTool` made, which `envelopeFastMCP` hands FastMCP as they are. */
const enveloped = new WeakSet<object>();

/**
 * `server.addTool(tool)` with envelopes for every failure: arguments that
 * fail the tool's `parameters` (a Standard Schema that gives its JSON
 * Schema: Zod 4.2+, ArkType, Valibot through `toStandardJsonSchema`) get a
 * `<validation_error>` worded from the JSON Schema `tools/list` sends, where
 * FastMCP alone answers a JSON-RPC -32602 before any hook runs; a thrown
 * `UserError` becomes a tool error stating its message; a returned or thrown
 * builder or result is sent as itself; a system error, an HTTP client's
 * status or a timeout gets the core's code for it, a plain `Error` is its
 * author's words (`thrownMessages`); any other exception becomes
 * INTERNAL_ERROR, its text going to `logger`, never to the model.
 *
 * ```ts
 * addTool(server, { name: 'get_invoice', parameters: z.object({ id: z.string() }),
 *   execute: async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}` }) }, { ledger });
 * ```
 */
export function addTool<Server extends ToolHost, Params extends StandardJSONSchemaV1 | undefined = undefined>(
  server: Server,
  tool: EnvelopeTool<Params, ContextOf<Server>, ToolOf<Server>>,
  options: EnvelopeToolOptions = {},
): void {
  server.addTool(envelopeTool(tool as EnvelopeTool<Params, ContextOf<Server>>, options));
}

/** Options of `envelopeFastMCP`: the tool options for every tool (a tool made by `envelopeTool` or `addTool` keeps its own), and the server's. */
export interface EnvelopeFastMCPOptions extends Omit<EnvelopeToolOptions, 'action'> {
  /**
   * The answer to a call of a tool the server does not list: `protocol-error`
   * (the default), the JSON-RPC error -32602 the MCP specification asks for,
   * naming the server's tools, the UNKNOWN_ACTION envelope in its `data`; or
   * `tool-result`, the `isError` result holding that envelope (SEP-2145).
   */
  unknownTool?: UnknownToolAnswerKind;
  /**
   * The application's OpenTelemetry API (`import * as opentelemetry from
   * '@opentelemetry/api'`): each `tools/call` then runs in a server span that
   * continues the trace context in the request's `_meta` and carries the
   * core's attributes for its answer (docs/telemetry.md). FastMCP opens none.
   */
  opentelemetry?: OpenTelemetryApi;
}

/** The parts of a FastMCP server `envelopeFastMCP` wraps. */
export interface FastMCPHost extends ToolHost {
  addTools?(tools: any[]): void;
}

/**
 * The SDK's `extra` of the `tools/call` a session is answering, for a
 * `ledger` function: FastMCP hands a tool a context of its own, without the
 * request's `_meta` or headers.
 */
const answering = new AsyncLocalStorage<unknown>();

/** Each tool `envelopeFastMCP` handed a FastMCP server, with that server's options, so its sessions answer unknown tools so. */
const toolOptions = new WeakMap<object, EnvelopeFastMCPOptions>();
const servers = new WeakSet<object>();

/**
 * Makes every tool of a FastMCP server answer every failure with an
 * envelope, as `addTool` does one tool, and every session answer a call of
 * a tool the server does not list as the core says (`unknownTool`: by
 * default the JSON-RPC -32602 naming the listed tools, where FastMCP sends
 * -32601). Call it right after `new FastMCP(...)`: the tools added from then
 * on (`server.addTool`, `server.addTools`) are handed to FastMCP through
 * `envelopeTool`, and `tools/list` is what FastMCP lists for them unwrapped.
 * Whatever the transport (`server.start(...)`, `server.connect(...)`).
 *
 * ```ts
 * const server = envelopeFastMCP(new FastMCP({ name: 'billing', version: '1.0.0' }));
 * server.addTool({ name: 'get_invoice', parameters: z.object({ id: z.string() }),
 *   execute: async ({ id }) => toolError('NOT_FOUND', { message: `No invoice ${id}` }) });
 * ```
 * FastMCP keeps a server's tools where no host can reach them, so tools
 * added before the call are FastMCP's alone; a second call is refused.
 */
export function envelopeFastMCP<Server extends FastMCPHost>(server: Server, options: EnvelopeFastMCPOptions = {}): Server {
  if (!(server instanceof FastMCP)) {
    throw new TypeError(
      'envelopeFastMCP(server) takes a FastMCP server of the fastmcp package this package resolves ' +
        '(one copy of fastmcp: check `npm ls fastmcp`)',
    );
  }
  if (servers.has(server))
    throw new TypeError('envelopeFastMCP(server) was already called on this server: pass every option in that one call');
  checkOptions(options);
  // The core's own refusal of an answer it does not know, now rather than on the first unknown tool.
  unknownTool({ tool: 'unknown', tools: [], format: formatOf(options), answer: options.unknownTool });
  servers.add(server);
  hookSessions();
  const wrap = (tool: any) => {
    const wrapped = envelopedTool(tool, options);
    toolOptions.set(wrapped, options);
    return wrapped;
  };
  const { addTool, addTools } = server;
  server.addTool = function (this: Server, tool: any) {
    return addTool.call(this, wrap(tool));
  };
  if (typeof addTools === 'function') {
    server.addTools = function (this: Server, tools: any[]) {
      return addTools.call(this, Array.isArray(tools) ? tools.map(wrap) : tools);
    };
  }
  return server;
}

/**
 * The tool `envelopeFastMCP` hands FastMCP: `envelopeTool`'s, or, for
 * `parameters` that give no JSON Schema of their own (FastMCP converts some
 * itself, a plain Valibot schema through @valibot/to-json-schema), the same
 * `execute` with the original `parameters`, which FastMCP then checks itself:
 * a server that runs without the integration runs with it.
 */
function envelopedTool(tool: any, options: EnvelopeToolOptions): WrappedTool {
  if (enveloped.has(tool)) return tool;
  if (tool?.parameters === undefined || hasJsonSchema(tool.parameters)) return envelopeTool(tool, options);
  const wrapped = { ...envelopeTool({ ...tool, parameters: undefined }, options), parameters: tool.parameters };
  enveloped.add(wrapped);
  return wrapped;
}

/** Marks FastMCPSession's prototype hooked, so two copies of this package hook it once. */
const HOOKED = Symbol.for('mcp-envelope/fastmcp-sessions');

/**
 * Each FastMCP session installs its `tools/call` handler (in its own MCP
 * SDK `Server`, `session.server`) from `setupToolHandlers(tools)`, in its
 * constructor, before any transport is connected, and again on each change
 * to the tool list: a session whose tools include one `envelopeFastMCP`
 * handed FastMCP gets that handler wrapped there, before its first request.
 */
function hookSessions(): void {
  const prototype = FastMCPSession.prototype as unknown as Record<string | symbol, unknown>;
  if (prototype[HOOKED] === true) return;
  const setup = prototype.setupToolHandlers as (this: FastMCPSession, tools: unknown[]) => unknown;
  if (typeof setup !== 'function') {
    throw new TypeError(
      'envelopeFastMCP(server): this fastmcp has no FastMCPSession.setupToolHandlers (fastmcp 4.20.16 is the version tested)',
    );
  }
  Object.defineProperty(prototype, HOOKED, { value: true });
  prototype.setupToolHandlers = function (this: FastMCPSession, tools: unknown[]) {
    const installed = setup.call(this, tools);
    const options = Array.isArray(tools)
      ? tools.map((tool) => toolOptions.get(tool as object)).find((found) => found !== undefined)
      : undefined;
    const handlers = handlerMap(this.server);
    if (options !== undefined && handlers !== undefined) wrapToolsCall(handlers, options);
    return installed;
  };
}

/**
 * Wraps a session's `tools/call` handler: a tool its `tools/list` does not
 * list gets the core's answer, any other call FastMCP's; with
 * `opentelemetry`, either in its `tools/call` span.
 */
function wrapToolsCall(handlers: Map<string, (request: any, extra: any) => unknown>, options: EnvelopeFastMCPOptions): void {
  const format = formatOf(options);
  wrapEntries(handlers, 'tools/call', (fastmcpHandler) => async (request, extra) => {
    const name: unknown = request?.params?.name;
    if (typeof name !== 'string') return fastmcpHandler(request, extra);
    const answer = async () => {
      const tools = (await listedTools(handlers, request, extra)).map((tool) => tool.name);
      if (tools.includes(name)) return answering.run(extra, () => fastmcpHandler(request, extra));
      return answerUnknownTool(name, tools, { format, unknownTool: options.unknownTool });
    };
    const otel = options.opentelemetry;
    return otel === undefined ? answer() : tracedToolCall(otel, name, request, answer);
  });
}

/** The parts of an MCP transport (the SDK's `Transport`) `envelopeTransport` uses. */
export interface TransportLike {
  send(message: any, options?: any): Promise<void>;
  onmessage?: ((message: any, extra?: any) => void) | undefined;
}

/** Options of `envelopeTransport`. */
export interface EnvelopeTransportOptions {
  /** The rendering of the UNKNOWN_ACTION envelope (xml by default). */
  format?: Format;
  /**
   * The answer to a call of a tool the server does not list: `protocol-error`
   * (the default), the JSON-RPC error -32602 the MCP specification asks for,
   * naming the server's tools, the UNKNOWN_ACTION envelope in its `data`; or
   * `tool-result`, the `isError` result holding that envelope (SEP-2145).
   */
  unknownTool?: UnknownToolAnswerKind;
}

type Message = { jsonrpc?: string; id?: string | number; method?: string; params?: any; result?: any; error?: any };

/**
 * Answers a call of a tool the server does not list as the core's
 * UNKNOWN_ACTION envelope (`unknownTool`), naming the tools it does list,
 * instead of the JSON-RPC error the server sent (FastMCP's -32601 "Unknown
 * tool: NAME"): a model never reads a JSON-RPC error, only what its client
 * makes of one. Wrap the transport before the server connects to it:
 *
 * ```ts
 * await server.connect(envelopeTransport(new StdioServerTransport()));
 * ```
 * FastMCP answers the call from its request handler, set up when a session
 * starts, so the only way in is the transport (`server.connect(transport)`;
 * the transports `server.start()` makes itself cannot be wrapped). The names
 * are what the server's own `tools/list` answers at that moment, asked on
 * the same transport and never sent to the client. Any other message, and an
 * error about a tool the server lists, passes unchanged.
 */
export function envelopeTransport<Transport extends TransportLike>(
  transport: Transport,
  options: EnvelopeTransportOptions = {},
): Transport {
  const format = formatOf(options);
  // tools/call requests not answered yet: their id, the tool named, the transport's extra for the request.
  const calls = new Map<string | number, { tool: unknown; extra: unknown }>();
  const lists = new Map<string, (response: Message) => void>();
  let asked = 0;

  const received = transport.onmessage;
  // The SDK's Protocol, connecting, calls the onmessage it finds before handling each message itself.
  transport.onmessage = (message: Message, extra?: unknown) => {
    if (message?.method === 'tools/call' && message.id !== undefined) calls.set(message.id, { tool: message.params?.name, extra });
    if (message?.method === 'notifications/cancelled') calls.delete(message.params?.requestId);
    received?.call(transport, message, extra);
  };

  /** The server's answer to a tools/list request sent to it on this transport, never reaching the client. */
  const ask = (params: Record<string, unknown>, extra: unknown) =>
    new Promise<Message>((resolve) => {
      asked += 1;
      const id = `mcp-envelope/tools-list/${asked}`;
      lists.set(id, resolve);
      transport.onmessage?.({ jsonrpc: '2.0', id, method: 'tools/list', params }, extra);
    });
  const listed = async (extra: unknown): Promise<string[] | undefined> => {
    const names: string[] = [];
    let cursor: unknown;
    for (let page = 0; page < 100; page += 1) {
      const response = await ask(cursor === undefined ? {} : { cursor }, extra);
      if (!Array.isArray(response.result?.tools)) return undefined;
      names.push(...response.result.tools.map((tool: { name: unknown }) => String(tool.name)));
      cursor = response.result.nextCursor;
      if (cursor === undefined || cursor === null) return names;
    }
    return names;
  };

  const send = transport.send;
  transport.send = async function (this: unknown, message: Message, sendOptions?: unknown) {
    const id = message?.id;
    const answering = typeof id === 'string' ? lists.get(id) : undefined;
    if (answering !== undefined) {
      lists.delete(id as string);
      return answering(message);
    }
    const call = id === undefined || message.method !== undefined ? undefined : calls.get(id);
    if (call !== undefined) {
      calls.delete(id!);
      if (message.error !== undefined) {
        const tools = await listed(call.extra);
        if (tools !== undefined && !tools.includes(call.tool as string)) {
          const answer = unknownTool({ tool: String(call.tool), tools, format, answer: options.unknownTool });
          return send.call(transport, { jsonrpc: '2.0', id, ...answer }, sendOptions);
        }
      }
    }
    return send.call(transport, message, sendOptions);
  };
  return transport;
}
