// The envelope component's core module in browsers and any other runtime: an
// embedded base64 copy (generated/envelope-core-wasm.js), decoded and compiled
// on the first call. Embedding keeps the API synchronous with no top-level
// await (which Vite's default build targets refuse) and needs no bundler to
// know about .wasm files; Chromium compiles modules of up to 8 MB
// synchronously on the main thread.
import { coreWasmBase64 } from '../../generated/envelope-core-wasm.js';

// Uint8Array.fromBase64 is native in recent browsers (Chromium 140, Firefox 133, Safari 18.2).
const native = Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> };

/** Decodes base64 with a plain loop: `Uint8Array.from(atob(text), callback)` took 26 ms for this module. */
export function decode(text: string): Uint8Array<ArrayBuffer> {
  if (native.fromBase64 !== undefined) return native.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const coreModule = (): WebAssembly.Module => new WebAssembly.Module(decode(coreWasmBase64));
