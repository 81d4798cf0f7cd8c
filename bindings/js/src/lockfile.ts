// Contract changes (docs/contract-diff.md): the lockfile of a server's tool
// list, and what changed from it to today's list, classified by the core.

import * as component from './full-component.js';
import { toJson } from './render.js';
import type { ContractDelta } from './types.js';

/**
 * A tool list in any form the core reads, as parsed JSON: a `tools/list`
 * result (`{ tools: [...] }`, as `client.listTools()` gives it), a JSON-RPC
 * response carrying one, its `tools` array, or a lockfile
 * (`JSON.parse(readFileSync('tools.lock.json', 'utf8'))`).
 */
export type ToolList = unknown;

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

/**
 * An integration's lockfile (docs/contract-diff.md), read at start, and the
 * deltas from it to the tools the server lists, computed once: what a
 * `<validation_error>` tells the model changed in the failing tool
 * (`<contract_awareness>`: its BREAKING and RISKY deltas, five at most, as
 * the core picks them). A lockfile the core cannot read is refused here, as
 * a programmer's mistake, not at the first failed call.
 */
export class LockedContract {
  readonly #lock: unknown;
  readonly #deltas = new Map<string, Promise<ContractDelta[]>>();

  /** `lockfile`: its text (`readFileSync('tools.lock.json', 'utf8')`) or the parsed JSON. */
  constructor(lockfile: ToolList | string) {
    this.#lock = typeof lockfile === 'string' ? JSON.parse(lockfile) : lockfile;
    contractDiff(this.#lock, []); // refuses an unreadable lock now
  }

  /**
   * The deltas of `tool`: from the lock to what `listTools()` gives (a
   * `tools/list` result, or the tool's own listing in an array), computed on
   * the first call for the tool. A listing that failed is tried again.
   */
  deltasFor(tool: string, listTools: () => unknown): Promise<ContractDelta[]> {
    let deltas = this.#deltas.get(tool);
    if (deltas === undefined) {
      deltas = Promise.resolve()
        .then(listTools)
        .then((tools) => contractDiff(this.#lock, tools as ToolList));
      this.#deltas.set(tool, deltas);
      deltas.catch(() => this.#deltas.delete(tool));
    }
    return deltas;
  }
}
