// The only module that touches the jco-generated bindings (generated/, made by
// scripts/build.mjs, `--instantiation sync`: no fetch, no fs, no top-level
// await). The core module, embedded as base64, is compiled on the first call,
// in Node and browsers alike; runtimes that forbid compiling wasm from bytes
// (Cloudflare Workers, Vercel Edge) hand a compiled one to `useCoreModule`.

import { instantiate } from '../generated/envelope.js';
import { coreWasmBase64 } from '../generated/core-wasm.js';

type Api = ReturnType<typeof instantiate>['api'];
type Fn<K extends keyof Api> = Api[K] extends (...args: infer A) => infer R ? { args: A; result: R } : never;

let providedModule: WebAssembly.Module | undefined;
let instance: Api | undefined;

/** Uses an already compiled core module (for runtimes that forbid compiling wasm from bytes). */
export function useCoreModule(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new TypeError('useCoreModule expects a WebAssembly.Module (import the package\'s core.wasm)');
  }
  providedModule = module;
  instance = undefined;
}

function component(): Api {
  if (instance === undefined) {
    const module = providedModule ?? new WebAssembly.Module(Uint8Array.from(atob(coreWasmBase64), (c) => c.charCodeAt(0)));
    instance = instantiate(() => module, {}).api;
  }
  return instance;
}

/**
 * Calls one function of the component's `api` (docs/component-api.md). Its
 * refusal (`err`) is thrown as `Refusal` with the component's own message,
 * the same words in every host. Anything else is a trap, after which jco
 * marks the instance unusable: it is dropped and the next call starts afresh.
 */
export function call<K extends keyof Api>(name: K, args: Fn<K>['args'], Refusal: new (message: string) => Error = TypeError): Fn<K>['result'] {
  const api = component();
  try {
    return (api[name] as (...a: unknown[]) => unknown)(...args) as Fn<K>['result'];
  } catch (error) {
    const payload = (error as { payload?: unknown } | null)?.payload;
    if (typeof payload === 'string') throw new Refusal(payload);
    instance = undefined;
    throw new Error(`mcp-envelope: the component failed (${String(error)}); it has been reset`);
  }
}
