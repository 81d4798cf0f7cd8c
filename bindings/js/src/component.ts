// The only module that talks to the component: jco's generated bindings
// (generated/envelope.js, `--instantiation sync`: no fetch, no fs, no
// top-level await), given the core module by `#core-module` (package.json
// "imports"): read from the .wasm file in Node, imported as a module in
// Cloudflare Workers, decoded from an embedded copy elsewhere. It turns the
// component's refusals into the wrapper's error classes, nothing more.

import { coreModule } from '#core-module';
import { instantiate } from '../generated/envelope.js';
import type { Format, ProtocolErrorKind } from './types.js';

type Api = ReturnType<typeof instantiate>['api'];
type CoreLedger = InstanceType<Api['Ledger']>;
type CoreIdempotency = InstanceType<Api['Idempotency']>;

let providedModule: WebAssembly.Module | undefined;
let api: Api | undefined;

/** Uses an already compiled core module (for runtimes that forbid compiling wasm from bytes). */
export function useCoreModule(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new TypeError('useCoreModule expects a WebAssembly.Module (import the package\'s core.wasm)');
  }
  providedModule = module;
  api = undefined;
}

// The resources (ledger, idempotency) make wit-component add two tiny core
// modules besides the component's own: a shim exporting a table and one
// function per resource (`0`, `1`, ...) that calls that resource's destructor
// through it, and a fixup that puts the destructors in the table (they are
// exports of the main module, which does not exist yet when the shim is
// made). scripts/build.mjs checks they are exactly that and drops them; here
// closures do their job, so every runtime (Workers, which cannot compile wasm
// from bytes, and useCoreModule's callers) still hands over one module.
const SHIM = 'envelope.core2.wasm';
const FIXUP = 'envelope.core3.wasm';

function instantiateApi(module: WebAssembly.Module): Api {
  const destructors: Record<string, ((rep: number) => void) | undefined> = {};
  const dropper = (index: string) => (rep: number) => {
    try {
      destructors[index]?.(rep);
    } catch {
      // A resource of an instance that trapped may be dropped by the garbage
      // collector later; its failure must not become an uncaught exception.
    }
  };
  const instantiateCore = (core: WebAssembly.Module | string, imports?: Record<string, Record<string, unknown>>) => {
    if (core === SHIM) return { exports: { 0: dropper('0'), 1: dropper('1'), $imports: undefined } };
    if (core === FIXUP) {
      for (const [index, destructor] of Object.entries(imports?.[''] ?? {})) {
        if (/^[0-9]+$/.test(index)) destructors[index] = destructor as (rep: number) => void;
      }
      return { exports: {} };
    }
    return new WebAssembly.Instance(core as WebAssembly.Module, imports as WebAssembly.Imports);
  };
  const getCoreModule = (name: string) => (name === SHIM || name === FIXUP ? name : module);
  return instantiate(getCoreModule as (name: string) => WebAssembly.Module, {},
    instantiateCore as (core: WebAssembly.Module, imports: Record<string, unknown>) => WebAssembly.Instance).api;
}

function current(): Api {
  if (api === undefined) api = instantiateApi(providedModule ?? coreModule());
  return api;
}

type Refusal = new (message: string) => Error;

/**
 * Runs one call on `target` (the current instance by default). The
 * component's refusal (its `err`) is thrown as `Refusal` with the component's
 * own words, the same in every host. Anything else is a trap: the instance is
 * dropped, and the next call starts a fresh one.
 */
function call<T>(run: (api: Api) => T, Refusal: Refusal = TypeError, target: Api = current()): T {
  try {
    return run(target);
  } catch (error) {
    const payload = (error as { payload?: unknown } | null)?.payload;
    if (typeof payload === 'string') throw new Refusal(payload);
    if (api === target) api = undefined;
    throw new Error(`mcp-envelope: the component failed (${String(error)}); it has been reset`);
  }
}

// Checked before the call, so a bad value is the caller's TypeError, not a
// component failure. Formats are checked once, by render.ts's `formatOf`,
// which every caller goes through.
const KINDS: readonly string[] = ['parse-error', 'invalid-request', 'method-not-found', 'invalid-params', 'internal-error'];

