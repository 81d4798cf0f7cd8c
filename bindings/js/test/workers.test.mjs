// Cloudflare Workers, for real: a tiny worker importing 'mcp-envelope' is
// bundled as wrangler bundles it (test/measure.mjs: esbuild, the workerd,
// worker and browser conditions, .wasm imports as separate modules), the
// bundle must hold the wasm once (the .wasm module, no base64), and the
// pinned workerd serves it on 127.0.0.1 and answers with the envelope bytes
// the Node package renders. workerd refuses to compile wasm from bytes, so an
// answer at all proves the bundle used the imported module.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { render } from 'mcp-envelope';
import { Ledger } from 'mcp-envelope/server';
import { bundleWorker, pkg, serveWorker, wasmCopies } from './measure.mjs';

const START_TIMEOUT_MS = 20_000;
let work;
let bundle;

// Renders an envelope, and runs a repeat ledger through its pure steps, in
// the one core module, which must work where wasm cannot be compiled from bytes.
const SPEC = { code: 'NOT_FOUND', message: 'No invoice with that ID', retryAfter: 30 };
const WORKER = `import { render } from 'mcp-envelope';
import { Ledger } from 'mcp-envelope/server';
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

test('the Workers bundle holds each component it uses once: a .wasm module, no embedded copy', () => {
  // render is the envelope component's; the Ledger's steps are the full one's.
  assert.deepEqual(
    bundle.map((f) => f.file),
    ['envelope.core.wasm', 'full.core.wasm', 'worker.js'],
  );
  assert.equal(wasmCopies(bundle), 1);
  assert.equal(wasmCopies(bundle, readFileSync(join(pkg, 'generated', 'full.core.wasm'))), 1);
  const js = readFileSync(bundle.find((f) => f.file === 'worker.js').path, 'utf8');
  assert.doesNotMatch(js, /AGFzbQ/, 'the bundle embeds wasm as base64'); // "\0asm" in base64
  assert.match(js, /from\s*"\.\/envelope\.core\.wasm"/);
  assert.match(js, /from\s*"\.\/full\.core\.wasm"/);
});

test('workerd serves the bundle and answers with the envelope bytes', async () => {
  const { status, body, log } = await serveWorker(join(work, 'out'), bundle, { timeoutMs: START_TIMEOUT_MS });
  assert.equal(status, 200, `${body}\n${log}`);
  assert.equal(body, expectedBody());
  assert.match(body, /Stop retrying: this call has failed the same way 2 times in a row/);
});
