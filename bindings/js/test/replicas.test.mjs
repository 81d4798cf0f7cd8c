// Two replicas of one server, separate processes over Streamable HTTP,
// sharing one Redis (Debian's redis-server, started here on loopback with an
// append-only file fsynced on every write, so what it acknowledged survives a
// restart): the same idempotency key sent to both at once runs the write once,
// a replay on either gets the first outcome byte for byte, keys expire as
// configured, each conversation the client names keeps its own repeat streak
// across replicas, and a Redis that is down or hangs gets the core's
// retryable SERVER_BUSY within the store's timeout, with nothing written and
// nothing acknowledged lost.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RedisStore } from 'mcp-envelope/redis';
import { createClient } from 'redis';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const CALLS = 20;
// The replicas' RedisStore timeoutMs, and what a call over loopback may take beyond it.
const STORE_TIMEOUT_MS = 500;
const MARGIN_MS = 400;
const CONVERSATION_KEY = 'mcp-envelope/conversation';
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
    signal(name) {
      this.child.kill(name);
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
      [
        new URL('replica-server.mjs', import.meta.url).pathname,
        String(port),
        String(redis.port),
        run,
        String(ttlSeconds),
        String(STORE_TIMEOUT_MS),
      ],
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
  return (await callTimed(url, args, name)).answer;
}

/** One call in `conversation` (the `_meta` key the replicas read), when given, and how long its `tools/call` took. */
async function callTimed(url, args, name = 'refund_order', conversation = undefined) {
  const client = new Client({ name: 'replica-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const started = performance.now();
    const _meta = conversation === undefined ? undefined : { [CONVERSATION_KEY]: conversation };
    const { content, isError } = await client.callTool({ name, arguments: args, ...(_meta && { _meta }) });
    return { answer: { content, isError }, took: performance.now() - started };
  } finally {
    await client.close();
  }
}
const text = (answer) => answer.content[0].text;
const invoiceIn = async (url, conversation) => text((await callTimed(url, { id: 'inv_9' }, 'get_invoice', conversation)).answer);

/** The exact result a call with `key` gets while the store is down. */
const serverBusy = (key) => ({
  content: [
    {
      type: 'text',
      text:
        '<tool_error code="SERVER_BUSY" severity="error">\n' +
        '  <message>The server could not use its idempotency store, so this call did not run: nothing was written.</message>\n' +
        '  <recovery>Wait 5 seconds, then make the same call with the same key.</recovery>\n' +
        '  <details>\n' +
        '    <detail key="tool">refund_order</detail>\n' +
        `    <detail key="idempotencyKey">${key}</detail>\n` +
        '  </details>\n' +
        '  <retry_after>5 seconds</retry_after>\n' +
        '</tool_error>',
    },
  ],
  isError: true,
});

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

const FIRST = /<message>No invoice inv_9<\/message>/;
const REPEAT = /<message>Nothing has changed since the last attempt: the same failure again \(2 in a row\)\.<\/message>/;
const STOP =
  /^<tool_error code="NOT_FOUND" severity="critical">\n {2}<message>Stop retrying: this call has failed the same way 3 times in a row/;

test("a failure repeated on alternating replicas reaches the ledger's stop", {
  skip: !hasRedis && 'redis-server is not installed',
}, async (t) => {
  const { urls } = await cluster(t);
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await invoiceIn(urls[i % 2], 'conversation-1'));
  assert.match(answers[0], FIRST);
  assert.match(answers[1], REPEAT);
  assert.match(answers[2], STOP);
});

test('each conversation keeps its own streak across replicas', { skip: !hasRedis && 'redis-server is not installed' }, async (t) => {
  const { urls } = await cluster(t);
  // Two conversations interleaved, each on alternating replicas: each its own streak.
  const steps = [
    [0, 'conversation-a'],
    [1, 'conversation-b'],
    [1, 'conversation-a'],
    [0, 'conversation-b'],
    [0, 'conversation-a'],
  ];
  const answers = [];
  for (const [replica, conversation] of steps) answers.push(await invoiceIn(urls[replica], conversation));
  assert.match(answers[0], FIRST);
  assert.match(answers[1], FIRST);
  assert.match(answers[2], REPEAT);
  assert.match(answers[3], REPEAT);
  assert.match(answers[4], STOP);
  // Without the key, a stateless call belongs to no conversation: no ledger, never a repeat.
  for (let i = 0; i < 3; i++) assert.match(await invoiceIn(urls[i % 2], undefined), FIRST);
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
  const { answer: down, took } = await callTimed(urls[1], { ...REFUND, idempotency_key: 'refund-A-8812-2' }, 'refund_order', 'c-1');
  t.diagnostic(`Redis stopped: SERVER_BUSY in ${took.toFixed(0)} ms (store timeout ${STORE_TIMEOUT_MS} ms)`);
  assert.deepEqual(down, serverBusy('refund-A-8812-2'));
  assert.ok(took < STORE_TIMEOUT_MS + MARGIN_MS, `${took} ms`);
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

test("a Redis that hangs is answered within the store's timeout", { skip: !hasRedis && 'redis-server is not installed' }, async (t) => {
  const { redis, urls, client, run } = await cluster(t);
  await call(urls[0], REFUND);
  // A stopped process: connections stay open and nothing answers, so only a timeout ends a call.
  redis.signal('SIGSTOP');
  try {
    // The ledger alone asks the store once, and fails open: the failure as itself.
    const invoice = await callTimed(urls[1], { id: 'inv_9' }, 'get_invoice', 'c-1');
    t.diagnostic(`Redis hung: the ledger's call answered in ${invoice.took.toFixed(0)} ms`);
    assert.match(text(invoice.answer), FIRST);
    assert.ok(invoice.took < STORE_TIMEOUT_MS + MARGIN_MS, `${invoice.took} ms`);
    // The key's claim asks once, then the result goes through the ledger, which asks once more.
    const busy = await callTimed(urls[0], { ...REFUND, idempotency_key: 'refund-A-8812-2' }, 'refund_order', 'c-1');
    t.diagnostic(`Redis hung: SERVER_BUSY in ${busy.took.toFixed(0)} ms (store timeout ${STORE_TIMEOUT_MS} ms)`);
    assert.deepEqual(busy.answer, serverBusy('refund-A-8812-2'));
    assert.ok(busy.took >= STORE_TIMEOUT_MS && busy.took < 2 * STORE_TIMEOUT_MS + MARGIN_MS, `${busy.took} ms`);
  } finally {
    redis.signal('SIGCONT');
  }
  assert.equal(await client.get(`${run}:writes`), '1');
});

test('a timeoutMs that is not a whole number of milliseconds, at least 1, is refused when the store is made', () => {
  const client = { get: async () => null, eval: async () => 0 };
  for (const timeoutMs of [0, -5, 1.5, Number.NaN, '500']) {
    assert.throws(() => new RedisStore(client, { timeoutMs }), {
      name: 'TypeError',
      message: `timeoutMs must be a whole number of milliseconds, at least 1, not ${String(timeoutMs)}`,
    });
  }
  assert.ok(new RedisStore(client, { timeoutMs: 1 }));
});
