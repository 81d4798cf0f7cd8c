// The recovery helpers (docs/recovery-helpers.md): an exception, an upstream
// HTTP failure, a permission or sign-in failure, an empty result. The core
// words and maps each one; this module only turns JavaScript values into its
// input (a thrown value into text, fetch Headers into an object, the clock and
// host randomness where the caller gave none) and names the outputs.

import * as component from './full-component.js';
import { randomHex } from './component.js';
import { resultOf, toJson } from './render.js';
import type {
  AccessOptions,
  CallToolResult,
  EmptyResultOptions,
  RevisionAnswer,
  UnknownToolAnswer,
  UnknownToolOptions,
  EnvelopeSpec,
  ExceptionOptions,
  ExceptionReport,
  Format,
  UpstreamFailure,
  UpstreamReport,
} from './types.js';

type Input = Record<string, unknown>;

/** True for an options object; anything else goes to the core as it is, which refuses it in its own words. */
const isObject = (value: unknown): value is Input => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A property of a thrown value, or undefined where reading it throws (a getter, a Proxy's trap). */
function member(thrown: unknown, key: 'message' | 'stack'): unknown {
  try {
    return (thrown as Record<string, unknown> | null | undefined)?.[key];
  } catch {
    return undefined;
  }
}

/**
 * The text a thrown value is logged as: an error's stack (V8's starts with
 * `name: message`; where a stack lacks the message, that line is put first),
 * else `name: message`, else `String(x)`, else its tag (`[object Object]`),
 * else `[unreadable]` (a Proxy whose every trap throws). A property whose
 * getter throws counts as absent. Never throws.
 */
export function exceptionText(thrown: unknown): string {
  try {
    const message = member(thrown, 'message');
    const stack = member(thrown, 'stack');
    // An Error, or an error from another realm (a vm context, a worker's structured clone).
    if (thrown instanceof Error || (typeof thrown === 'object' && thrown !== null && typeof stack === 'string')) {
      const head = Error.prototype.toString.call(thrown);
      if (typeof stack !== 'string' || stack === '') return head;
      return stack.includes(String(message ?? '')) ? stack : `${head}\n${stack}`;
    }
    return String(thrown);
  } catch {
    // A value whose toString throws, or an object with no prototype.
    try {
      return Object.prototype.toString.call(thrown);
    } catch {
      // Even its tag cannot be read (a Proxy): the marker of a value that cannot be read (docs/host-values.md).
      return '[unreadable]';
    }
  }
}

/**
 * The INTERNAL_ERROR result of an exception in a tool's own code: a
 * correlation id (the caller's, or a fresh `err_…` one), the code's recovery
 * and a customer message quoting the id. Nothing of the exception reaches the
 * result: its text (the stack) goes to `log`, one logfmt line.
 *
 * ```ts
 * } catch (e) {
 *   const { result, log } = exceptionResult({ tool: 'charge', exception: e });
 *   logger.error(log);
 *   return result;
 * }
 * ```
 */
export function exceptionResult(options: ExceptionOptions): ExceptionReport {
  const input = isObject(options)
    ? {
        ...options,
        exception: 'exception' in options ? exceptionText(options.exception) : undefined,
        random: options.random ?? randomHex(),
      }
    : options;
  return JSON.parse(exceptionResultJson(toJson(input, 'the exception-result input'))) as ExceptionReport;
}

/** `exceptionResult` with the input as JSON text (`exception` a string, `random` required without a correlationId). */
export const exceptionResultJson = (inputText: string): string => component.exceptionResult(String(inputText));

/** Headers as the core reads them: a plain object. A record goes as it is; the core checks the values. */
function headersObject(headers: unknown): unknown {
  if (headers === null || typeof headers !== 'object') return headers;
  // fetch `Headers`, a `Map`, `[name, value]` pairs.
  if (Symbol.iterator in headers) return Object.fromEntries(headers as Iterable<readonly [string, string]>);
  const { forEach } = headers as { forEach?: unknown };
  if (typeof forEach !== 'function') return headers;
  const entries: Record<string, unknown> = {};
  forEach.call(headers, (value: unknown, name: unknown) => {
    entries[String(name)] = value;
  });
  return entries;
}

/**
 * An upstream HTTP failure mapped onto our codes: 429 RATE_LIMITED, 401
 * AUTH_REQUIRED, 403 FORBIDDEN, 404 NOT_FOUND, 408 and 504 TIMEOUT, 409
 * CONFLICT, other 5xx UPSTREAM_UNAVAILABLE, other 4xx UPSTREAM_REJECTED, with
 * Retry-After read for the retryable ones. The body stays out of the error
 * (unless `excerptChars` asks for a sanitized excerpt, quoted as data) and is
 * handed back in `log`.
 *
 * ```ts
 * const response = await fetch(url);
 * if (!response.ok) {
 *   const { error, log } = upstreamError({ status: response.status, headers: response.headers, body: await response.text() });
 *   logger.warn(log);
 *   return toolError(error.code, error);
 * }
 * ```
 * `now` defaults to the current time in Unix seconds (`Date.now() / 1000`),
 * for a Retry-After that is a date.
 */
export function upstreamError(failure: UpstreamFailure): UpstreamReport {
  const input = isObject(failure)
    ? { ...failure, headers: headersObject(failure.headers), now: failure.now ?? Date.now() / 1000 }
    : failure;
  return JSON.parse(upstreamErrorJson(toJson(input, 'the upstream-error input'))) as UpstreamReport;
}

/** `upstreamError` with the input as JSON text (headers an object; no clock: a Retry-After date needs `now`). */
export const upstreamErrorJson = (inputText: string): string => component.upstreamError(String(inputText));

/**
 * The error spec of a FORBIDDEN answer (worded from what the caller tried,
 * never saying whether the object exists, so it cannot be used to probe) or
 * an AUTH_REQUIRED one (the sign-in addressed to the MCP client, the model
 * told never to look for or ask for credentials).
 *
 * ```ts
 * accessError({ kind: 'forbidden', action: 'refund', resource: 'order A-8812' }).message;
 * // 'Not permitted: the caller may not refund order A-8812.'
 * ```
 */
export function accessError(options: AccessOptions): EnvelopeSpec {
  return JSON.parse(accessErrorJson(toJson(options, 'the access-error input'))) as EnvelopeSpec;
}

/** `accessError` with the input as JSON text; gives the spec as JSON text. */
export const accessErrorJson = (inputText: string): string => component.accessError(String(inputText));

type AccessResultOptions = Omit<AccessOptions, 'kind'> & { format?: Format };

function accessResult(kind: AccessOptions['kind'], options: AccessResultOptions = {}): CallToolResult {
  if (!isObject(options)) throw new TypeError(`options must be an object such as { action: 'refund' }, not ${JSON.stringify(options)}`);
  const { format, ...rest } = options;
  return resultOf(accessError({ ...rest, kind }), format ?? undefined);
}

/** The `CallToolResult` of a FORBIDDEN answer (`accessError` with kind `forbidden`). */
export const forbidden = (options?: AccessResultOptions): CallToolResult => accessResult('forbidden', options);

/** The `CallToolResult` of an AUTH_REQUIRED answer (`accessError` with kind `auth-required`). */
export const authRequired = (options?: AccessResultOptions): CallToolResult => accessResult('auth-required', options);

/**
 * The success result (`isError: false`) of a query that ran and matched
 * nothing, worded so the model takes it as the answer and does not repeat
 * the query.
 *
 * ```ts
 * return emptyResult({ what: 'orders', query: `for ${email}` });
 * // { content: [{ type: 'text', text: '0 orders found for jo@example.com.\nThe query ran and matched nothing: …' }], isError: false }
 * ```
 */
export function emptyResult(options: EmptyResultOptions): CallToolResult {
  return JSON.parse(emptyResultJson(toJson(options, 'the empty-result input'))) as CallToolResult;
}

/** `emptyResult` with the input as JSON text; gives the `CallToolResult` as JSON text. */
export const emptyResultJson = (inputText: string): string => component.emptyResult(String(inputText));

/**
 * The answer to a call of a tool the server does not list: by default the
 * JSON-RPC error the MCP specification asks for (-32602, a short text naming
 * the tools, the UNKNOWN_ACTION envelope in `data`), with `answer:
 * 'tool-result'` the `isError` result holding that envelope. What
 * `mcp-envelope/mcp` and `mcp-envelope/fastmcp` answer.
 *
 * ```ts
 * unknownTool({ tool: 'refund_orders', tools: ['list_invoices', 'refund_order'] }).error.message;
 * // 'Unknown tool: refund_orders. This server\'s tools: list_invoices, refund_order.'
 * ```
 */
export function unknownTool(options: UnknownToolOptions): UnknownToolAnswer {
  return JSON.parse(unknownToolJson(toJson(options, 'the unknown-tool input'))) as UnknownToolAnswer;
}

/** `unknownTool` with the input as JSON text; gives the answer as JSON text. */
export const unknownToolJson = (inputText: string): string => component.unknownTool(String(inputText));

/**
 * A `tools/call` answer as the protocol revision the request negotiated
 * wants it on the wire (docs/revisions.md), decided by the core: under
 * 2026-07-28 a result gains `resultType: "complete"`, a URL elicitation
 * error (-32042) becomes an `input_required` result, and a reserved code the
 * revision does not define becomes -32603; under 2025-11-25 the reverse.
 *
 * ```ts
 * answerForRevision('2026-07-28', { error: { code: -32042, message: 'URL elicitation required',
 *   data: { elicitations: [{ mode: 'url', elicitationId: 'bank', url: 'https://bank.example/consent', message: 'Connect your bank' }] } } });
 * // { result: { resultType: 'input_required', inputRequests: { bank: { method: 'elicitation/create', params: { … } } } } }
 * ```
 */
export function answerForRevision(revision: string, answer: RevisionAnswer): RevisionAnswer {
  return JSON.parse(answerForRevisionJson(toJson({ revision, answer }, 'the answer-for-revision input'))) as RevisionAnswer;
}

/** `answerForRevision` with the input (`{"revision", "answer"}`) as JSON text; gives the answer as JSON text. */
export const answerForRevisionJson = (inputText: string): string => component.answerForRevision(String(inputText));

/**
 * A framework's own error for the model (FastMCP's `UserError`): the
 * `CallToolResult` of a TOOL_ERROR envelope stating `message`, or `message`
 * itself when it already holds an envelope. What `mcp-envelope/fastmcp`
 * answers a thrown `UserError` with; the Python FastMCP integration answers
 * FastMCP's `ToolError` the same way.
 */
export function userError(options: { message: string; format?: Format }): CallToolResult {
  return JSON.parse(userErrorJson(toJson(options, 'the user-error input'))) as CallToolResult;
}

/** `userError` with the input as JSON text; gives the `CallToolResult` as JSON text. */
export const userErrorJson = (inputText: string): string => component.userError(String(inputText));
