// The envelope component's core module in Cloudflare Workers (`workerd` and
// `worker` conditions): wrangler bundles a .wasm import as a separate module,
// and workerd gives it to the importer as a compiled WebAssembly.Module.
// Workers refuse to compile wasm from bytes at run time, so this is the only
// way in, and the bundle holds the wasm once, without an embedded copy.
import module from '../../generated/envelope.core.wasm';

export const coreModule = (): WebAssembly.Module => module;
