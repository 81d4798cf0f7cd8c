// Reading envelopes back on the client side: parseEnvelope, EnvelopeError and
// throwIfError. The component reads; this module only names the results.

import { decide as decideText, errorOfResult, readEnvelope } from './component.js';
import { toJson } from './render.js';
import type { CallToolResult, Category, Code, DecideOptions, Decision, EnvelopeReading, ErrorOutcome, Reading, Severity } from './types.js';

/**
 * The earliest envelope in a text or a `CallToolResult`, as the component
 * reads it (docs/component-api.md, "Readings"), or `null` when there is none.
 *
 * ```ts
 * parseEnvelope(result)?.code;            // 'NOT_FOUND'
 * parseEnvelope(result)?.error?.details;  // for a <tool_error>: every field it states
 * ```
 * A `<validation_error>` reads as code `VALIDATION_ERROR` with its fields under
 * `validation`. Throws a SyntaxError, saying what and where, for an envelope
 * that is there but broken.
 */
export function parseEnvelope(textOrResult: string | CallToolResult): EnvelopeReading | null {
  // A result goes as its JSON: the component reads its text blocks.
  if (typeof textOrResult !== 'string' && (textOrResult === null || typeof textOrResult !== 'object')) {
    throw new TypeError('parseEnvelope expects a string or a CallToolResult');
  }
  const text = typeof textOrResult === 'string' ? textOrResult : toJson(textOrResult, 'the result');
  const reading = JSON.parse(readEnvelope(text)) as Reading;
  return reading.kind === 'none' ? null : reading;
}

/**
 * A tool's error, thrown on the client side by `throwIfError`: the code and
 * message, the reading (`reading.error` or `reading.validation` say the rest),
 * `malformed` for a broken envelope, and `raw`, the result's text.
 */
export class EnvelopeError extends Error {
  readonly code: Code;
  readonly reading: Reading;
  declare readonly malformed?: string;
  declare readonly severity?: Severity;
  declare readonly category?: Category | null;
  declare readonly retryable?: boolean;
  declare readonly recovery?: string | null;
  /** The result's text blocks joined with a newline: what a proxy passes on unchanged. */
  readonly raw: string;

  constructor(outcome: ErrorOutcome, raw: string) {
    super(outcome.message);
    this.name = 'EnvelopeError';
    this.code = outcome.code;
    this.reading = outcome.reading;
    this.raw = raw;
    // What the outcome leaves out stays absent rather than undefined-valued.
    const { reading: r, malformed } = outcome;
    const stated =
      r.kind === 'none'
        ? { malformed }
        : { malformed, severity: r.severity, category: r.category, retryable: r.retryable, recovery: r.recovery };
    for (const [key, value] of Object.entries(stated))
      if (value !== undefined) Object.defineProperty(this, key, { value, enumerable: true });
  }
}

/**
 * Returns the result unchanged when it is not an error; throws an
 * EnvelopeError when `isError` is true.
 *
 * ```ts
 * const result = throwIfError(await client.callTool({ name: 'get_invoice', arguments: { id } }));
 * ```
 * An error result holding no envelope (or a broken one) throws code
 * `UNKNOWN_ERROR` with its text as the message. A warning is not thrown.
 */
export function throwIfError<T extends { isError?: boolean }>(result: T): T {
  if (result === null || typeof result !== 'object') throw new TypeError('throwIfError expects a CallToolResult');
  const outcome = errorOfResult(toJson(result, 'the result'));
  if (outcome === undefined) return result;
  const blocks = (result as unknown as CallToolResult).content
    .filter((block) => block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text);
  throw new EnvelopeError(JSON.parse(outcome) as ErrorOutcome, blocks.join('\n'));
}

/**
 * The branch a rule-based client takes on a `CallToolResult` (or a JSON-RPC
 * error) (docs/decide.md): what an agent host can do without asking the
 * model. Given `tool`, the called tool's `tools/list` entry, a retry follows
 * SEP-3313: a tool neither read-only nor idempotent gets
 * `verify-before-retry`, never a blind `wait-and-retry`.
 *
 * ```ts
 * decide(toolError('RATE_LIMITED', { message: 'Slow down', retryAfter: 30 }));
 * // { branch: 'wait-and-retry', code: 'RATE_LIMITED', waitSeconds: 30, why: 'transient and retryable' }
 * ```
 */
export function decide(result: CallToolResult | object, options: DecideOptions = {}): Decision {
  if (result === null || typeof result !== 'object') throw new TypeError('decide expects a CallToolResult');
  const tool = options?.tool;
  const request =
    `{"result":${toJson(result, 'the result')}` + `${tool === undefined || tool === null ? '' : `,"tool":${toJson(tool, 'the tool')}`}}`;
  return JSON.parse(decideText(request)) as Decision;
}

/** `decide` with the request `{"result", "tool"?}` as JSON text; gives the decision as JSON text. */
export const decideJson = (requestText: string): string => decideText(String(requestText));
