// The fluent error builder. It is a CallToolResult in its own right, so a
// handler may return it, throw it or serialize it without calling `.build()`
// and the model still gets the error (an unbuilt builder must never read as a
// success).

import { render, resultOf } from './render.js';
import type {
  CallToolResult,
  Category,
  Code,
  ContractDelta,
  DetailValue,
  EnvelopeSpec,
  Format,
  Limits,
  Locale,
  Severity,
  TextContent,
} from './types.js';

type Spec = EnvelopeSpec & { availableActions: string[]; details: Record<string, DetailValue>; deltas: ContractDelta[] };

/**
 * Builds one error step by step.
 *
 * ```ts
 * return error('NOT_FOUND', 'Invoice missing').suggest('List invoices first').actions('billing.list_invoices');
 * ```
 * `content` and `isError` are computed on each read, so the builder can be
 * returned as the tool result, thrown (its `toString()` is the envelope, which
 * is what hosts that only know `String(error)` show), or passed to
 * `JSON.stringify` (which writes the built result).
 */
export class ErrorBuilder implements CallToolResult {
  // Lets a handler typed against the MCP SDK's CallToolResult (which has an index signature) return a builder.
  [key: string]: unknown;

  readonly #spec: Spec;
  #format: Format = 'xml';

  /** Refuses a bad code or message at once, with the component's words. */
  constructor(code: Code, message: string) {
    this.#spec = { code, message, availableActions: [], details: {}, deltas: [] };
    this.build();
    // Own enumerable getters: a spread (`{ ...builder }`) or a structural copy
    // by the MCP SDK reads the built result too, not an empty object.
    Object.defineProperty(this, 'content', { enumerable: true, get: () => this.build().content });
    Object.defineProperty(this, 'isError', { enumerable: true, get: () => this.build().isError });
  }

  declare readonly content: TextContent[];
  declare readonly isError: boolean;

  #set<K extends keyof EnvelopeSpec>(key: K, value: EnvelopeSpec[K]): this {
    this.#spec[key] = value as Spec[K];
    return this;
  }

  /** The recovery instruction (replaces the code's default). */
  suggest(suggestion: string): this {
    return this.#set('suggestion', suggestion);
  }
  severity(severity: Severity): this {
    return this.#set('severity', severity);
  }
  critical(): this {
    return this.severity('critical');
  }
  /** Guidance on a result that succeeded: `isError` becomes false. */
  warning(): this {
    return this.severity('warning');
  }
  /** Seconds before the same call can succeed. */
  retryAfter(seconds: number): this {
    return this.#set('retryAfter', seconds);
  }
  category(category: Category): this {
    return this.#set('category', category);
  }
  retryable(retryable = true): this {
    return this.#set('retryable', retryable);
  }
  /** What a person may be told; never internal detail. */
  customerMessage(message: string): this {
    return this.#set('customerMessage', message);
  }
  correlationId(id: string): this {
    return this.#set('correlationId', id);
  }
  /** The catalog of the code's default recovery and of the words the core writes. */
  locale(locale: Locale): this {
    return this.#set('locale', locale);
  }
  /** With `pt-BR`: the lines that steer the model in Portuguese too. */
  localizeSteering(localize = true): this {
    return this.#set('localizeSteering', localize);
  }
  /** Size caps for this envelope (merged over earlier ones); unset keys keep the core's defaults. */
  limits(limits: Limits): this {
    return this.#set('limits', { ...this.#spec.limits, ...limits });
  }
  /**
   * Adds the ToolFailure metadata (`_meta`) to the result; needs a
   * correlationId. `now` (Unix epoch milliseconds, the current time by
   * default) gives a retryable failure its `retryNotBefore`.
   */
  toolFailure(now: number = Date.now()): this {
    return this.#set('toolFailure', { now });
  }

  /** Appends tool names the model can call next. */
  actions(...names: string[]): this {
    return this.#set('availableActions', [...this.#spec.availableActions, ...names]);
  }
  /** Appends contract changes; the BREAKING and RISKY ones are shown to the model. */
  deltas(...deltas: ContractDelta[]): this {
    return this.#set('deltas', [...this.#spec.deltas, ...deltas]);
  }

  /** Merges details, values as given (an object or array shows as its JSON); `undefined` ones are skipped. */
  details(details: Readonly<Record<string, DetailValue>>): this {
    for (const [key, value] of Object.entries(details)) if (value !== undefined) this.#spec.details[key] = value;
    return this;
  }

  /** One detail; replaces an earlier value for the same key in place. */
  detail(key: string, value: DetailValue): this {
    return this.details({ [key]: value });
  }

  /** The rendering the result carries (xml by default). */
  format(format: Format): this {
    this.#format = format;
    return this;
  }
  /** The rendering set with `.format()`. */
  get selectedFormat(): Format {
    return this.#format;
  }

  /** A copy of the spec built so far (empty lists and details left out). */
  toSpec(): EnvelopeSpec {
    const { availableActions, details, deltas, ...spec } = this.#spec;
    return {
      ...spec,
      ...(availableActions.length > 0 ? { availableActions: [...availableActions] } : {}),
      ...(Object.keys(details).length > 0 ? { details: { ...details } } : {}),
      ...(deltas.length > 0 ? { deltas: [...deltas] } : {}),
    };
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

/** Starts a fluent error: `error('NOT_FOUND', 'Invoice missing').suggest(...)`. */
export function error(code: Code, message: string): ErrorBuilder {
  return new ErrorBuilder(code, message);
}

/** True for a builder from `error()`, including one from another copy of the package. */
export function isErrorBuilder(value: unknown): value is ErrorBuilder {
  return (
    value instanceof ErrorBuilder ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as ErrorBuilder).toSpec === 'function' &&
      typeof (value as ErrorBuilder).build === 'function' &&
      'isError' in value)
  );
}