export const canonicalCodes = (): string[] => call((c) => c.canonicalCodes());
/** `{"category","retryable","recovery"}` of a canonical code for `{"code","locale"?}`, or `null`. */
export const codeDefaults = (request: string): string => call((c) => c.codeDefaults(request));
/** The full limits object in force for a partial one (`null`: the defaults), or the refusal a spec with them gets. */
export const limits = (request: string): string => call((c) => c.limits(request));
export const render = (spec: string, format: Format): string => call((c) => c.render(spec, format));
export const callToolResult = (spec: string, format: Format): string => call((c) => c.callToolResult(spec, format));
export function protocolError(kind: ProtocolErrorKind, message: string, data: string | undefined): string {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  return call((c) => c.protocolError(kind, message, data));
}
export const exceptionResult = (input: string): string => call((c) => c.exceptionResult(input));
export const upstreamError = (input: string): string => call((c) => c.upstreamError(input));
export const accessError = (input: string): string => call((c) => c.accessError(input));
export const emptyResult = (input: string): string => call((c) => c.emptyResult(input));
export const unknownTool = (input: string): string => call((c) => c.unknownTool(input));
export const userError = (input: string): string => call((c) => c.userError(input));
export const renderPartial = (spec: string): string => call((c) => c.renderPartial(spec));
export const partialResult = (spec: string): string => call((c) => c.partialResult(spec));
export const partialLimits = (request: string): string => call((c) => c.partialLimits(request));
export const renderValidation = (spec: string): string => call((c) => c.renderValidation(spec));
export const validationResult = (spec: string): string => call((c) => c.validationResult(spec));
/** The reading as JSON text; a broken envelope is refused with a SyntaxError. */
export const readEnvelope = (text: string): string => call((c) => c.readEnvelope(text), SyntaxError);
/** The client-side outcome as JSON text; undefined when the result is not an error. */
export const errorOfResult = (toolResult: string): string | undefined => call((c) => c.errorOfResult(toolResult));
export const decide = (toolResult: string): string => call((c) => c.decide(toolResult));
export const backoff = (request: string): string => call((c) => c.backoff(request));
export const contractLock = (tools: string): string => call((c) => c.contractLock(tools));
export const contractDiff = (request: string): string => call((c) => c.contractDiff(request));

// jco 1.10.2 frees a resource through `Symbol.dispose` (or `Symbol.for('dispose')` where there is none).
const disposeSymbol: symbol = (Symbol as { dispose?: symbol }).dispose ?? Symbol.for('dispose');

/**
 * One component ledger, tied to the instance that made it: a ledger lives in
 * that instance's memory, so once the instance is dropped (after a trap, or
 * `useCoreModule`) its calls fail with a clear error instead of reaching a
 * dead or different instance.
 */
export class LedgerHandle {
  readonly #owner: Api;
  #ledger: CoreLedger | undefined;

  constructor(stopAfter: number) {
    this.#owner = current();
    this.#ledger = call((c) => new c.Ledger(stopAfter), TypeError, this.#owner);
  }

  #live(): CoreLedger {
    if (this.#ledger === undefined) throw new Error('mcp-envelope: this Ledger was disposed; make a new one');
    if (api !== this.#owner) {
      throw new Error('mcp-envelope: this Ledger belonged to a component instance that has since been reset ' +
        '(after a failure, or by useCoreModule), and its memory went with it; make a new Ledger');
    }
    return this.#ledger;
  }

  failure(tool: string, spec: string, args: string | undefined, format: Format): string {
    const ledger = this.#live();
    return call(() => ledger.failure(tool, spec, args, format), TypeError, this.#owner);
  }

  observe(tool: string, result: string, args: string | undefined): string | undefined {
    const ledger = this.#live();
    return call(() => ledger.observe(tool, result, args), TypeError, this.#owner);
  }

  success(tool: string): void {
    const ledger = this.#live();
    call(() => ledger.success(tool), TypeError, this.#owner);
  }

  /** Frees the ledger's memory in the component; calling it again does nothing. */
  dispose(): void {
    const ledger = this.#ledger;
    this.#ledger = undefined;
    // A ledger of a dropped instance goes with that instance.
    if (ledger !== undefined && api === this.#owner) (ledger as unknown as Record<symbol, () => void>)[disposeSymbol]?.();
  }
}

/** One component idempotency store, tied to the instance that made it, as `LedgerHandle`. */
export class IdempotencyHandle {
  readonly #owner: Api;
  #store: CoreIdempotency | undefined;

  constructor(capacity: number, ttlSeconds: number) {
    this.#owner = current();
    this.#store = call((c) => new c.Idempotency(capacity, ttlSeconds), TypeError, this.#owner);
  }

  #live(): CoreIdempotency {
    if (this.#store === undefined) throw new Error('mcp-envelope: this Idempotency store was disposed; make a new one');
    if (api !== this.#owner) {
      throw new Error('mcp-envelope: this Idempotency store belonged to a component instance that has since been reset ' +
        '(after a failure, or by useCoreModule), and its keys went with it; make a new Idempotency');
    }
    return this.#store;
  }

  begin(tool: string, key: string, args: string, nowMs: number, format: Format): string {
    const store = this.#live();
    return call(() => store.begin(tool, key, args, BigInt(nowMs), format), TypeError, this.#owner);
  }

  finish(tool: string, key: string, result: string | undefined, nowMs: number): string {
    const store = this.#live();
    return call(() => store.finish(tool, key, result, BigInt(nowMs)), TypeError, this.#owner);
  }

  /** Frees the store's memory in the component; calling it again does nothing. */
  dispose(): void {
    const store = this.#store;
    this.#store = undefined;
    if (store !== undefined && api === this.#owner) (store as unknown as Record<symbol, () => void>)[disposeSymbol]?.();
  }
}
