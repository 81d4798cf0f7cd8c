// What the package costs a user, measured the same way by the size budgets
// (test/size.test.mjs), the Workers test (test/workers.test.mjs) and the bench
// (bench/bench.mjs): the files a plain Node import loads, and a Cloudflare
// Workers bundle made as wrangler makes it.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const pkg = fileURLToPath(new URL('..', import.meta.url));

/** Raw and gzip -9 size of a file's bytes. */
export function sizeOf(path) {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

// Runs in a fresh process: records every module the ESM loader resolves (a
// resolve hook on its own thread, reporting through a port) and every file read
// through `fs`, imports the package, renders once, and prints what it saw.
const probe = `
import fs from 'node:fs';
import { register, syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => { if (url.startsWith('file:')) seen.add(fileURLToPath(url)); });
port1.unref();
const hooks = 'let port; export function initialize(data) { port = data.port; } ' +
  'export async function resolve(specifier, context, next) { const r = await next(specifier, context); port.postMessage(r.url); return r; }';
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
for (const name of ['readFileSync', 'readFile', 'openSync', 'open']) {
  const original = fs[name];
  fs[name] = function (path, ...rest) { seen.add(path instanceof URL ? fileURLToPath(path) : String(path)); return original.call(this, path, ...rest); };
}
syncBuiltinESMExports();
const m = await import('mcp-envelope');
m.render({ code: 'NOT_FOUND', message: 'x' });
await new Promise((resolve) => setTimeout(resolve, 50)); // the hook thread's last messages
process.stdout.write(JSON.stringify([...seen]));
`;

/** The package's files that `import 'mcp-envelope'` plus a first render load in Node, with their sizes. */
export function nodeEntryFiles() {
  const seen = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: pkg, encoding: 'utf8' }));
  const inside = seen.filter((path) => path.startsWith(pkg) && !path.includes('/node_modules/'));
  return [...new Set(inside)].sort().map((path) => ({ file: relative(pkg, path), ...sizeOf(path) }));
}

const WORKER = `import { render } from 'mcp-envelope';
const spec = { code: 'NOT_FOUND', message: 'No invoice with that ID', retryAfter: 30 };
export default { fetch: () => new Response(render(spec), { headers: { 'content-type': 'text/plain; charset=utf-8' } }) };
`;

/**
 * Bundles a tiny worker importing 'mcp-envelope' as wrangler does: esbuild,
 * conditions workerd, worker, browser (wrangler's order), and `.wasm` imports
 * kept as separate modules (wrangler uploads each as a compiled-wasm module,
 * which the worker imports as a WebAssembly.Module). The package is installed
 * as a symlink in the work folder's node_modules. Returns the bundle's files.
 * `source` is the worker's code (by default, one that renders an envelope).
 */
