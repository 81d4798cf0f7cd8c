// Where the integrations meet an MCP SDK `Server` (SDK 1.x and 2.x, and the
// 1.x one each FastMCP session runs): its request handler map, keyed by
// method in both majors, whose `tools/call` entry is wrapped, and the
// answer to a call of a tool the server does not list, as the core words it.

import { answerForRevision, unknownTool } from './recovery.js';
import type { CallToolResult, Format, UnknownToolAnswerKind, UnknownToolError } from './types.js';

export type RequestHandler = (request: any, extra: any) => unknown;

/** Marks a handler map already wrapped, so a second wrap (another copy of this package) is skipped. */
const WRAPPED = Symbol.for('mcp-envelope/handler-map');

/** A Server's request handler map (`_requestHandlers`, a private field of the SDK's `Protocol` in 1.x and 2.x), or undefined. */
export function handlerMap(server: unknown): Map<string, RequestHandler> | undefined {
  const handlers = (server as { _requestHandlers?: unknown } | null | undefined)?._requestHandlers;
  return handlers instanceof Map ? (handlers as Map<string, RequestHandler>) : undefined;
}

/**
 * Wraps the map's `method` entry now and whenever one is set later: the SDK
 * sets it through the map's `set` whichever way it is installed (its
 * `setRequestHandler`, McpServer's constructor for declared capabilities,
 * its first tool, FastMCP's tool list changes). False when it was wrapped
 * already.
 */
export function wrapEntries(
  handlers: Map<string, RequestHandler>,
  method: string,
  wrap: (handler: RequestHandler) => RequestHandler,
): boolean {
  const marks = handlers as unknown as Record<symbol, Set<string> | undefined>;
  const wrapped = marks[WRAPPED] ?? new Set<string>();
  if (wrapped.has(method)) return false;
  wrapped.add(method);
  Object.defineProperty(handlers, WRAPPED, { value: wrapped, configurable: true });
  const set = handlers.set;
  const current = handlers.get(method);
  if (current !== undefined) set.call(handlers, method, wrap(current));
  Object.defineProperty(handlers, 'set', {
    configurable: true,
    writable: true,
    value(this: Map<string, RequestHandler>, key: string, value: RequestHandler) {
      return set.call(this, key, key === method && typeof value === 'function' ? wrap(value) : value);
    },
  });
  return true;
}

/**
 * The tools the map's own `tools/list` handler lists (its first page: neither
 * SDK nor FastMCP pages it), asked for the `tools/call` request `request`
 * with its `extra`: the list request carries the call's `_meta` (where a
 * 2026-07-28 request carries its protocol envelope).
 */
export async function listedTools(
  handlers: Map<string, RequestHandler>,
  request: any,
  extra: unknown,
): Promise<{ name: string; inputSchema?: Record<string, unknown> }[]> {
  const list = handlers.get('tools/list');
  const meta: unknown = request?.params?._meta;
  const params = meta === undefined ? {} : { _meta: meta };
  const listed =
    list === undefined
      ? undefined
      : ((await list({ jsonrpc: '2.0', id: request?.id, method: 'tools/list', params }, extra)) as { tools?: unknown } | undefined);
  return Array.isArray(listed?.tools) ? listed.tools : [];
}

/**
 * A JSON-RPC error the core worded, thrown from the `tools/call` handler: the
 * SDK's Protocol (1.x and 2.x) sends a thrown error's `code`, `message` and
 * `data` as the error response, unchanged (the SDK's own `McpError` would
 * prefix the message).
 */
class JsonRpcAnswerError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(name: string, { code, message, data }: { code: number; message: string; data?: unknown }) {
    super(message);
    this.name = name;
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** The JSON-RPC error the core words for an unknown tool. */
export class UnknownToolCallError extends JsonRpcAnswerError {
  declare readonly data: Record<string, unknown>;
  constructor(error: UnknownToolError) {
    super('UnknownToolCallError', error);
  }
}

/** Where a 2026-07-28 request names its revision, in its `_meta`; a request without it negotiated an earlier one. */
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const LEGACY_REVISION = '2025-11-25';

/**
 * The revision of the request a tool callback serves, from its context: SDK
 * 2.x lifts the request's protocol envelope out of `_meta` into
 * `ctx.mcpReq.envelope`; 1.x speaks no 2026-07-28 and keeps `extra._meta`.
 */
function revisionOf(extra: any): string {
  let named: unknown;
  try {
    named = extra?.mcpReq?.envelope?.[PROTOCOL_VERSION_META] ?? extra?._meta?.[PROTOCOL_VERSION_META];
  } catch {
    named = undefined; // a context whose getters throw: no revision named
  }
  return typeof named === 'string' ? named : LEGACY_REVISION;
}

/**
 * A JSON-RPC error a tool callback threw for the client to act on (the SDK's
 * `UrlElicitationRequiredError`, `code` -32042), answered as the request's
 * protocol revision wants it (docs/revisions.md), decided by the core: under
 * 2026-07-28 the `input_required` result the callback returns instead
 * (which the SDK sends, where it would refuse the error), under 2025-11-25
 * the error as it came, thrown again.
 */
export function answeredForRevision(extra: unknown, thrown: Error & { code: number; message: string; data?: unknown }): unknown {
  const { code, message, data } = thrown;
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  const sent = answerForRevision(revisionOf(extra), { error });
  if ('result' in sent) return sent.result;
  if (JSON.stringify(sent.error) === JSON.stringify(error)) throw thrown;
  throw new JsonRpcAnswerError('RevisionAnswerError', sent.error);
}

/** What the integrations take to answer an unknown tool. */
export interface UnknownToolOptionsOf {
  format?: Format;
  unknownTool?: UnknownToolAnswerKind;
}

/** The core's answer to a call of `tool` on a server listing `tools`: the result to return, or the error thrown. */
export function answerUnknownTool(tool: string, tools: string[], options: UnknownToolOptionsOf): CallToolResult {
  const answer = unknownTool({ tool, tools, format: options.format, answer: options.unknownTool });
  if ('error' in answer) throw new UnknownToolCallError(answer.error);
  return answer.result;
}
