// Reading envelopes back on the client side: parseEnvelope, EnvelopeError and
// throwIfError. The component reads; this module only names the results.

import { errorOfResult, readEnvelope } from './component.js';
import { toJson } from './render.js';
import type { CallToolResult, Category, Code, EnvelopeReading, ErrorOutcome, Reading, Severity } from './types.js';

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
