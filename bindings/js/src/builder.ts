// The fluent error builder. It is a CallToolResult in its own right, so a
// handler may return it, throw it or serialize it without calling `.build()`
// and the model still gets the error (an unbuilt builder must never read as a
// success).

import { render, resultOf } from './render.js';
import type { CallToolResult, Category, Code, ContractDelta, DetailValue, EnvelopeSpec, Format, Severity, TextContent } from './types.js';

/**
 * Builds one error step by step.
 *
 * ```ts
 * return error('NOT_FOUND', 'Invoice missing')
 *   .suggest('List invoices first')
 *   .actions('billing.list_invoices')
 *   .details({ requestedId: 'inv_9' });
 * ```
 * `content` and `isError` are computed on each read, so the builder can be
 * returned as the tool result, thrown (its `toString()` is the envelope, which
 * is what hosts that only know `String(error)` show), or passed to
 * `JSON.stringify` (which writes the built result).
 */
export class ErrorBuilder implements CallToolResult {
  // Lets a handler typed against the MCP SDK's CallToolResult (which has an
  // index signature) return a builder.
  [key: string]: unknown;

  readonly #spec: EnvelopeSpec & { availableActions: string[]; details: Record<string, DetailValue>; deltas: ContractDelta[] };
  #format: Format = 'xml';

  constructor(code: Code, message: string) {
    if (typeof code !== 'string' || code === '') throw new TypeError('error(code, message): code must be a non-empty string');
    if (typeof message !== 'string') throw new TypeError('error(code, message): message must be a string');
    this.#spec = { code, message, availableActions: [], details: {}, deltas: [] };
    // Own enumerable getters: a spread (`{ ...builder }`) or a structural copy
    // by the MCP SDK reads the built result too, not an empty object.
    Object.defineProperty(this, 'content', { enumerable: true, get: () => this.build().content });
    Object.defineProperty(this, 'isError', { enumerable: true, get: () => this.build().isError });
  }

  declare readonly content: TextContent[];
  declare readonly isError: boolean;

  /** The recovery instruction (replaces the code's default). */
  suggest(suggestion: string): this {
    this.#spec.suggestion = suggestion;
    return this;
  }

  /** Appends tool names the model can call next. */
  actions(...names: string[]): this {
    this.#spec.availableActions.push(...names);
    return this;
  }

  severity(severity: Severity): this {
    this.#spec.severity = severity;
    return this;
  }

  critical(): this {
    return this.severity('critical');
  }

  /** Guidance on a result that succeeded: `isError` becomes false. */
  warning(): this {
    return this.severity('warning');
  }

  /** Merges details; values become text (objects as JSON); `undefined` values are skipped. */
  details(details: Readonly<Record<string, unknown>>): this {
    for (const [key, value] of Object.entries(details)) {
      if (value === undefined) continue;
      this.#spec.details[key] = detailText(value);
    }
    return this;
  }

  /** One detail; replaces an earlier value for the same key in place. */
  detail(key: string, value: unknown): this {
    return this.details({ [key]: value });
  }

  /** Appends contract changes; the BREAKING and RISKY ones are shown to the model. */
  deltas(...deltas: ContractDelta[]): this {
    this.#spec.deltas.push(...deltas);
    return this;
  }

  /** Seconds before the same call can succeed. */
  retryAfter(seconds: number): this {
    this.#spec.retryAfter = seconds;
    return this;
  }

  category(category: Category): this {
    this.#spec.category = category;
    return this;
  }

  retryable(retryable = true): this {
    this.#spec.retryable = retryable;
    return this;
  }

  /** What a person may be told; never internal detail. */
  customerMessage(message: string): this {
    this.#spec.customerMessage = message;
    return this;
  }

  correlationId(id: string): this {
    this.#spec.correlationId = id;
    return this;
  }

  /** The rendering the result carries (xml by default). */
  format(format: Format): this {
    this.#format = format;
    return this;
  }

  /** A copy of the spec built so far. */
  toSpec(): EnvelopeSpec {
    const spec: EnvelopeSpec = { ...this.#spec, availableActions: [...this.#spec.availableActions], details: { ...this.#spec.details },
      deltas: [...this.#spec.deltas] };
    if (spec.availableActions?.length === 0) delete spec.availableActions;
    if (Object.keys(spec.details ?? {}).length === 0) delete spec.details;
    if (spec.deltas?.length === 0) delete spec.deltas;
    return spec;
  }

  /** The plain CallToolResult. Throws a TypeError naming the field when the error is refused. */
  build(): CallToolResult {
    return resultOf(this.toSpec(), this.#format);
  }

  /** The envelope text in any format. */
  render(format: Format = this.#format): string {
    return render(this.toSpec(), { format });
  }

  /** JSON.stringify writes the built result. */
  toJSON(): CallToolResult {
    return this.build();
  }

  /** The envelope text: what a host shows for a thrown value it does not know. */
  toString(): string {
    return this.render();
  }
}

function detailText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Starts a fluent error: `error('NOT_FOUND', 'Invoice missing').suggest(...)`.
 * The builder works as a CallToolResult whether returned, thrown or serialized.
 */
export function error(code: Code, message: string): ErrorBuilder {
  return new ErrorBuilder(code, message);
}

/** True for a builder from `error()`, including one from another copy of the package. */
export function isErrorBuilder(value: unknown): value is ErrorBuilder {
  return value instanceof ErrorBuilder ||
    (typeof value === 'object' && value !== null && typeof (value as ErrorBuilder).toSpec === 'function' &&
      typeof (value as ErrorBuilder).build === 'function' && 'isError' in value);
}
