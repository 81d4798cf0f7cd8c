// decide: the branch a rule-based client takes on a result, from the full
// component (interface `agent`), so the main entry's reading (read.ts) never
// loads it.

import { decide as decideText } from './full-component.js';
import { toJson } from './render.js';
import type { CallToolResult, DecideOptions, Decision } from './types.js';

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
