// Bounded backoff inside one tool call (docs/idempotency-and-backoff.md). The
// core decides each step (how long to wait, the progress words, when to stop
// and the terminal envelope); this module only sleeps and sends the MCP
// progress notification when the request asked for progress.

import { backoff as backoffText } from './full-component.js';
import type * as Wire from './generated/wire.js';
import { toJson } from './render.js';
import type { CallToolResult, EnvelopeSpec } from './types.js';

/** The input of the `backoff` export: the core's shape (generated), its `failure` any result or spec. */
export interface BackoffRequest extends Omit<Wire.BackoffRequest, 'failure'> {
  /** The attempt's `CallToolResult`, or an error spec. */
  failure: CallToolResult | EnvelopeSpec | object;
}

/** The next step: sleep `waitMs` after telling `progress`, or send `result` (a `CallToolResult`). */
export type BackoffStep = Wire.BackoffWait | (Omit<Wire.BackoffResult, 'result'> & { result: CallToolResult });

/** `backoff` with the request as JSON text; gives the step as JSON text. */
export const backoffJson = (requestText: string): string => backoffText(String(requestText));

/** The next step of a bounded retry for `request`. */
export function backoff(request: BackoffRequest): BackoffStep {
  return JSON.parse(backoffJson(toJson(request, 'the backoff request'))) as BackoffStep;
}

/** What `retryWithin` needs of the SDK's `RequestHandlerExtra`. */
export interface ProgressExtra {
  _meta?: { progressToken?: string | number };
  sendNotification?: (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>;
  signal?: AbortSignal;
}

/** Options of `retryWithin`. */
export interface RetryWithinOptions {
  /** The budget from the first attempt, under the client's timeout with room for one more attempt. */
  deadlineMs: number;
  /** The handler's `extra`: progress goes to its `sendNotification` when `_meta.progressToken` is set. */
  extra?: ProgressExtra;
  baseMs?: number;
  maxAttempts?: number;
  /** Pass the core a random value for jitter. */
  jitter?: boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Calls `attempt(n)` (n from 1) until the core says to stop: its result when
 * it succeeds or fails for good, else the terminal envelope (not retryable)
 * once the deadline or the attempts run out.
 *
 * ```ts
 * server.registerTool('get_invoice', { inputSchema }, async (args, extra) =>
 *   retryWithin(() => fetchInvoice(args), { deadlineMs: 8000, extra }));
 * ```
 */
export async function retryWithin(
  attempt: (n: number) => CallToolResult | Promise<CallToolResult>,
  options: RetryWithinOptions,
): Promise<CallToolResult> {
  if (options === null || typeof options !== 'object' || !Number.isSafeInteger(options.deadlineMs)) {
    throw new TypeError('retryWithin needs options with a whole deadlineMs: { deadlineMs: 8000, extra }');
  }
  const { deadlineMs, extra, baseMs, maxAttempts, jitter } = options;
  const start = Date.now();
  for (let n = 1; ; n++) {
    const failure = await attempt(n);
    const random = jitter ? Math.floor(Math.random() * 2 ** 32) : undefined;
    const step = backoff({ attempt: n, elapsedMs: Date.now() - start, deadlineMs, failure, baseMs, maxAttempts, random });
    if ('result' in step) return step.result;
    const progressToken = extra?._meta?.progressToken;
    if (progressToken !== undefined && extra?.sendNotification !== undefined) {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...step.progress } });
    }
    await sleep(step.waitMs, extra?.signal);
    // A cancelled request gets no answer the model reads; stop retrying.
    if (extra?.signal?.aborted) return failure;
  }
}
