// `envelopeServer` for a server built on the MCP SDK's low-level `Server`
// (1.x from 1.0 on, and 2.x), whose author answers `tools/call` and
// `tools/list` with handlers of their own: the `tools/call` entry of its
// request handler map is wrapped, so an unknown tool, arguments that fail
// the tool's listed input schema and whatever the handler throws get the
// same answers as an McpServer's tools (mcp.ts).

import type { LockedContract } from './lockfile.js';
import { answerUnknownTool, answeredForRevision, wrapEntries } from './handler-map.js';
import type { RequestHandler } from './handler-map.js';
import { formatOf } from './render.js';
import { tracedToolCall } from './telemetry.js';
import type { OpenTelemetryApi } from './telemetry.js';
import { outcomeOf, passesThrough, resultFor } from './tool-call.js';
import type { CallToolResult, EnvelopeToolOptions, UnknownToolAnswerKind } from './types.js';
import { validationError } from './validation.js';

/** The options of `envelopeServer` this module reads: declared here, since mcp.ts imports this module. */
export interface LowLevelOptions extends EnvelopeToolOptions {
  unknownTool?: UnknownToolAnswerKind;
  opentelemetry?: OpenTelemetryApi;
}

/** The parts of the SDK's low-level `Server` `envelopeServer` types it by; its request handler map is read at run time. */
export interface LowLevelServer {
  setRequestHandler(...args: never[]): unknown;
}

/** What `envelopeServer` keeps per server and the wrapped handler reads on every call (the options can be replaced). */
export interface LowLevelState {
  options: LowLevelOptions;
  contract: LockedContract | undefined;
}

/** A tool as the server's own `tools/list` handler lists it. */
interface ListedTool {
  name: string;
  inputSchema?: unknown;
}

/** ajv's compiled check, as much of it as is used here. */
type Check = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** A compiled check per schema text; null for a schema ajv cannot compile (no pre-check for it). */
type Checks = Map<string, Check | null>;

/** Schemas kept compiled per server, at most: a server that lists ever-new schemas does not grow without bound. */
const MAX_CHECKS = 256;
/** `tools/list` pages read to find a tool, at most; past that the call goes to the handler unchecked. */
const MAX_PAGES = 64;

/**
 * Wraps the `tools/call` entry of a low-level `Server`'s handler map, now and
 * whenever the author sets one later (handler-map.ts's `wrapEntries`).
 */
export function wrapLowLevel(handlers: Map<string, RequestHandler>, state: LowLevelState): void {
  const checks: Checks = new Map();
  wrapEntries(handlers, 'tools/call', (handler) => async (request, extra) => {
    const name: unknown = request?.params?.name;
    const otel = state.options.opentelemetry;
    const answer = () => answerCall(state, checks, handlers, handler, request, extra);
    return otel === undefined || typeof name !== 'string' ? answer() : tracedToolCall(otel, name, request, answer);
  });
}

const isArguments = (args: unknown) => args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args));

/**
 * The answer to one `tools/call`: an unknown tool and arguments that fail the
 * listed schema are answered here; anything else runs the author's handler,
 * whose outcome goes through `resultFor` as an McpServer tool's does.
 */
async function answerCall(
  state: LowLevelState,
  checks: Checks,
  handlers: Map<string, RequestHandler>,
  handler: RequestHandler,
  request: any,
  extra: unknown,
): Promise<unknown> {
  const name: unknown = request?.params?.name;
  const args: unknown = request?.params?.arguments;
  // A malformed request, or a task-augmented call (answered with a task, not a result): the author's handler as is.
  if (typeof name !== 'string' || !isArguments(args) || request?.params?.task !== undefined) return handler(request, extra);
  const { options, contract } = state;
  const tools = await listedTools(handlers, name, request, extra);
  // Without a list to go by (no `tools/list` handler, or one that failed), every name is the handler's to judge.
  if (tools !== undefined) {
    const tool = tools.find((listed) => listed.name === name);
    if (tool === undefined) {
      return answerUnknownTool(
        name,
        tools.map((listed) => listed.name),
        { format: formatOf(options), unknownTool: options.unknownTool },
      );
    }
    const invalid = await argumentsFailure(checks, tool, args, options, contract, tools);
    if (invalid !== undefined) return resultFor({ returned: invalid }, name, args, options, extra);
  }
  const outcome = await outcomeOf(() => handler(request, extra));
  if (passesThrough(outcome)) return answeredForRevision(extra, outcome.thrown);
  return resultFor(outcome, name, args, options, extra);
}

/**
 * Every tool the server's own `tools/list` handler lists, asked with the
 * call's `_meta` and `extra` as mcp.ts asks it, its pages followed until the
 * tool is found or the list ends; undefined when the server has no such
 * handler, it fails, or it answers with something other than a list.
 */
