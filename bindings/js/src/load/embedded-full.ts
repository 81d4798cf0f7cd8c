// The full component's core module in browsers and any other runtime: its
// embedded base64 copy (generated/full-core-wasm.js), decoded and compiled on
// the first call of an export only it has. A module of its own, so a bundle
// of the main entry alone leaves the copy out (package.json: sideEffects false).
import { coreWasmBase64 } from '../../generated/full-core-wasm.js';
import { decode } from './embedded.js';

export const coreModule = (): WebAssembly.Module => new WebAssembly.Module(decode(coreWasmBase64));
