// The full component's core module in Node, Deno and Bun: read and compiled
// on the first call of an export only it has, as node.ts does for the
// envelope component's.
import { readFileSync } from 'node:fs';

export const coreModule = (): WebAssembly.Module =>
  new WebAssembly.Module(readFileSync(new URL('../../generated/full.core.wasm', import.meta.url)));
