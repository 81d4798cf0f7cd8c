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

type Refusal = new (message: string) => Error;

/**
 * Runs one call. The component's refusal (its `err`) is thrown as `Refusal`
 * with the component's own words, the same in every host. Anything else is a
 * trap, after which jco marks the instance unusable: it is dropped, and the
 * next call starts a fresh one.
 */
function call<T>(run: (api: Api) => T, Refusal: Refusal = TypeError): T {
  if (api === undefined) {
    const module = providedModule ?? coreModule();
    api = instantiate(() => module, {}).api;
  }
  try {
    return run(api);
  } catch (error) {
    const payload = (error as { payload?: unknown } | null)?.payload;
    if (typeof payload === 'string') throw new Refusal(payload);
    api = undefined;
    throw new Error(`mcp-envelope: the component failed (${String(error)}); it has been reset`);
  }
}

// Checked before the call, so a bad value is the caller's TypeError, not a
// component failure. Formats are checked once, by render.ts's `formatOf`,
// which every caller goes through.
const KINDS: readonly string[] = ['parse-error', 'invalid-request', 'method-not-found', 'invalid-params', 'internal-error'];

export const canonicalCodes = (): string[] => call((c) => c.canonicalCodes());
/** A canonical code's defaults as JSON text; undefined for a custom code. */
export const codeDefaults = (code: string): string | undefined => call((c) => c.codeDefaults(code));
export const render = (spec: string, format: Format): string => call((c) => c.render(spec, format));
export const callToolResult = (spec: string, format: Format): string => call((c) => c.callToolResult(spec, format));
export function protocolError(kind: ProtocolErrorKind, message: string, data: string | undefined): string {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  return call((c) => c.protocolError(kind, message, data));
}
export const internalErrorResult = (tool: string, correlationId: string, format: Format): string =>
  call((c) => c.internalErrorResult(tool, correlationId, format));
export const renderValidation = (spec: string): string => call((c) => c.renderValidation(spec));
export const validationResult = (spec: string): string => call((c) => c.validationResult(spec));
/** The reading as JSON text; a broken envelope is refused with a SyntaxError. */
export const readEnvelope = (text: string): string => call((c) => c.readEnvelope(text), SyntaxError);
/** The client-side outcome as JSON text; undefined when the result is not an error. */
export const errorOfResult = (toolResult: string): string | undefined => call((c) => c.errorOfResult(toolResult));