export async function bundleWorker(work, source = WORKER) {
  const { build } = await import('esbuild');
  mkdirSync(join(work, 'node_modules'), { recursive: true });
  symlinkSync(pkg, join(work, 'node_modules', 'mcp-envelope'), 'dir');
  writeFileSync(join(work, 'entry.mjs'), source);
  const out = join(work, 'out');
  mkdirSync(out);
  const wasmModules = {
    name: 'wasm-modules',
    setup(b) {
      b.onResolve({ filter: /\.wasm$/ }, (args) => {
        const source = join(args.resolveDir, args.path);
        const name = source.split('/').pop();
        copyFileSync(source, join(out, name));
        return { path: `./${name}`, external: true };
      });
    },
  };
  await build({
    absWorkingDir: work,
    entryPoints: ['entry.mjs'],
    outfile: join(out, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    minify: true,
    plugins: [wasmModules],
    logLevel: 'silent',
  });
  // A .wasm file is copied when resolved, before tree shaking: keep those the bundle still imports.
  const imported = new Set([...readFileSync(join(out, 'worker.js'), 'utf8').matchAll(/from\s*"\.\/([^"]+\.wasm)"/g)].map((m) => m[1]));
  for (const file of readdirSync(out)) if (file.endsWith('.wasm') && !imported.has(file)) rmSync(join(out, file));
  return readdirSync(out)
    .sort()
    .map((file) => ({ file, path: join(out, file), ...sizeOf(join(out, file)) }));
}

const APP = `import { render } from 'mcp-envelope';
document.body.textContent = render({ code: 'NOT_FOUND', message: 'No invoice with that ID' });
`;

/**
 * Bundles a tiny page script importing 'mcp-envelope' for browsers: esbuild,
 * the `browser` condition, as Vite and other bundlers resolve it. The package
 * is installed as a symlink in the work folder's node_modules. Returns the
 * bundle's files (one, app.js).
 */
export async function bundleBrowser(work, source = APP) {
  const { build } = await import('esbuild');
  mkdirSync(join(work, 'node_modules'), { recursive: true });
  symlinkSync(pkg, join(work, 'node_modules', 'mcp-envelope'), 'dir');
  writeFileSync(join(work, 'app.mjs'), source);
  const out = join(work, 'out');
  mkdirSync(out);
  await build({
    absWorkingDir: work,
    entryPoints: ['app.mjs'],
    outfile: join(out, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['browser'],
    minify: true,
    logLevel: 'silent',
  });
  return readdirSync(out)
    .sort()
    .map((file) => ({ file, path: join(out, file), ...sizeOf(join(out, file)) }));
}

/**
 * How many copies of a core module a set of files holds: a `.wasm` file
 * with its bytes, or JavaScript holding its base64 (esbuild's `binary` and
 * `dataurl` loaders, and this package's own embedded copies, all use base64);
 * `core` is the envelope component's unless given.
 */
export function wasmCopies(files, core = readFileSync(join(pkg, 'generated', 'envelope.core.wasm'))) {
  // 3000 bytes are 4000 base64 characters with no padding, a prefix of the whole file's base64.
  const base64Start = core.subarray(0, 3000).toString('base64');
  let copies = 0;
  for (const { path } of files) {
    const bytes = readFileSync(path);
    copies += path.endsWith('.wasm') ? Number(bytes.equals(core)) : bytes.toString('latin1').split(base64Start).length - 1;
  }
  return copies;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Serves a bundle (bundleWorker's files, written to `out`) with the pinned
 * workerd on 127.0.0.1, fetches `/` once and stops the server: the response's
 * status and body, and what workerd printed.
 */
export async function serveWorker(out, files, { timeoutMs = 20_000 } = {}) {
  const { default: workerd } = await import('workerd'); // CommonJS: the binary's path is its `default`
  const port = await freePort();
  // The main module first.
  const modules = [...files]
    .sort((a, b) => Number(a.file.endsWith('.wasm')) - Number(b.file.endsWith('.wasm')))
    .map(({ file }) =>
      file.endsWith('.wasm') ? `(name = "${file}", wasm = embed "${file}")` : `(name = "${file}", esModule = embed "${file}")`,
    );
  writeFileSync(
    join(out, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.join(', ')}],
  compatibilityDate = "2025-09-01",
);
`,
  );
  // The binary itself (not npm's launcher script), so that ending it ends the server.
  const server = spawn(workerd.default, ['serve', join(out, 'config.capnp')], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  server.stderr.on('data', (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  let exited = false;
  server.on('exit', () => {
    exited = true;
  });
  try {
    let response;
    for (const started = Date.now(); response === undefined; await sleep(100)) {
      if (exited) throw new Error(`workerd exited before answering:\n${log}`);
      if (Date.now() - started > timeoutMs) throw new Error(`workerd did not answer within ${timeoutMs / 1000} s:\n${log}`);
      response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    }
    return { status: response.status, body: await response.text(), log };
  } finally {
    server.kill('SIGTERM');
    for (let waited = 0; !exited && waited < 5000; waited += 50) await sleep(50);
    if (!exited) server.kill('SIGKILL');
  }
}
