// The envelope component's core module in Node (and Deno and Bun, which
// resolve the `node` condition): the .wasm file next to the package, read and
// compiled on the first call, synchronously, so the API stays synchronous.
// Reading the file takes about 2 ms and compiling it about 1.5 ms (V8 compiles
// functions lazily); decoding an embedded base64 copy took 26 ms.
import { readFileSync } from 'node:fs';

export const coreModule = (): WebAssembly.Module =>
  new WebAssembly.Module(readFileSync(new URL('../../generated/envelope.core.wasm', import.meta.url)));
