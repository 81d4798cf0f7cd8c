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

function instantiateApi(module: WebAssembly.Module): Api {
  // The component imports nothing: its one core module is all there is to instantiate.
  const instantiateCore = (core: WebAssembly.Module, imports?: Record<string, unknown>) =>
    new WebAssembly.Instance(core, imports as WebAssembly.Imports);
  return instantiate(() => module, {}, instantiateCore).api;
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

// The repeat ledger's and the idempotency store's pure steps: the state is
// the caller's (ledger.ts, idempotency.ts), so a reset instance loses nothing.
export const ledgerKey = (request: string): string => call((c) => c.ledgerKey(request));
export const ledgerFailure = (request: string): string => call((c) => c.ledgerFailure(request));
export const ledgerObserve = (request: string): string => call((c) => c.ledgerObserve(request));
export const idempotencyKey = (request: string): string => call((c) => c.idempotencyKey(request));
export const compareAndSetScript = (): string => call((c) => c.compareAndSetScript());
export const idempotencyBegin = (request: string): string => call((c) => c.idempotencyBegin(request));
export const idempotencyFinish = (request: string): string => call((c) => c.idempotencyFinish(request));
