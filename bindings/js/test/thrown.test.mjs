// What a thrown value becomes, read from its structure (src/thrown.ts), end
// to end: a real McpServer wrapped by envelopeServer and the SDK's own Client
// over an in-memory pair. Tools throw what real code throws: a plain Error,
// Node's fs errors on the arguments' paths, and a leak corpus of errors raised
// by the real libraries (fetch, axios, got, ky, Octokit, pg, JSON, URL, fs)
// against loopback servers this file starts, each holding a secret that must
// never reach the model.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { request as octokitRequest } from '@octokit/request';
import axios from 'axios';
import { FastMCP } from 'fastmcp';
import got from 'got';
import ky from 'ky';
import pg from 'pg';
import * as z from 'zod';
import { parseEnvelope } from 'mcp-envelope';
import { envelopeFastMCP, envelopeTool } from 'mcp-envelope/fastmcp';
import { envelopeServer, resultFor, withEnvelope } from 'mcp-envelope/mcp';

/** The result's text, its fresh correlation id written as `err_ID`. */
const textOf = (result) =>
  result.content
    .map((c) => c.text)
    .join('\n')
    .replace(/err_[0-9a-f]{12}/g, 'err_ID');

/** A client of `server` (wrapped by the caller) over an in-memory pair. */
async function connect(server) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** A loopback port nothing listens on: one the system gave, then closed. */
async function closedPort() {
  const probe = createNetServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const INTERNAL = (tool) =>
  `<tool_error code="INTERNAL_ERROR" severity="error">
  <message>${tool} failed with an internal error.</message>
  <recovery>Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.</recovery>
  <customer_message>Something went wrong on our side. It was recorded under the reference err_ID.</customer_message>
  <correlation_id>err_ID</correlation_id>
</tool_error>`;

describe('a thrown value, by its structure, through envelopeServer', () => {
  let root;
  let client;
  let hiddenClient;
  const logged = [];

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'mcp-envelope-thrown-'));
    await mkdir(join(root, 'notes'));
    const server = envelopeServer(new McpServer({ name: 'files', version: '1.0.0' }), {
      logger: (failure) => logged.push(failure),
    });
    const path = { inputSchema: { path: z.string() } };
    server.registerTool('open_nodes', {}, async () => {
      throw new Error('Entity with name Nobody not found');
    });
    server.registerTool('read_text_file', path, async ({ path }) => ({
      content: [{ type: 'text', text: await readFile(join(root, path), 'utf8') }],
    }));
    server.registerTool('create_directory', path, async ({ path }) => {
      await mkdir(join(root, path));
      return { content: [{ type: 'text', text: `created ${path}` }] };
    });
    server.registerTool('broken', {}, async () => {
      const settings = undefined;
      return settings.password;
    });
    client = await connect(server);

    const hidden = envelopeServer(new McpServer({ name: 'strict', version: '1.0.0' }), {
      thrownMessages: 'hidden',
      logger: (failure) => logged.push(failure),
    });
    hidden.registerTool('open_nodes', {}, async () => {
      throw new Error('Entity with name Nobody not found');
    });
    hidden.registerTool('read_text_file', path, async ({ path }) => ({
      content: [{ type: 'text', text: await readFile(join(root, path), 'utf8') }],
    }));
    hiddenClient = await connect(hidden);
  });

  after(async () => {
    await client?.close();
    await hiddenClient?.close();
    await rm(root, { recursive: true, force: true });
  });

  test("a plain Error is the author's words: TOOL_ERROR stating them, as the SDK alone sends the text", async () => {
    logged.length = 0;
    const result = await client.callTool({ name: 'open_nodes', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(
      textOf(result),
      '<tool_error code="TOOL_ERROR" severity="error">\n  <message>Entity with name Nobody not found</message>\n</tool_error>',
    );
    // Nothing hidden, so nothing to log.
    assert.deepEqual(logged, []);
  });

  test('readFile of a missing file the model named: NOT_FOUND naming the argument, not the path the server resolved', async () => {
    logged.length = 0;
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: 'missing.txt' } });
    assert.equal(
      textOf(result),
      `<tool_error code="NOT_FOUND" severity="error">
  <message>No file or folder exists at path "missing.txt".</message>
  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
  <customer_message>We couldn't find what you asked for.</customer_message>
  <correlation_id>err_ID</correlation_id>
</tool_error>`,
    );
    assert.ok(!JSON.stringify(result).includes(root), 'the server’s folder reached the model');
    // The log line has the code, the correlation id the model read, and Node's own text.
    assert.equal(logged.length, 1);
    const [entry] = logged;
    assert.equal(entry.correlationId, parseEnvelope(result).error.correlationId);
    assert.equal(entry.error.code, 'ENOENT');
    assert.ok(entry.log.startsWith(`code=NOT_FOUND correlationId="${entry.correlationId}" tool="read_text_file" exception="Error: ENOENT`));
    assert.ok(entry.log.includes(root));
  });

  test('mkdir of a folder that exists (EEXIST): CONFLICT naming the argument', async () => {
    const result = await client.callTool({ name: 'create_directory', arguments: { path: 'notes' } });
    assert.equal(
      textOf(result),
      `<tool_error code="CONFLICT" severity="error">
  <message>Something already exists at path "notes".</message>
  <recovery>Read the current state again, then decide whether the change still applies.</recovery>
  <correlation_id>err_ID</correlation_id>
</tool_error>`,
    );
  });

  test('readFile of a folder (EISDIR, whose error names no path): VALIDATION_ERROR', async () => {
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: 'notes' } });
    assert.equal(
      textOf(result),
      `<tool_error code="VALIDATION_ERROR" severity="error">
  <message>This call needs a file and found a folder.</message>
  <recovery>Fix the arguments named above and call the tool again.</recovery>
  <correlation_id>err_ID</correlation_id>
</tool_error>`,
    );
  });

  test("thrownMessages 'hidden': the author's words are INTERNAL_ERROR too, the text in the log only", async () => {
    logged.length = 0;
    const result = await hiddenClient.callTool({ name: 'open_nodes', arguments: {} });
    assert.equal(textOf(result), INTERNAL('open_nodes'));
    assert.equal(logged.length, 1);
    assert.match(
      logged[0].log,
      /^code=INTERNAL_ERROR correlationId="err_[0-9a-f]{12}" tool="open_nodes" exception="Entity with name Nobody not found"$/,
    );
    // What the structure tells is told whatever the rule for words.
    const missing = await hiddenClient.callTool({ name: 'read_text_file', arguments: { path: 'missing.txt' } });
    assert.equal(parseEnvelope(missing).code, 'NOT_FOUND');
  });

  test('a TypeError (the code’s own crash, not words for the model): INTERNAL_ERROR', async () => {
    const result = await client.callTool({ name: 'broken', arguments: {} });
    assert.equal(textOf(result), INTERNAL('broken'));
  });
});

