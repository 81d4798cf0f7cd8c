// Cloudflare Workers, for real: a tiny worker importing 'mcp-envelope' is
// bundled as wrangler bundles it (test/measure.mjs: esbuild, the workerd,
// worker and browser conditions, .wasm imports as separate modules), the
// bundle must hold the wasm once (the .wasm module, no base64), and the
// pinned workerd serves it on 127.0.0.1 and answers with the envelope bytes
// the Node package renders. workerd refuses to compile wasm from bytes, so an
// answer at all proves the bundle used the imported module.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import workerd from 'workerd';
import { Ledger, render } from 'mcp-envelope';
import { bundleWorker, wasmCopies } from './measure.mjs';

const START_TIMEOUT_MS = 20_000;
let work;
let bundle;

// Renders an envelope, and runs a repeat ledger: the ledger resource's
// destructor goes through the package's stand-in for wit-component's shim
// modules, which must work where wasm cannot be compiled from bytes.
const SPEC = { code: 'NOT_FOUND', message: 'No invoice with that ID', retryAfter: 30 };
const WORKER = `import { Ledger, render } from 'mcp-envelope';
const spec = ${JSON.stringify(SPEC)};
export default {
  fetch() {
    const ledger = new Ledger(1);
    const results = [ledger.failure('t', spec), ledger.failure('t', spec)];
    ledger.dispose();
    return new Response(render(spec) + '\\n' + JSON.stringify(results), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
  },
};
`;

function expectedBody() {
  const ledger = new Ledger(1);
  const results = [ledger.failure('t', SPEC), ledger.failure('t', SPEC)];
  ledger.dispose();
  return `${render(SPEC)}\n${JSON.stringify(results)}`;
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'mcp-envelope-workers-'));
  bundle = await bundleWorker(work, WORKER);
});
after(() => rmSync(work, { recursive: true, force: true }));

test('the Workers bundle holds the wasm once: a .wasm module, no embedded copy', () => {
  assert.deepEqual(bundle.map((f) => f.file), ['envelope.core.wasm', 'worker.js']);
  assert.equal(wasmCopies(bundle), 1);
  const js = readFileSync(bundle.find((f) => f.file === 'worker.js').path, 'utf8');
  assert.doesNotMatch(js, /AGFzbQ/, 'the bundle embeds wasm as base64'); // "\0asm" in base64
  assert.match(js, /from\s*"\.\/envelope\.core\.wasm"/);
});

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('workerd serves the bundle and answers with the envelope bytes', async () => {
  const out = join(work, 'out');
  const port = await freePort();
  writeFileSync(join(out, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "envelope.core.wasm", wasm = embed "envelope.core.wasm"),
  ],
  compatibilityDate = "2025-09-01",
);
`);
  // The binary itself (not npm's launcher script), so that ending it ends the server.
  const server = spawn(workerd.default, ['serve', join(out, 'config.capnp')], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (chunk) => { log = (log + chunk).slice(-4000); });
  server.stderr.on('data', (chunk) => { log = (log + chunk).slice(-4000); });
  let exited = false;
  server.on('exit', () => { exited = true; });
  try {
    let response;
    for (const started = Date.now(); response === undefined; await sleep(100)) {
      if (exited) throw new Error(`workerd exited before answering:\n${log}`);
      if (Date.now() - started > START_TIMEOUT_MS) throw new Error(`workerd did not answer within ${START_TIMEOUT_MS / 1000} s:\n${log}`);
      response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    }
    const body = await response.text();
    assert.equal(response.status, 200, `${body}\n${log}`);
    assert.equal(body, expectedBody());
    assert.match(body, /Stop retrying: this call has failed the same way 2 times in a row/);
  } finally {
    server.kill('SIGTERM');
    for (let waited = 0; !exited && waited < 5000; waited += 50) await sleep(50);
    if (!exited) server.kill('SIGKILL');
  }
});
