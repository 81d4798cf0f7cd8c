// Idempotency keys in Cloudflare Durable Objects, for real: a worker bundled
// as wrangler bundles it (test/measure.mjs) runs as two services, two
// replicas with a socket each, under the pinned workerd, both bound to one
// Durable Object namespace of mcp-envelope/durable-object's StateStoreObject.
// The same key sent to both at once runs the write once (the write counts
// itself in the same store), and a replay on either is the first outcome.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { bundleWorker } from './measure.mjs';

const CALLS = 20;
const WORKER = `import { SharedIdempotency } from 'mcp-envelope/server';
import { DurableObjectStore, StateStoreObject } from 'mcp-envelope/durable-object';
export { StateStoreObject };
export default {
  async fetch(request, env) {
    const store = new DurableObjectStore(env.STATE);
    const url = new URL(request.url);
    if (url.pathname === '/writes') return new Response((await store.get('test/writes')) ?? '0');
    const shared = new SharedIdempotency(store);
    const args = { orderId: 'A-8812', amountCents: 3200, idempotencyKey: url.searchParams.get('key') };
    const result = await shared.run('refund_order', args.idempotencyKey, args, async () => {
      let writes;
      for (;;) {
        const current = await store.get('test/writes');
        writes = Number(current ?? 0) + 1;
        if (await store.compareAndSet('test/writes', current, String(writes), 600000)) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { content: [{ type: 'text', text: 'Refunded 3200 cents on order A-8812 (write ' + writes + ', replica ' + env.NAME + ').' }], isError: false };
    });
    return Response.json(result);
  },
};
`;

let work;
let server;
let ports;

async function freePort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'mcp-envelope-durable-'));
  const bundle = await bundleWorker(work, WORKER);
  const out = join(work, 'out');
  const modules = [...bundle]
    .sort((a, b) => Number(a.file.endsWith('.wasm')) - Number(b.file.endsWith('.wasm')))
    .map(({ file }) =>
      file.endsWith('.wasm') ? `(name = "${file}", wasm = embed "${file}")` : `(name = "${file}", esModule = embed "${file}")`,
    );
  ports = [await freePort(), await freePort()];
  const replica = (name) => `(
  modules = [${modules.join(', ')}],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "NAME", text = "${name}"), (name = "STATE", durableObjectNamespace = (serviceName = "store", className = "StateStoreObject"))],
)`;
  writeFileSync(
    join(out, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "store", worker = (
      modules = [${modules.join(', ')}],
      compatibilityDate = "2025-09-01",
      durableObjectNamespaces = [(className = "StateStoreObject", uniqueKey = "mcp-envelope-state")],
      durableObjectStorage = (inMemory = void),
      bindings = [(name = "NAME", text = "store"), (name = "STATE", durableObjectNamespace = "StateStoreObject")],
    )),
    (name = "a", worker = ${replica('a')}),
    (name = "b", worker = ${replica('b')}),
  ],
  sockets = [
    (name = "a", address = "127.0.0.1:${ports[0]}", http = (), service = "a"),
    (name = "b", address = "127.0.0.1:${ports[1]}", http = (), service = "b"),
  ],
);
`,
  );
  const { default: workerd } = await import('workerd');
  server = spawn(workerd.default, ['serve', join(out, 'config.capnp')], { cwd: out, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr.on('data', (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  for (const started = Date.now(); ; await sleep(100)) {
    if (server.exitCode !== null) throw new Error(`workerd exited:\n${log}`);
    if (Date.now() - started > 20_000) throw new Error(`workerd did not answer within 20 s:\n${log}`);
    const up = await Promise.all(
      ports.map((port) =>
        fetch(`http://127.0.0.1:${port}/writes`).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (up.every(Boolean)) break;
  }
});
after(async () => {
  server?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const refund = async (i, key) => (await fetch(`http://127.0.0.1:${ports[i % 2]}/refund?key=${key}`)).json();

test('one key sent to two Workers replicas at once writes once through Durable Objects, and replays byte for byte', async () => {
  const answers = await Promise.all(Array.from({ length: CALLS }, (_, i) => refund(i, 'refund-A-8812-1')));
  assert.equal(await (await fetch(`http://127.0.0.1:${ports[0]}/writes`)).text(), '1');
  const first = answers.filter((a) => !a.isError);
  const busy = answers.filter((a) => a.isError);
  assert.ok(first.length > 0);
  for (const a of first) assert.deepEqual(a, first[0]);
  for (const a of busy) assert.match(a.content[0].text, /^<tool_error code="CONFLICT"[\s\S]*<retry_after>2 seconds<\/retry_after>/);
  assert.match(first[0].content[0].text, /^Refunded 3200 cents on order A-8812 \(write 1, replica [ab]\)\.$/);
  assert.deepEqual(await Promise.all([refund(0, 'refund-A-8812-1'), refund(1, 'refund-A-8812-1')]), [first[0], first[0]]);
  assert.equal(await (await fetch(`http://127.0.0.1:${ports[1]}/writes`)).text(), '1');
  // Another key runs, once.
  assert.match((await refund(1, 'refund-A-8812-2')).content[0].text, /\(write 2, replica b\)/);
});