async function listedTools(
  handlers: Map<string, RequestHandler>,
  name: string,
  request: any,
  extra: unknown,
): Promise<ListedTool[] | undefined> {
  const list = handlers.get('tools/list');
  if (list === undefined) return undefined;
  const meta: unknown = request?.params?._meta;
  const tools: ListedTool[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = { ...(meta === undefined ? {} : { _meta: meta }), ...(cursor === undefined ? {} : { cursor }) };
    let listed: { tools?: unknown; nextCursor?: unknown } | undefined;
    try {
      listed = (await list({ jsonrpc: '2.0', id: request?.id, method: 'tools/list', params }, extra)) as typeof listed;
    } catch {
      return undefined;
    }
    if (!Array.isArray(listed?.tools)) return undefined;
    for (const tool of listed.tools as unknown[]) {
      if (typeof (tool as ListedTool | null)?.name === 'string') tools.push(tool as ListedTool);
    }
    cursor = listed.nextCursor;
    if (typeof cursor !== 'string' || tools.some((tool) => tool.name === name)) return tools;
  }
  return undefined;
}

/**
 * The `<validation_error>` for arguments the tool's listed `inputSchema`
 * refuses, worded by the core from ajv's errors and that schema (the words
 * an McpServer's tool gets for the same schema); undefined when they pass or
 * when there is nothing to check them with.
 */
async function argumentsFailure(
  checks: Checks,
  tool: ListedTool,
  args: unknown,
  options: LowLevelOptions,
  contract: LockedContract | undefined,
  tools: ListedTool[],
): Promise<CallToolResult | undefined> {
  const inputSchema = tool.inputSchema;
  if (inputSchema === null || typeof inputSchema !== 'object' || Array.isArray(inputSchema)) return undefined;
  const check = await checkFor(checks, inputSchema as Record<string, unknown>);
  // Missing arguments are checked as an empty object, as the SDKs' McpServer checks them.
  const input = args ?? {};
  if (check === null || check(input)) return undefined;
  const deltas = contract === undefined ? undefined : await contract.deltasFor(tool.name, () => ({ tools }));
  return validationError(tool.name, check.errors ?? [], {
    input,
    inputSchema: inputSchema as Record<string, unknown>,
    locale: options.locale,
    ...(deltas === undefined ? {} : { deltas }),
  });
}

/**
 * The compiled check of a schema, by its JSON text: a server's `tools/list`
 * handler commonly builds its schemas anew on every call, so their identity
 * says nothing, and each is compiled once.
 */
async function checkFor(checks: Checks, schema: Record<string, unknown>): Promise<Check | null> {
  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch {
    return null; // a schema JSON cannot write (a cycle) is none ajv can compile either
  }
  const known = checks.get(key);
  if (known !== undefined) return known;
  const ajv = await ajvFor(schema.$schema);
  let check: Check | null = null;
  try {
    check = ajv === undefined ? null : ajv.compile(schema);
  } catch {
    // A schema ajv cannot compile (a dialect it does not know, a broken `$ref`, no code generation where eval is refused).
    check = null;
  }
  if (checks.size >= MAX_CHECKS) checks.clear();
  checks.set(key, check);
  return check;
}

/** An ajv instance, as much of it as is used here. */
interface Ajv {
  compile(schema: object): Check;
}

/** One instance per dialect, made on first use. */
const instances = new Map<string, Promise<Ajv | undefined>>();

/**
 * ajv for a schema's dialect (its `$schema`), with ajv-formats, loaded on the
 * first call that needs a check and only then. Both are dependencies of the
 * package, since a server on SDK 1.0 has neither; but none of the package's
 * other entry points, nor an McpServer (whose tools are checked by their own
 * schemas), loads them, so they pay nothing for them at load time. Undefined
 * where they cannot be loaded: no pre-check then.
 */
function ajvFor(dialect: unknown): Promise<Ajv | undefined> {
  const uri = typeof dialect === 'string' ? dialect : '';
  // Without `$schema`, 2020-12, the MCP specification's default dialect for tool schemas (SEP-1613).
  const version = uri === '' || uri.includes('2020-12') ? '2020-12' : uri.includes('2019-09') ? '2019-09' : 'draft-07';
  let ajv = instances.get(version);
  if (ajv === undefined) {
    // Each a literal specifier, so a bundler finds it.
    const module = version === '2020-12' ? import('ajv/dist/2020.js') : version === '2019-09' ? import('ajv/dist/2019.js') : import('ajv');
    ajv = Promise.all([module, import('ajv-formats')])
      .then(([classModule, formatsModule]) => instance(classModule, formatsModule))
      .catch(() => undefined);
    instances.set(version, ajv);
  }
  return ajv;
}

/** A CommonJS module's export: Node's interop puts `module.exports` under `default`; a bundler may put it one level down. */
const exported = (module: unknown): unknown => {
  const outer = (module as { default?: { default?: unknown } }).default;
  return outer?.default ?? outer;
};

/** An instance of the ajv class a module exports, with ajv-formats' formats. */
function instance(classModule: unknown, formatsModule: unknown): Ajv {
  const Class = exported(classModule) as new (options: Record<string, unknown>) => Ajv;
  const addFormats = exported(formatsModule) as (ajv: Ajv) => unknown;
  // As the SDK's own ajv provider sets it up (strict: false, for the schemas servers write; formats checked), and
  // as this package's tests give ajv's errors to the core: all of them, each with its schema (`verbose`), so the
  // fields come in the schema's order, as Zod's do. `addUsedSchema: false`: two schemas with one `$id` (a list built
  // anew, then changed) are each compiled on their own. ajv's warnings stay out of the server's log.
  const ajv = new Class({ allErrors: true, strict: false, verbose: true, addUsedSchema: false, logger: false });
  addFormats(ajv);
  return ajv;
}
