// Idempotency keys and repeat-ledger streaks held in a store a server's
// replicas share (docs/state.md): the core decides every step
// (`idempotency-begin`, `idempotency-finish`, `ledger-failure`, `ledger-observe`) and
// writes every record; a store keeps them. A store has two operations, the
// same in every language: `get`, and `compareAndSet`, which writes (or
// removes) a key only if it still holds what the caller read, with an expiry.
// Claiming a key is that one atomic step, so two replicas racing on one key
// run the write once. `MemoryStore` is one process's; `mcp-envelope/redis`
// gives one in Redis.

import { type ErrorBuilder, isErrorBuilder } from './builder.js';
import { idempotencyBegin, idempotencyFinish, idempotencyKey, ledgerFailure, ledgerKey, ledgerObserve } from './full-component.js';
import type * as Wire from './generated/wire.js';
import { type LedgerAnswer, noteLedgerStep, takesNoLedgerStep } from './ledger.js';
import { formatOf, toJson } from './render.js';
import type { CallToolResult, EnvelopeSpec, Format, IdempotencyBegin, IdempotencyFinish, LedgerFailureOptions } from './types.js';

/** Where records live: text under text keys, each with an expiry. */
export interface StateStore {
  /** The text stored under `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
  /**
   * Stores `value` under `key` for `ttlMs` milliseconds (removes the key when
   * `value` is undefined), only if the key holds `expected` now (undefined:
   * holds nothing); whether it did. One atomic step.
   */
  compareAndSet(key: string, expected: string | undefined, value: string | undefined, ttlMs: number): Promise<boolean>;
}

/** What a store throws when it cannot answer (down, timed out), so that the write does not run. */
export class StoreUnavailable extends Error {
  override name = 'StoreUnavailable';
}

/** A `StateStore` in this process's memory: at most `capacity` keys (1,000), the first written going first. */
export class MemoryStore implements StateStore {
  readonly #capacity: number;
  readonly #records = new Map<string, { text: string; expires: number }>();

  constructor(options: { capacity?: number } = {}) {
    this.#capacity = Math.max(1, options.capacity ?? 1000);
  }

  async get(key: string): Promise<string | undefined> {
    const found = this.#records.get(key);
    return found === undefined || found.expires <= performance.now() ? undefined : found.text;
  }

  // Nothing awaits between the read and the write, so under one event loop this is one step.
  async compareAndSet(key: string, expected: string | undefined, value: string | undefined, ttlMs: number): Promise<boolean> {
    const found = this.#records.get(key);
    const current = found === undefined || found.expires <= performance.now() ? undefined : found.text;
    if (current !== expected) return false;
    this.#records.delete(key);
    if (value !== undefined) {
      this.#records.set(key, { text: value, expires: performance.now() + ttlMs });
      for (const oldest of this.#records.keys()) {
        if (this.#records.size <= this.#capacity) break;
        this.#records.delete(oldest);
      }
    }
    return true;
  }
}

/** What `SharedIdempotency.begin` answers: run the write (then `finish` with the claim), or send `result` instead. */
export type SharedBegin = { outcome: 'run'; claim: string } | Exclude<IdempotencyBegin, { outcome: 'run' }>;

/** What `SharedIdempotency.finish` did: as `Idempotency.finish`, or `unstored` when the store could not answer. */
export type SharedFinish = IdempotencyFinish | 'unstored';

// How often a call that lost the race for a key reads it again before answering as if the store were down.
const CLAIM_ATTEMPTS = 3;

/**
 * An idempotency store whose records live in `store`, shared by every
 * replica that reaches it: a replay on any replica gets the first outcome
 * byte for byte, and the write runs once. A store that cannot answer never
 * lets the write run: `begin` answers the core's retryable SERVER_BUSY.
 *
 * ```ts
 * const shared = new SharedIdempotency(new RedisStore(client));   // RedisStore: from mcp-envelope/redis
 * server.registerTool('refund_order', config, withIdempotency(shared, refund, { tool: 'refund_order' }));
 * ```
 */
export class SharedIdempotency {
  readonly store: StateStore;
  readonly ttlSeconds: number;

