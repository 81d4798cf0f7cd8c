// The state stores' benchmark (docs/state.md), every figure next to its
// reference in one run: an idempotent write's bookkeeping per call (`begin`,
// then `finish` with a success, each call a new key, the write itself empty)
// through SharedIdempotency over the in-memory store and over Redis on
// loopback (Debian's redis-server, started here), with one replica and with
// two (two clients, each its own connection, calling at once), against the
// in-memory `Idempotency` in the same process. Per call: the median of 7
// rounds of 2,000 calls per replica, as time per call and as calls per second
// across the replicas. Writes {"host":"node","rows":[..]} to its first
// argument (default build/bench/stores.json), which scripts/bench collects.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { Idempotency, MemoryStore, SharedIdempotency } from 'mcp-envelope/server';
import { RedisStore } from 'mcp-envelope/redis';

const out = process.argv[2] ?? fileURLToPath(new URL('../../../build/bench/stores.json', import.meta.url));
const CALLS = 2000;
const ROUNDS = 7;
const ARGS = { orderId: 'A-8812', amountCents: 3200 };
const OK = { content: [{ type: 'text', text: 'Refunded 3200 cents on order A-8812.' }], isError: false };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let round = 0;

/** Microseconds per call of `perCall(i)` run `CALLS` times by each of `replicas` callers at once. */
async function timed(replicas, perCall) {
  const samples = [];
  for (let r = 0; r < ROUNDS; r++) {
    round++;
    const started = process.hrtime.bigint();
    await Promise.all(
      replicas.map(async (replica, n) => {
        for (let i = 0; i < CALLS; i++) await perCall(replica, `k-${round}-${n}-${i}`);
      }),
    );
    samples.push(Number(process.hrtime.bigint() - started) / 1000 / (CALLS * replicas.length));
  }
  return median(samples);
}

async function sharedCall(shared, key) {
  const begun = await shared.begin('refund_order', key, ARGS);
  if (begun.outcome !== 'run') throw new Error(`a new key did not run: ${begun.outcome}`);
  await shared.finish('refund_order', key, begun.claim, OK);
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('the stores benchmark needs redis-server (scripts/setup-redis)');
const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
  stdio: 'ignore',
});
try {
  for (let up = false; !up; await new Promise((resolve) => setTimeout(resolve, 50))) {
    up = await new Promise((resolve) => {
      const c = connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
  }
  const clients = await Promise.all([0, 1].map(() => createClient({ socket: { port }, disableOfflineQueue: true }).connect()));
  const memory = new Idempotency({ capacity: 1_000_000 });
  const reference = await timed([memory], async (store, key) => {
    if (store.begin('refund_order', key, ARGS).outcome !== 'run') throw new Error('a new key did not run');
    store.finish('refund_order', key, OK);
  });
  const sharedMemory = new SharedIdempotency(new MemoryStore({ capacity: 1_000_000 }));
  const viaRedis = clients.map((client) => new SharedIdempotency(new RedisStore(client, { prefix: 'bench:' })));
  const cases = [
    ['SharedIdempotency over MemoryStore', 1, await timed([sharedMemory], sharedCall)],
    ['SharedIdempotency over Redis on loopback', 1, await timed([viaRedis[0]], sharedCall)],
    ['SharedIdempotency over Redis on loopback', 2, await timed(viaRedis, sharedCall)],
  ];
  const rows = [
    {
      table: 'stores',
      case: 'in-memory Idempotency (the reference)',
      replicas: 1,
      value: reference,
      unit: 'µs',
      callsPerSecond: 1e6 / reference,
    },
  ];
  for (const [name, replicas, perCall] of cases) {
    rows.push({
      table: 'stores',
      case: name,
      replicas,
      value: perCall,
      unit: 'µs',
      reference,
      referenceName: 'in-memory Idempotency',
      callsPerSecond: 1e6 / perCall,
    });
  }
  for (const client of clients) client.destroy();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ host: 'node', rows }, null, 2));
  for (const row of rows)
    console.log(
      `${row.case} (${row.replicas} replica${row.replicas > 1 ? 's' : ''}): ${row.value.toFixed(2)} µs a call, ${Math.round(row.callsPerSecond)} calls/s`,
    );
} finally {
  redis.kill('SIGKILL');
}
