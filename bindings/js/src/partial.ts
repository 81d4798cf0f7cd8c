// `<partial_result>`: what a subagent sends up when it got part of what was
// asked (docs/partial-results.md). The core writes the summary, the severity
// and each item's category and retryability; `parseEnvelope` reads it back.

import * as component from './component.js';
import { toJson } from './render.js';
import type { CallToolResult, PartialLimits, PartialLimitsInForce, PartialSpec } from './types.js';

/**
 * The `<partial_result>` envelope text (in the spec's `format`, xml by default).
 *
 * ```ts
 * renderPartial({ obtained: ['Company A: 10-K 2024'], failed: [{ item: 'Company C', code: 'FORBIDDEN' }] });
 * // '<partial_result severity="warning">\n  <summary>Obtained 1 of 2 items; 1 failed.</summary>\n  …'
 * ```
 * Throws a TypeError naming the key when the spec is refused.
 */
export function renderPartial(spec: PartialSpec): string {
  return renderPartialJson(toJson(spec, 'the partial result spec'));
}

/**
 * The `CallToolResult` of a partial result: `isError` false when something
 * was obtained (the envelope is the caveat on useful data), true when nothing was.
 */
export function partialResult(spec: PartialSpec): CallToolResult {
  return JSON.parse(partialResultJson(toJson(spec, 'the partial result spec'))) as CallToolResult;
}

/** `renderPartial` for a spec that is already JSON text. */
export const renderPartialJson = (specText: string): string => component.renderPartial(String(specText));

/** The `CallToolResult` JSON text for a partial result spec that is already JSON text. */
export const partialResultJson = (specText: string): string => component.partialResult(String(specText));

/** The caps a partial result is rendered under for these `limits` (`null`: the defaults); TypeError when refused. */
export function partialLimitsInForce(limits: PartialLimits | null = null): PartialLimitsInForce {
  return JSON.parse(partialLimitsInForceJson(toJson(limits, 'the limits'))) as PartialLimitsInForce;
}

/** `partialLimitsInForce` with the limits as JSON text; gives JSON text. */
export const partialLimitsInForceJson = (limitsText: string): string => component.partialLimits(String(limitsText));