  constructor(store: StateStore, options: { ttlSeconds?: number } = {}) {
    if (store === null || typeof store?.get !== 'function' || typeof store.compareAndSet !== 'function') {
      throw new TypeError(
        'SharedIdempotency needs a store with get and compareAndSet (MemoryStore, or RedisStore from mcp-envelope/redis)',
      );
    }
    const ttl = options.ttlSeconds ?? 86_400;
    if (!Number.isInteger(ttl) || ttl < 0 || ttl > 0xffff_ffff)
      throw new TypeError(`ttlSeconds must be a whole number of seconds, not ${String(ttl)}`);
    this.store = store;
    this.ttlSeconds = ttl;
  }

  /** A call of `tool` with `key` and `args`: run (with the claim `finish` takes), or the result to send instead. */
  async begin(tool: string, key: string, args: unknown, options: { now?: number; format?: Format } = {}): Promise<SharedBegin> {
    [tool, key] = [String(tool), String(key)];
    const where = idempotencyKey(JSON.stringify({ tool, key }));
    const request =
      `"tool":${JSON.stringify(tool)},"key":${JSON.stringify(key)},"arguments":${toJson(args ?? {}, 'the arguments')},` +
      `"ttlSeconds":${this.ttlSeconds},"format":"${formatOf(options)}"`;
    try {
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const stored = await this.store.get(where);
        const now = options.now ?? Date.now();
        const held = stored === undefined ? '' : `,"stored":${JSON.stringify(stored)}`;
        const answer = JSON.parse(idempotencyBegin(`{${request},"nowMs":${now}${held}}`)) as Wire.IdempotencyBeginAnswer;
        // A replay or the in-progress CONFLICT is marked so that no ledger counts it.
        if (answer.outcome !== 'run') return noteLedgerStep(answer as SharedBegin);
        if (await this.store.compareAndSet(where, stored, answer.record, answer.ttlMs)) return { outcome: 'run', claim: answer.record };
      }
      throw new StoreUnavailable(`the key changed under ${CLAIM_ATTEMPTS} reads`);
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      return noteLedgerStep(JSON.parse(idempotencyBegin(`{${request},"nowMs":0,"storeFailed":true}`)) as SharedBegin);
    }
  }

  /** Stores the outcome of the call `begin` let run with `claim`; `undefined` when its handler threw. */
  async finish(
    tool: string,
    key: string,
    claim: string,
    result: CallToolResult | undefined,
    options: { now?: number } = {},
  ): Promise<SharedFinish> {
    [tool, key] = [String(tool), String(key)];
    const where = idempotencyKey(JSON.stringify({ tool, key }));
    const text = result === undefined ? 'null' : toJson(result, 'the result');
    const answer = JSON.parse(
      idempotencyFinish(
        `{"tool":${JSON.stringify(tool)},"key":${JSON.stringify(key)},` +
          `"claim":${JSON.stringify(String(claim))},"result":${text},"nowMs":${options.now ?? Date.now()},"ttlSeconds":${this.ttlSeconds}}`,
      ),
    ) as Wire.IdempotencyFinishAnswer;
    if (answer.finished === 'kept') return answer.finished;
    // Released: the claim goes (no record); stored: the record takes its place.
    const [record, ttlMs] = answer.finished === 'stored' ? [answer.record, answer.ttlMs] : [undefined, 1];
    try {
      return (await this.store.compareAndSet(where, claim, record, ttlMs)) ? answer.finished : 'absent';
    } catch (error) {
      // The claim stays until it expires: the key answers in-progress, and the write never runs twice.
      if (error instanceof StoreUnavailable) return 'unstored';
      throw error;
    }
  }

  /** `begin`, then `write()` if it says run, then `finish` (a thrown `error(...)` builder is the outcome; any other exception is stored as unknown and goes on). */
  async run(
    tool: string,
    key: string,
    args: unknown,
    write: () => CallToolResult | Promise<CallToolResult>,
    options: { format?: Format } = {},
  ): Promise<CallToolResult> {
    const begun = await this.begin(tool, key, args, options);
    if (begun.outcome !== 'run') return begun.result;
    let result: CallToolResult;
    try {
      result = await write();
    } catch (thrown) {
      if (!isErrorBuilder(thrown)) {
        await this.finish(tool, key, begun.claim, undefined);
        throw thrown;
      }
      result = thrown.build();
    }
    await this.finish(tool, key, begun.claim, result);
    return result;
  }
}

