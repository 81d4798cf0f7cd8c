// The full component's core module in Cloudflare Workers, imported as
// worker.ts imports the envelope component's; a module of its own, so a
// worker using the main entry alone bundles only the envelope component.
import module from '../../generated/full.core.wasm';

export const coreModule = (): WebAssembly.Module => module;
