// The idempotency store (docs/idempotency-and-backoff.md): a client-supplied
// key makes a write safe to retry. The core decides everything (what is
// stored, the canonical arguments, the refusals' words, expiry) and writes
// each key's record; this module keeps the records in memory (at most
// `capacity`, the first claimed going first), gives the core the clock, and
// runs the handler between `begin` and `finish`.

import { isErrorBuilder } from './builder.js';
import { idempotencyBegin, idempotencyFinish, idempotencyKeyArgument } from './full-component.js';
import type * as Wire from './generated/wire.js';
import { noteLedgerStep } from './ledger.js';
import { formatOf, toJson } from './render.js';
import { SharedIdempotency } from './stores.js';
import type { CallToolResult, Format, IdempotencyBegin, IdempotencyFinish } from './types.js';

export type { IdempotencyBegin, IdempotencyFinish };

const U32 = 0xffff_ffff;

/** Options of `new Idempotency()`: at most `capacity` keys (1,000), each kept `ttlSeconds` (86,400: 24 hours). */
export interface IdempotencyOptions {
  capacity?: number;
  ttlSeconds?: number;
}

/** Options of `begin`, `finish` and `run`: the time (`now`, Unix ms; `Date.now()` by default) and the envelopes' form. */
export interface IdempotencyCallOptions {
  now?: number;
  format?: Format;
}

function whole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > U32) {
    throw new TypeError(`${name} must be a whole number from 0 to ${U32}, not ${String(value)}`);
  }
  return value;
}

function nowOf(options: IdempotencyCallOptions): number {
  const now = options.now ?? Date.now();
  if (!Number.isSafeInteger(now) || now < 0) throw new TypeError(`now must be Unix milliseconds, not ${String(now)}`);
  return now;
}

/**
 * A server's idempotency store (one per server: keys are the client's, and a
 * replay may come on another session).
 *
 * ```ts
 * const store = new Idempotency();      // 1,000 keys, 24 hours
 * return store.run('refund_order', args.idempotency_key, args, () => refund(args));
 * ```
 * A replay gets the first outcome exactly and the write does not run again;
 * the same key with other arguments gets a VALIDATION_ERROR, a call while the
 * first runs a retryable CONFLICT. A retryable failure and a validation
 * envelope are not stored (the key is free again); a handler that threw is
 * stored as an unknown outcome. A replay, the in-progress CONFLICT and the
 * store's SERVER_BUSY go through no repeat ledger: returned from a tool, they
 * neither count toward a streak nor end one. `dispose()` forgets every key.
 */
export class Idempotency {
  readonly #capacity: number;
  readonly #ttlSeconds: number;
  /** Each key's record, as the core wrote it; a Map keeps the order keys were claimed in. */
  readonly #records = new Map<string, string>();