/**
 * The repeat ledger of one conversation (`scope`: a session id, or what the
 * host calls a conversation), its streaks in `store`, so that a model
 * repeating a failure on alternating replicas still meets the stop. The
 * methods are `Ledger`'s, async. The ledger fails open: when the store cannot
 * answer, or keeps changing under it, the failure is sent as itself.
 */
export class SharedLedger {
  readonly store: StateStore;
  readonly scope: string;
  readonly stopAfter: number;

  constructor(store: StateStore, scope: string, options: { stopAfter?: number } = {}) {
    if (store === null || typeof store?.get !== 'function' || typeof store.compareAndSet !== 'function') {
      throw new TypeError('SharedLedger needs a store with get and compareAndSet (MemoryStore, or RedisStore from mcp-envelope/redis)');
    }
    const stopAfter = options.stopAfter ?? 2;
    if (!Number.isInteger(stopAfter) || stopAfter < 0 || stopAfter > 0xffff_ffff)
      throw new TypeError(`stopAfter must be a whole number, not ${String(stopAfter)}`);
    this.store = store;
    this.scope = String(scope);
    this.stopAfter = stopAfter;
  }

  #where(tool: string): string {
    return ledgerKey(JSON.stringify({ scope: this.scope, tool: String(tool) }));
  }

  /** One step on `tool`'s streak; undefined when the store cannot answer or keeps changing. */
  async #step(step: (request: string) => string, tool: string, members: string): Promise<{ result?: CallToolResult } | undefined> {
    const where = this.#where(tool);
    try {
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const streak = await this.store.get(where);
        const held = streak === undefined ? '' : `,"streak":${JSON.stringify(streak)}`;
        const answer = JSON.parse(step(`{${members},"stopAfter":${this.stopAfter}${held}}`)) as LedgerAnswer;
        if (answer.streak === undefined) return answer;
        // Deleted: the record goes (no value); set: the new record takes its place.
        const [record, ttlMs] = answer.streak === null ? [undefined, 1] : [answer.streak, answer.ttlMs];
        if (await this.store.compareAndSet(where, streak, record, ttlMs)) return answer;
      }
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
    }
    return undefined;
  }

  /** The `CallToolResult` to send for this failure of `tool`, as `Ledger.failure`. */
  async failure(tool: string, spec: EnvelopeSpec | ErrorBuilder, options: LedgerFailureOptions = {}): Promise<CallToolResult> {
    const builder = isErrorBuilder(spec);
    const format = formatOf({ format: options.format ?? (builder ? spec.selectedFormat : undefined) });
    const args = options.arguments === undefined ? '' : `,"arguments":${toJson(options.arguments, 'the arguments')}`;
    const members = `"spec":${toJson(builder ? spec.toSpec() : spec)}${args},"format":"${format}"`;
    const answer = await this.#step(ledgerFailure, tool, members);
    // Fails open: the failure as itself.
    return (answer ?? (JSON.parse(ledgerFailure(`{${members}}`)) as { result: CallToolResult })).result as CallToolResult;
  }

  /** `undefined` to send a handler's result as it is, or the result to send instead, as `Ledger.observe`. */
  async observe(tool: string, result: unknown, options: Pick<LedgerFailureOptions, 'arguments'> = {}): Promise<CallToolResult | undefined> {
    if (takesNoLedgerStep(result)) return undefined;
    const args = options.arguments === undefined ? '' : `,"arguments":${toJson(options.arguments, 'the arguments')}`;
    return (await this.#step(ledgerObserve, tool, `"result":${toJson(result, 'the result')}${args}`))?.result;
  }

  /** A call of `tool` that worked: its streak ends (nothing happens when the store cannot answer). */
  async success(tool: string): Promise<void> {
    const where = this.#where(tool);
    try {
      const streak = await this.store.get(where);
      if (streak !== undefined) await this.store.compareAndSet(where, streak, undefined, 1);
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
    }
  }
}
