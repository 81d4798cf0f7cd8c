// Contract changes (docs/contract-diff.md): the lockfile of a server's tool
// list, and what changed from it to today's list, classified by the core.

import * as component from './component.js';
import { toJson } from './render.js';
import type { ContractDelta } from './types.js';

/**
 * A tool list in any form the core reads, as parsed JSON: a `tools/list`
 * result (`{ tools: [...] }`, as `client.listTools()` gives it), a JSON-RPC
 * response carrying one, its `tools` array, or a lockfile
 * (`JSON.parse(readFileSync('tools.lock.json', 'utf8'))`).
 */
export type ToolList = { tools: readonly unknown[] } | readonly unknown[] | object;

/**
 * The lockfile of a tool list: the tools sorted by name, every key sorted,
 * one spelling for numbers, two-space indents, and the SHA-256 of the
 * canonical tools. Commit it beside the server.
 *
 * @example
 * writeFileSync('tools.lock.json', contractLock(await client.listTools()) + '\n');
 */
export function contractLock(tools: ToolList): string {
  return contractLockJson(toJson(tools, 'the tool list'));
}

/** `contractLock` with the tool list as JSON text. */
export const contractLockJson = (toolsText: string): string => component.contractLock(String(toolsText));

/**
 * What changed from the lockfile (`lock`) to today's tools, each change
 * BREAKING, RISKY, SAFE or COSMETIC, in the shape an envelope's `deltas` take.
 */
export function contractDiff(lock: ToolList, tools: ToolList): ContractDelta[] {
  return JSON.parse(contractDiffJson(toJson({ lock, tools }, 'the contract-diff input'))) as ContractDelta[];
}

/** `contractDiff` with `{"lock", "tools"}` as JSON text; gives the deltas as JSON text. */
export const contractDiffJson = (requestText: string): string => component.contractDiff(String(requestText));
