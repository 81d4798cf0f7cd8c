// The built package in a real browser (Debian's chromium, headless), standing
// in for edge runtimes: a page served on 127.0.0.1 imports dist/ as plain ES
// modules, runs every shared vector and posts its verdict back here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { componentRuns, vectorCases } from './vector-runner.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const vectors = fileURLToPath(new URL('../../../vectors/', import.meta.url));
const BROWSER = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TIMEOUT_MS = 120_000;
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

// Only these folders are served: the built package, the tests, the vectors.
const ROOTS = {
  '/pkg/dist/': join(pkg, 'dist'),
  '/pkg/generated/': join(pkg, 'generated'),
  '/test/': join(pkg, 'test'),
  '/vectors/': vectors,
};

function vectorNames() {
  return readdirSync(vectors)
    .filter((name) => name.endsWith('.json') && name !== 'schema.json')
    .sort();
}

/** Pids of live processes whose command line names `marker` (Linux's /proc; none elsewhere). */
function processesNaming(marker) {
  if (!existsSync('/proc')) return [];
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // already gone (ESRCH)
  }
}

/**
 * Ends the browser and every helper it started, and waits until none is left:
 * Chromium's helpers keep writing into the profile for a moment after the
 * main process is told to stop, and removing the profile under them fails with
 * ENOTEMPTY. The browser leads its own process group (spawned detached), so
 * the group is signalled; helpers that left the group are found by the
 * profile path on their command line.
 */
async function stopBrowser(browser, profile) {
  const alive = () => [
    ...(signal(-browser.pid, 0) ? [-browser.pid] : []),
    ...processesNaming(profile).filter((pid) => pid !== process.pid),
  ];
  for (const pid of alive()) signal(pid, 'SIGTERM');
  for (let waited = 0; alive().length > 0; waited += 50) {
    if (waited >= 5000) for (const pid of alive()) signal(pid, 'SIGKILL');
    if (waited >= 15000) throw new Error(`browser processes still running after 15 s: ${alive().join(', ')}`);
    await sleep(50);
  }
}

function serve(onVerdict) {
  return createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    if (request.method === 'POST' && url.pathname === '/verdict') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        response.end('ok');
        onVerdict(JSON.parse(body));
      });
      return;
    }
    if (url.pathname === '/vectors/') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(vectorNames()));
      return;
    }
    const prefix = Object.keys(ROOTS).find((p) => url.pathname.startsWith(p));
    const file = prefix && normalize(join(ROOTS[prefix], decodeURIComponent(url.pathname.slice(prefix.length))));
    if (!file?.startsWith(ROOTS[prefix]) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
}

test('every shared vector passes in headless Chromium', async () => {
  const cases = vectorCases(vectorNames().map((name) => ({ name, groups: JSON.parse(readFileSync(join(vectors, name), 'utf8')) })));
  const expectedTotal = componentRuns(cases, () => {}).length;
  let resolveVerdict;
  const verdict = new Promise((resolve) => {
    resolveVerdict = resolve;
  });
  const server = serve(resolveVerdict);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = mkdtempSync(join(tmpdir(), 'mcp-envelope-chromium-'));
  const url = `http://127.0.0.1:${server.address().port}/test/browser/page.html`;
  const browser = spawn(
    BROWSER,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let browserLog = '';
  browser.stderr.on('data', (chunk) => {
    browserLog = (browserLog + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => browser.on('exit', resolve));
  const spawnFailed = new Promise((_, reject) => browser.on('error', (e) => reject(new Error(`could not start ${BROWSER}: ${e.message}`))));
  let timer;
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no verdict within ${TIMEOUT_MS / 1000} s; browser log:\n${browserLog}`)), TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([
      verdict,
      spawnFailed,
      timedOut,
      exited.then((code) => {
        throw new Error(`${BROWSER} exited (${code}) before a verdict; log:\n${browserLog}`);
      }),
    ]);
    assert.deepEqual(result.failures, [], `failures in the browser:\n${JSON.stringify(result.failures, null, 2)}`);
    assert.equal(result.total, expectedTotal);
    assert.equal(result.passed, expectedTotal);
    assert.match(result.userAgent, /HeadlessChrome/);
  } finally {
    clearTimeout(timer);
    try {
      await stopBrowser(browser, profile);
    } finally {
      server.close();
      // Retries cover a file system that is slow to show the last writes gone.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  }
});
