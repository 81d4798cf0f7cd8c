// The repeat ledger (docs/repeat-ledger.md): one per server session, it
// remembers each tool's last failure, so an identical retry gets a short
// "nothing has changed" envelope and a run of them one telling the model to
// stop. The core decides every step and words the envelopes; this class
// holds the streak records it hands back.

import { type ErrorBuilder, isErrorBuilder } from './builder.js';
import { ledgerFailure, ledgerObserve } from './full-component.js';
import type * as Wire from './generated/wire.js';
import { formatOf, toJson } from './render.js';
import type { CallToolResult, EnvelopeSpec, LedgerFailureOptions } from './types.js';

const MAX_STOP_AFTER = 0xffff_ffff;

/**
 * A ledger step's answer, as the core writes it (generated): its result a
 * `CallToolResult`, and `streak` read on every kind (absent: keep the record).
 */
export type LedgerAnswer = (Wire.LedgerStreakSet | Wire.LedgerStreakDeleted | (Wire.LedgerStreakKept & { streak?: undefined })) & {
  result?: CallToolResult;
};

/**
 * Results an idempotency store answered with instead of running a write, for
 * which the core named no ledger step (`"ledger": "none"`: a replay, the
 * in-progress CONFLICT, the store's SERVER_BUSY). They are no failure of the
 * call itself, so every ledger sends them as they are and leaves the tool's
 * streak alone. Held by identity: the handler returns the object the store gave.
 */
const withoutLedgerStep = new WeakSet<object>();

/** `answer` as a store's `begin` gives it, its result marked for the ledgers when the core names no ledger step. */
export function noteLedgerStep<A extends { outcome: string; ledger?: string; result?: unknown }>(answer: A): A {
  if (answer.ledger === 'none' && typeof answer.result === 'object' && answer.result !== null) withoutLedgerStep.add(answer.result);
  return answer;
}

/** Whether a handler's result is a store's answer the repeat ledger leaves alone (`noteLedgerStep`). */
export function takesNoLedgerStep(result: unknown): boolean {
  return typeof result === 'object' && result !== null && withoutLedgerStep.has(result);
}

/**
 * Remembers each tool's last failure for one server session (make one per
 * session: sessions are different conversations).
 *
 * ```ts
 * const ledger = new Ledger();          // the third identical failure in a row says stop
 * return ledger.failure('get_invoice', error('NOT_FOUND', `No invoice ${id}`), { arguments: args });
 * ledger.success('get_invoice');        // after a call that worked: the streak ends
 * ```
 * Two failures are identical when the tool, the code and the arguments (when
 * given) match. The streaks live in this object, not in the component, so
 * a component that fails and is reset loses none of them. `dispose()` (or
 * `using`, where `Symbol.dispose` exists) forgets them.
 */
export class Ledger {
  readonly #stopAfter: number;
  /** Each failing tool's streak record, as the core wrote it. */
  readonly #streaks = new Map<string, string>();

  /**
   * `stopAfter` identical failures are answered (the first in full, the
   * others shortened) before the one telling the model to stop; 0 reads as 1.
   */
  constructor(stopAfter = 2) {
    if (!Number.isInteger(stopAfter) || stopAfter < 0 || stopAfter > MAX_STOP_AFTER) {
      throw new TypeError(`stopAfter must be a whole number from 0 to ${MAX_STOP_AFTER}, not ${String(stopAfter)}`);
    }
    this.#stopAfter = stopAfter;
  }

  /** Runs one step on `tool`'s streak and keeps the record the core hands back. */
  #step(step: (request: string) => string, tool: string, members: string): { result?: CallToolResult } {
    const streak = this.#streaks.get(tool);
    const request = `{${members},"stopAfter":${this.#stopAfter}${streak === undefined ? '' : `,"streak":${JSON.stringify(streak)}`}}`;
    const answer = JSON.parse(step(request)) as LedgerAnswer;
    if (answer.streak === null) this.#streaks.delete(tool);
    else if (answer.streak !== undefined) this.#streaks.set(tool, answer.streak);
    return answer;
  }

  /**
   * The `CallToolResult` to send for this failure of `tool`: the error as
   * given the first time, then the shortened repeat, then the stop. A warning
   * is returned as it is and neither counts nor ends a streak. `spec` is an
   * error spec or a builder (its format is used unless `format` is given).
   */
  failure(tool: string, spec: EnvelopeSpec | ErrorBuilder, options: LedgerFailureOptions = {}): CallToolResult {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`options must be an object such as { arguments: args }, not ${JSON.stringify(options)}`);
    }
    const builder = isErrorBuilder(spec);
    const format = formatOf({ format: options.format ?? (builder ? spec.selectedFormat : undefined) });
    const specText = toJson(builder ? spec.toSpec() : spec);
    // No arguments and `{}` are different keys, so `undefined` stays absent.
    const args = options.arguments === undefined ? '' : `,"arguments":${toJson(options.arguments, 'the arguments')}`;
    return this.#step(ledgerFailure, String(tool), `"spec":${specText}${args},"format":"${format}"`).result as CallToolResult;
  }

  /**
   * Watches the result a handler produced (what the MCP integration does
   * after every call): `undefined` to send it as it is, or the result to send
   * instead for a repeated failure, in the handler's own form. A success ends
   * the tool's streak. The core decides which results count (docs/repeat-ledger.md):
   * an idempotency store's replay, in-progress CONFLICT or SERVER_BUSY is sent
   * as it is, the streak left alone.
   */
  observe(tool: string, result: unknown, options: Pick<LedgerFailureOptions, 'arguments'> = {}): CallToolResult | undefined {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`options must be an object such as { arguments: args }, not ${JSON.stringify(options)}`);
    }
    if (takesNoLedgerStep(result)) return undefined;
    const args = options.arguments === undefined ? '' : `,"arguments":${toJson(options.arguments, 'the arguments')}`;
    return this.#step(ledgerObserve, String(tool), `"result":${toJson(result, 'the result')}${args}`).result;
  }

  /** A call of `tool` that worked: its streak ends. */
  success(tool: string): void {
    this.#streaks.delete(String(tool));
  }

  /** Forgets every streak. */
  dispose(): void {
    this.#streaks.clear();
  }
}

// `using ledger = new Ledger()` where the runtime has Symbol.dispose (Node 20, recent browsers).
const dispose = (Symbol as { dispose?: symbol }).dispose;
if (dispose !== undefined)
  Object.defineProperty(Ledger.prototype, dispose, { value: Ledger.prototype.dispose, configurable: true, writable: true });