describe('which thrown values are the author’s words', () => {
  const answer = (thrown, options) => textOf(resultFor({ thrown }, 'tool', {}, { logger: () => {}, ...options }));
  const TOOL_ERROR = (message) => `<tool_error code="TOOL_ERROR" severity="error">\n  <message>${message}</message>\n</tool_error>`;

  test('exactly Error, from this realm or another (a vm context), with no code of its own', () => {
    assert.equal(answer(new Error('No invoice inv_9')), TOOL_ERROR('No invoice inv_9'));
    assert.equal(answer(runInNewContext('new Error("No invoice inv_9")')), TOOL_ERROR('No invoice inv_9'));
  });

  test('a subclass, from any realm, or an Error a library tagged with a code, is not', () => {
    class DatabaseError extends Error {}
    const tagged = Object.assign(new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: users.email'), { code: 'SQLITE_CONSTRAINT' });
    for (const thrown of [
      new TypeError('x'),
      new RangeError('x'),
      new DatabaseError('x'),
      runInNewContext('new TypeError("x")'),
      tagged,
      new AggregateError([new Error('x')], 'x'),
      { message: 'an object that only looks like an error' },
      'a string',
    ]) {
      assert.equal(answer(thrown), INTERNAL('tool'), inspect(thrown));
    }
  });

  test('a hostile value (throwing getters, Proxy traps, a revoked Proxy) is an exception like any other', () => {
    const throws = () => {
      throw new Error('trap');
    };
    const getters = new Error('x');
    for (const key of ['code', 'name', 'cause', 'response', 'message', 'isAxiosError', 'syscall']) {
      Object.defineProperty(getters, key, { get: throws });
    }
    const trapped = new Proxy(new Error('x'), { get: throws, getPrototypeOf: throws, has: throws, getOwnPropertyDescriptor: throws });
    const { proxy: revoked, revoke } = Proxy.revocable(new Error('x'), {});
    revoke();
    const causeThrows = new TypeError('fetch failed', { cause: new Proxy({}, { get: throws }) });
    for (const thrown of [getters, trapped, revoked, causeThrows, Object.create(null)]) {
      assert.equal(answer(thrown), INTERNAL('tool'));
    }
  });

  test('thrownMessages is checked when a server or tool is wrapped', () => {
    const refusal = { name: 'TypeError', message: /^options\.thrownMessages must be 'shown' .* or 'hidden', not "strict"$/ };
    assert.throws(() => envelopeServer(new McpServer({ name: 's', version: '1' }), { thrownMessages: 'strict' }), refusal);
    assert.throws(() => withEnvelope('t', () => 1, { thrownMessages: 'strict' }), refusal);
    assert.throws(() => envelopeTool({ name: 't', execute: () => 'ok' }, { thrownMessages: 'strict' }), refusal);
    assert.throws(
      () => envelopeFastMCP(new FastMCP({ name: 's', version: '1.0.0', ping: { enabled: false } }), { thrownMessages: 'strict' }),
      refusal,
    );
    assert.throws(() => withEnvelope('t', () => 1, { thrownMessages: true }), /not boolean$/);
    for (const thrownMessages of ['shown', 'hidden', undefined]) withEnvelope('t', () => 1, { thrownMessages });
  });

  test('FastMCP (envelopeTool) reads thrown values the same way', async () => {
    const execute = async ({ path }) => {
      if (path === 'nobody') throw new Error('Entity with name Nobody not found');
      return readFile(join(tmpdir(), 'mcp-envelope-no-such-folder', path), 'utf8');
    };
    const shown = envelopeTool({ name: 'read', execute }, { logger: () => {} });
    const hidden = envelopeTool({ name: 'read', execute }, { logger: () => {}, thrownMessages: 'hidden' });
    assert.equal(textOf(await shown.execute({ path: 'nobody' }, {})), TOOL_ERROR('Entity with name Nobody not found'));
    assert.equal(textOf(await hidden.execute({ path: 'nobody' }, {})), INTERNAL('read'));
    assert.equal(parseEnvelope(await hidden.execute({ path: 'a.txt' }, {})).message, 'No file or folder exists at path "a.txt".');
  });
});

describe('the leak corpus: real libraries’ errors, each holding a secret, through a real McpServer', () => {
  let upstream;
  let base;
  let closed;
  let client;
  let items;
  const rows = [];

  // Each case: the library, what it does, the secrets in play, the code its structure allows, and the arguments the model sends.
  const corpus = () => [
    {
      library: 'JSON.parse',
      error: 'SyntaxError quoting the text',
      secrets: ['hunter2'],
      code: 'INTERNAL_ERROR',
      run: () => JSON.parse('{"db_password": hunter2}'),
    },
    {
      library: 'fetch (undici)',
      error: 'TypeError: credentials in the URL',
      secrets: ['s3cret-userinfo'],
      code: 'INTERNAL_ERROR',
      run: () => fetch(`http://user:s3cret-userinfo@127.0.0.1:${closed}/`),
    },
    {
      library: 'fetch (undici)',
      error: 'fetch failed, cause ECONNREFUSED',
      secrets: ['SECRET-fetch-key'],
      code: 'UPSTREAM_UNAVAILABLE',
      run: () => fetch(`http://127.0.0.1:${closed}/v1?api_key=SECRET-fetch-key`),
    },
    {
      library: 'fetch (undici)',
      error: 'TimeoutError (AbortSignal.timeout)',
      secrets: ['SECRET-slow-token'],
      code: 'TIMEOUT',
      run: () => fetch(`${base}/hang?token=SECRET-slow-token`, { signal: AbortSignal.timeout(50) }),
    },
    {
      library: 'axios',
      error: 'AxiosError 429, Retry-After 7',
      secrets: ['SECRET-axios-token'],
      code: 'RATE_LIMITED',
      args: () => ({ url: `${base}/limited?token=SECRET-axios-token` }),
      run: ({ url }) => axios.get(url),
      check: (text) => assert.match(text, /<retry_after>7 seconds<\/retry_after>/),
    },
    {
      library: 'axios',
      error: 'ECONNREFUSED, credentials in the URL',
      secrets: ['s3cret-axios'],
      code: 'UPSTREAM_UNAVAILABLE',
      run: () => axios.get(`http://bot:s3cret-axios@127.0.0.1:${closed}/`),
    },
    {
      library: 'axios',
      error: 'ECONNABORTED (its timeout)',
      secrets: ['SECRET-axios-slow'],
      code: 'TIMEOUT',
      run: () => axios.get(`${base}/hang?api_key=SECRET-axios-slow`, { timeout: 50 }),
    },
    {
      library: 'got',
      error: 'HTTPError 404',
      secrets: ['SECRET-got-token'],
      code: 'NOT_FOUND',
      args: () => ({ url: `${base}/missing?access_token=SECRET-got-token` }),
      run: ({ url }) => got(url, { retry: { limit: 0 } }),
    },
    {
      library: 'got',
      error: 'HTTPError 503, Authorization header',
      secrets: ['SECRET-got-bearer'],
      code: 'UPSTREAM_UNAVAILABLE',
      run: () => got(`${base}/down`, { retry: { limit: 0 }, headers: { authorization: 'Bearer SECRET-got-bearer' } }),
    },
    {
      library: 'got',
      error: 'RequestError ECONNREFUSED',
      secrets: ['s3cret-got'],
      code: 'UPSTREAM_UNAVAILABLE',
      run: () => got(`http://127.0.0.1:${closed}/?password=s3cret-got`, { retry: { limit: 0 } }),
    },
    {
      library: 'ky',
      error: 'HTTPError 503',
      secrets: ['SECRET-ky-key'],
      code: 'UPSTREAM_UNAVAILABLE',
      run: () => ky.get(`${base}/down?api_key=SECRET-ky-key`, { retry: 0 }),
    },
    {
      library: 'ky',
      error: 'TimeoutError',
      secrets: ['SECRET-ky-slow'],
      code: 'TIMEOUT',
      run: () => ky.get(`${base}/hang?token=SECRET-ky-slow`, { retry: 0, timeout: 50 }),
    },
    {
      library: '@octokit/request',
      error: 'HttpError 401, a token in the request',
      secrets: ['ghp_SECRETocto401'],
      code: 'AUTH_REQUIRED',
      run: () => octokitRequest('GET /user', { baseUrl: `${base}/unauthorized`, headers: { authorization: 'token ghp_SECRETocto401' } }),
    },
    {
      library: '@octokit/request',
      error: 'HttpError 404',
      secrets: ['ghp_SECRETocto404'],
      code: 'NOT_FOUND',
      run: () =>
        octokitRequest('GET /repos/{owner}/{repo}', {
          baseUrl: `${base}/missing`,
          owner: 'acme',
          repo: 'billing',
          headers: { authorization: 'token ghp_SECRETocto404' },
        }),
    },
    {
      library: 'pg',
      error: 'connect ECONNREFUSED, password in the connection string',
      secrets: ['s3cret-pg'],
      code: 'UPSTREAM_UNAVAILABLE',
      run: () => new pg.Client({ connectionString: `postgres://admin:s3cret-pg@127.0.0.1:${closed}/billing` }).connect(),
    },
    {
      library: 'URL',
      error: 'TypeError ERR_INVALID_URL quoting the input',
      secrets: ['SECRET-url-token'],
      code: 'INTERNAL_ERROR',
      run: () => new URL('http://[bad?token=SECRET-url-token'),
    },
    {
      library: 'fs.readFileSync',
      error: 'ENOENT on a path no argument holds',
      secrets: ['s3cret-path'],
      code: 'NOT_FOUND',
      args: () => ({ name: 'prod' }),
      run: () => readFileSync(join(tmpdir(), 'mcp-envelope-missing', 's3cret-path', 'config.json')),
    },
    {
      library: 'Error (the author’s own)',
      error: 'a message quoting a URL with credentials',
      secrets: ['hunter2', 'token=abc'],
      code: 'TOOL_ERROR',
      run: () => {
        throw new Error('GET https://bot:hunter2@api.example.com/?token=abc failed');
      },
      check: (text) => assert.match(text, /https:\/\/\[redacted\]@api\.example\.com\/\?token=\[redacted\]/),
    },
  ];

  before(async () => {
    upstream = createServer((request, response) => {
      const path = request.url ?? '';
      // /hang never answers: a client's timeout ends the call.
      if (path.startsWith('/hang')) return;
      const status = path.startsWith('/limited')
        ? 429
        : path.startsWith('/missing')
          ? 404
          : path.startsWith('/down')
            ? 503
            : path.startsWith('/unauthorized')
              ? 401
              : 200;
      response.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '7' } : {}) });
      response.end(JSON.stringify({ message: `status ${status}` }));
    });
    await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${upstream.address().port}`;
    closed = await closedPort();
    const server = envelopeServer(new McpServer({ name: 'corpus', version: '1.0.0' }), { logger: () => {} });
    items = corpus();
    for (const [i, item] of items.entries()) {
      // Each tool runs the real library call and throws what it throws.
      server.registerTool(`case_${i}`, { inputSchema: { url: z.string().optional(), name: z.string().optional() } }, async (args) => {
        try {
          await item.run(args);
        } catch (thrown) {
          item.thrown = thrown;
          throw thrown;
        }
        throw new Error('the library call did not fail');
      });
    }
    client = await connect(server);
  });

  after(async () => {
    await client?.close();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
    if (rows.length > 0) {
      console.log(`leak corpus: ${rows.filter((row) => row.leaked).length} of ${rows.length} secrets leaked`);
    }
  });

  test('no secret reaches the model, and each answer carries the code its structure allows', { timeout: 30_000 }, async () => {
    assert.ok(items.length >= 10);
    for (const [i, item] of items.entries()) {
      const args = item.args?.() ?? {};
      const started = Date.now();
      const result = await client.callTool({ name: `case_${i}`, arguments: args });
      const text = textOf(result);
      const leaked = item.secrets.some((secret) => JSON.stringify(result).includes(secret));
      const code = parseEnvelope(result)?.code;
      // Whether the library's error itself carried the secret (its text, cause or fields), which the answer then kept out.
      const carried = item.secrets.some((secret) => inspect(item.thrown, { depth: 8, showHidden: true }).includes(secret));
      rows.push({ library: item.library, error: item.error, code, leaked, carried, ms: Date.now() - started });
      assert.ok(!leaked, `${item.library}, ${item.error}: a secret reached the model:\n${text}`);
      assert.equal(code, item.code, `${item.library}, ${item.error}:\n${text}`);
      item.check?.(text);
    }
    console.log(
      rows
        .map(
          (r) =>
            `${r.library} | ${r.error} | ${r.code} | ${r.carried ? 'in the error' : 'not in the error'} | ${r.leaked ? 'LEAKED' : 'no leak'} | ${r.ms} ms`,
        )
        .join('\n'),
    );
    assert.equal(rows.filter((row) => row.leaked).length, 0);
  });
});
