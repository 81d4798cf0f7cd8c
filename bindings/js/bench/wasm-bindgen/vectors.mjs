// Every shared vector through the package's public API with the wasm-bindgen
// build of the core underneath: a resolve hook hands the package's modules
// component.mjs (over build/wasm-bindgen/full) where they import
// ./component.js, so everything above that boundary is the package's own
// code. Checks that the build measured beside jco is the whole core, giving
// the same bytes. Usage: node vectors.mjs [build/wasm-bindgen]
import { readdirSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { MessageChannel } from 'node:worker_threads';

process.env.MCP_ENVELOPE_WBG_DIR = resolve(process.argv[2] ?? new URL('../../../../build/wasm-bindgen', import.meta.url).pathname);
const component = new URL('../../dist/component.js', import.meta.url).href;
const shim = new URL('component.mjs', import.meta.url).href;
const jcoBindings = new URL('../../generated/envelope.js', import.meta.url).href;

const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
const hooks = `let port; const component = ${JSON.stringify(component)}, shim = ${JSON.stringify(shim)};
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r.url === component ? { url: shim, shortCircuit: true } : r;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });

const entries = ['mcp-envelope', 'mcp-envelope/server', 'mcp-envelope/agent', 'mcp-envelope/contract', 'mcp-envelope/raw'];
const api = Object.assign({}, ...(await Promise.all(entries.map((entry) => import(entry)))));
const { counter } = await import(shim);
const { vectorCases } = await import('../../test/vector-runner.mjs');
const folder = new URL('../../../../vectors/', import.meta.url);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, groups: JSON.parse(readFileSync(new URL(name, folder), 'utf8')) }));
const cases = vectorCases(files);
const failures = [];
for (const { name, run } of cases) {
  try {
    run(api);
  } catch (error) {
    failures.push(`${name}: ${error.message.slice(0, 600)}`);
  }
}
await new Promise((done) => setTimeout(done, 50)); // the hook thread's last messages
if (cases.length < 160) failures.push(`only ${cases.length} cases found in ${folder.pathname}`);
if (counter.calls === 0) failures.push('no call reached the wasm-bindgen build');
if (seen.has(jcoBindings)) failures.push("jco's bindings were loaded: the hook did not replace dist/component.js");
if (failures.length > 0) {
  console.error(`vectors on wasm-bindgen: ${failures.length} failures\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(
  `vectors on wasm-bindgen: all ${cases.length} cases give the package's bytes (${counter.calls} calls into build/wasm-bindgen/full)`,
);