  constructor(options: IdempotencyOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`options must be an object such as { capacity: 1000, ttlSeconds: 86400 }, not ${JSON.stringify(options)}`);
    }
    this.#capacity = Math.max(1, whole('capacity', options.capacity ?? 1000));
    this.#ttlSeconds = whole('ttlSeconds', options.ttlSeconds ?? 86_400);
  }

  // The records live in this process only, so a local key serves: no component call on the write path.
  static #storeKey(tool: string, key: string): string {
    return JSON.stringify([tool, key]);
  }

  /** A call of `tool` with `key` and `args`: `{ outcome: 'run' }`, or the result to send instead. */
  begin(tool: string, key: string, args: unknown, options: IdempotencyCallOptions = {}): IdempotencyBegin {
    [tool, key] = [String(tool), String(key)];
    const storeKey = Idempotency.#storeKey(tool, key);
    const stored = this.#records.get(storeKey);
    const request =
      `{"tool":${JSON.stringify(tool)},"key":${JSON.stringify(key)},"arguments":${toJson(args ?? {}, 'the arguments')},` +
      `"nowMs":${nowOf(options)},"ttlSeconds":${this.#ttlSeconds},"format":"${formatOf(options)}"` +
      `${stored === undefined ? '' : `,"stored":${JSON.stringify(stored)}`}}`;
    const answer = JSON.parse(idempotencyBegin(request)) as Wire.IdempotencyBeginAnswer;
    // A replay, the in-progress CONFLICT or SERVER_BUSY is marked so that no ledger counts it.
    if (answer.outcome !== 'run') return noteLedgerStep(answer as IdempotencyBegin);
    // Claimed: nothing runs between reading the key and storing the claim in one thread.
    this.#records.delete(storeKey);
    this.#records.set(storeKey, answer.record);
    for (const oldest of this.#records.keys()) {
      if (this.#records.size <= this.#capacity) break;
      this.#records.delete(oldest);
    }
    return { outcome: 'run' };
  }

  /** The outcome of a call `begin` let run; `undefined` when its handler threw. */
  finish(
    tool: string,
    key: string,
    result: CallToolResult | undefined,
    options: Pick<IdempotencyCallOptions, 'now'> = {},
  ): IdempotencyFinish {
    [tool, key] = [String(tool), String(key)];
    const text = result === undefined ? 'null' : toJson(result, 'the result');
    const storeKey = Idempotency.#storeKey(tool, key);
    const claim = this.#records.get(storeKey);
    if (claim === undefined || 'result' in (JSON.parse(claim) as object)) return 'absent';
    const request =
      `{"tool":${JSON.stringify(tool)},"key":${JSON.stringify(key)},"claim":${JSON.stringify(claim)},` +
      `"result":${text},"nowMs":${nowOf(options)},"ttlSeconds":${this.#ttlSeconds}}`;
    const answer = JSON.parse(idempotencyFinish(request)) as Wire.IdempotencyFinishAnswer;
    if (answer.finished === 'kept') return answer.finished;
    if (answer.finished === 'stored') this.#records.set(storeKey, answer.record);
    else this.#records.delete(storeKey);
    return answer.finished;
  }

  /**
   * `begin`, then `write()` if it says run, then `finish` with its result
   * (a thrown `error(...)` builder is its result; any other exception is
   * stored as the unknown outcome and goes on).
   */
  async run(
    tool: string,
    key: string,
    args: unknown,
    write: () => CallToolResult | Promise<CallToolResult>,
    options: Omit<IdempotencyCallOptions, 'now'> = {},
  ): Promise<CallToolResult> {
    const begun = this.begin(tool, key, args, options);
    if (begun.outcome !== 'run') return begun.result;
    let result: CallToolResult;
    try {
      result = await write();
    } catch (thrown) {
      // A thrown builder is an envelope, the handler's outcome; anything else leaves it unknown.
      if (!isErrorBuilder(thrown)) {
        this.finish(tool, key, undefined);
        throw thrown;
      }
      result = thrown.build();
    }
    this.finish(tool, key, result);
    return result;
  }

  /** Forgets every key. */
  dispose(): void {
    this.#records.clear();
  }
}

/** Options of `withIdempotency`. */
export interface WithIdempotencyOptions extends Omit<IdempotencyCallOptions, 'now'> {
  /** The tool's name: keys are scoped to it. */
  tool: string;
  /** The key in the arguments; `args.idempotency_key` by default, the name the core gives every language. No key: the handler runs as usual. */
  key?: (args: Record<string, unknown>) => string | undefined | null;
}

/**
 * A `registerTool` callback made idempotent by `store`, an `Idempotency` in
 * memory or a `SharedIdempotency` over a store replicas share:
 *
 * ```ts
 * server.registerTool('refund_order', { inputSchema: { orderId: z.string(), amountCents: z.number(), idempotency_key: z.string().optional() } },
 *   withIdempotency(store, async (args) => refund(args), { tool: 'refund_order' }));
 * ```
 */
export function withIdempotency<A extends Record<string, unknown>, X extends unknown[]>(
  store: Idempotency | SharedIdempotency,
  handler: (args: A, ...rest: X) => CallToolResult | Promise<CallToolResult>,
  options: WithIdempotencyOptions,
): (args: A, ...rest: X) => Promise<CallToolResult> {
  if (!(store instanceof Idempotency) && !(store instanceof SharedIdempotency)) {
    throw new TypeError('withIdempotency expects an Idempotency or SharedIdempotency store first');
  }
  if (options === null || typeof options !== 'object' || typeof options.tool !== 'string') {
    throw new TypeError('withIdempotency needs options with the tool name: { tool: "refund_order" }');
  }
  const argument = idempotencyKeyArgument();
  const keyOf = options.key ?? ((args) => args[argument] as string | undefined);
  return async (args: A, ...rest: X) => {
    const key = keyOf(args);
    if (key === undefined || key === null) return handler(args, ...rest);
    return store.run(options.tool, String(key), args, () => handler(args, ...rest), { format: options.format });
  };
}

const dispose = (Symbol as { dispose?: symbol }).dispose;
if (dispose !== undefined)
  Object.defineProperty(Idempotency.prototype, dispose, { value: Idempotency.prototype.dispose, configurable: true, writable: true });
