// Two replicas of one server, separate processes over Streamable HTTP,
// sharing one Redis (Debian's redis-server, started here on loopback with an
// append-only file fsynced on every write, so what it acknowledged survives a
// restart): the same idempotency key sent to both at once runs the write once,
// a replay on either gets the first outcome byte for byte, keys expire as
// configured, and a Redis that is down gets the core's retryable SERVER_BUSY
// with nothing written and nothing acknowledged lost.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const CALLS = 20;
const REFUND = { orderId: 'A-8812', amountCents: 3200, idempotency_key: 'refund-A-8812-1' };
const folder = mkdtempSync(join(tmpdir(), 'replicas-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
async function listening(port, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the process for port ${port} exited with ${child.exitCode}`);
    const up = await new Promise((resolve) => {
      const c = connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on port ${port} within 30 s`);
}
const stopped = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) resolve();
    else {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    }
  });

/** Waits until Redis has loaded its data: until then it answers every command with LOADING. */
async function loaded(port) {
  const client = await createClient({ socket: { port } })
    .on('error', () => {})
    .connect();
  try {
    for (let i = 0; i < 600; i++) {
      try {
        if ((await client.ping()) === 'PONG') return;
      } catch (error) {
        if (!String(error?.message).startsWith('LOADING')) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Redis on port ${port} did not load its data within 30 s`);
  } finally {
    client.destroy();
  }
}

async function redisServer(dir) {
  const port = await freePort();
  const server = {
    port,
    async start() {
      this.child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
        { stdio: 'ignore' },
      );
      await listening(port, this.child);
      await loaded(port);
    },
    stop() {
      return stopped(this.child);
    },
  };
  await server.start();
  return server;
}

async function cluster(t, ttlSeconds = 60) {
  const dir = mkdtempSync(join(folder, 'redis-'));
  const redis = await redisServer(dir);
  const run = `run-${process.hrtime.bigint()}`;
  const ports = [await freePort(), await freePort()];
  const replicas = ports.map((port) =>
    spawn(
      process.execPath,
      [new URL('replica-server.mjs', import.meta.url).pathname, String(port), String(redis.port), run, String(ttlSeconds)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    ),
  );
  const client = await createClient({ socket: { port: redis.port } })
    .on('error', () => {})
    .connect();
  t.after(async () => {
    await Promise.all(replicas.map(stopped));
    client.destroy();
    await redis.stop();
  });
  for (const [i, port] of ports.entries()) await listening(port, replicas[i]);
  return { redis, urls: ports.map((port) => `http://127.0.0.1:${port}/mcp`), client, run };
}

async function call(url, args, name = 'refund_order') {
  const client = new Client({ name: 'replica-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const { content, isError } = await client.callTool({ name, arguments: args });
    return { content, isError };
  } finally {
    await client.close();
  }
}
const text = (answer) => answer.content[0].text;

test('one key sent to two replicas at once writes once, and replays everywhere byte for byte', {
  skip: !hasRedis && 'redis-server is not installed',
}, async (t) => {
  const { urls, client, run } = await cluster(t);
  const answers = await Promise.all(Array.from({ length: CALLS }, (_, i) => call(urls[i % 2], REFUND)));
  assert.equal(await client.get(`${run}:writes`), '1');
  const first = answers.filter((a) => !a.isError);
  const busy = answers.filter((a) => a.isError);
  assert.ok(first.length > 0);
  for (const a of first) assert.deepEqual(a, first[0]);
  for (const a of busy) assert.match(text(a), /^<tool_error code="CONFLICT"[\s\S]*<retry_after>2 seconds<\/retry_after>/);
  assert.match(text(first[0]), /^Refunded 3200 cents on order A-8812 \(write 1, replica \d+\)\.$/);
  const replays = await Promise.all(urls.map((url) => call(url, REFUND)));
  assert.deepEqual(replays, [first[0], first[0]]);
  assert.equal(await client.get(`${run}:writes`), '1');
  t.diagnostic(`${CALLS} concurrent calls: ${first.length} answered with the outcome, ${busy.length} in progress; 1 write`);
  const other = await call(urls[1], { ...REFUND, amountCents: 4500 });
  assert.match(text(other), /^<tool_error code="VALIDATION_ERROR"[\s\S]*different request/);
  assert.equal(await client.get(`${run}:writes`), '1');
});

test("a failure repeated on alternating replicas reaches the ledger's stop", {
  skip: !hasRedis && 'redis-server is not installed',
}, async (t) => {
  const { urls } = await cluster(t);
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(text(await call(urls[i % 2], { id: 'inv_9' }, 'get_invoice')));
  assert.match(answers[0], /<message>No invoice inv_9<\/message>/);
  assert.match(answers[1], /<message>Nothing has changed since the last attempt: the same failure again \(2 in a row\)\.<\/message>/);
  assert.match(
    answers[2],
    /^<tool_error code="NOT_FOUND" severity="critical">\n {2}<message>Stop retrying: this call has failed the same way 3 times in a row/,
  );
});

test('keys expire as configured', { skip: !hasRedis && 'redis-server is not installed' }, async (t) => {
  const { urls, client, run } = await cluster(t, 3);
  await call(urls[0], REFUND);
  const key = `${run}:mcp-envelope/idempotency/${JSON.stringify(['refund_order', REFUND.idempotency_key])}`;
  const ttl = await client.pTTL(key);
  assert.ok(ttl > 0 && ttl <= 3000, `PTTL ${ttl}`);
  await new Promise((resolve) => setTimeout(resolve, 3200));
  assert.equal(await client.get(key), null);
  assert.match(text(await call(urls[1], REFUND)), /\(write 2, replica \d+\)/);
});

test('a Redis that is down never lets a write run, and loses nothing acknowledged', {
  skip: !hasRedis && 'redis-server is not installed',
}, async (t) => {
  const { redis, urls, run } = await cluster(t);
  const acknowledged = await call(urls[0], REFUND);
  await redis.stop();
  const down = await call(urls[1], { ...REFUND, idempotency_key: 'refund-A-8812-2' });
  assert.ok(
    text(down).startsWith(
      '<tool_error code="SERVER_BUSY" severity="error">\n  <message>The server could not use its idempotency ' +
        'store, so this call did not run: nothing was written.</message>',
    ),
    text(down),
  );
  assert.match(text(down), /<retry_after>5 seconds<\/retry_after>/);
  await redis.start();
  const client = await createClient({ socket: { port: redis.port } })
    .on('error', () => {})
    .connect();
  t.after(() => client.destroy());
  assert.equal(await client.get(`${run}:writes`), '1');
  // The replicas' clients reconnect by themselves; until they do, the call is refused, never run unguarded.
  let replay;
  for (let i = 0; i < 50; i++) {
    replay = await call(urls[1], REFUND);
    if (!text(replay).includes('SERVER_BUSY')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(replay, acknowledged);
  let retried;
  for (let i = 0; i < 50; i++) {
    retried = await call(urls[0], { ...REFUND, idempotency_key: 'refund-A-8812-2' });
    if (!text(retried).includes('SERVER_BUSY')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.match(text(retried), /\(write 2, replica \d+\)/);
});
