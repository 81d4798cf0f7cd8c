// A .wasm import as Cloudflare Workers (and wrangler) resolve it: a compiled module.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
