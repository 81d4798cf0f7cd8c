// Every shared vector in Deno and Bun, the versions package.json pins (their
// npm packages carry the binaries): a throwaway project with the package in
// its node_modules and a package.json naming it, as a user's project has, and
// a module there importing the package's entry points by name and running the vectors
// (test/runtimes/run-vectors.mjs). Both take package.json's `node` condition
// for `#core-module` and `#full-core-module`, so the .wasm files are read from
// disk; Deno gets read access to those files and the vectors, nothing else.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { componentRuns, vectorCases } from './vector-runner.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const vectors = fileURLToPath(new URL('../../../vectors/', import.meta.url));
const bin = (name) => join(pkg, 'node_modules', '.bin', name);
const total = componentRuns(
  vectorCases(
    readdirSync(vectors)
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({ name, groups: JSON.parse(readFileSync(join(vectors, name), 'utf8')) })),
  ),
  () => {},
).length;
const pinned = (name) => JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).devDependencies[name];

let project;
before(() => {
  project = mkdtempSync(join(tmpdir(), 'mcp-envelope-runtimes-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(pkg, join(project, 'node_modules', 'mcp-envelope'), 'dir');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user', private: true, type: 'module', dependencies: { 'mcp-envelope': '*' } }),
  );
  writeFileSync(
    join(project, 'main.mjs'),
    `import { readFileSync } from 'node:fs';
import * as main from 'mcp-envelope';
import * as agent from 'mcp-envelope/agent';
import * as contract from 'mcp-envelope/contract';
import * as raw from 'mcp-envelope/raw';
import * as server from 'mcp-envelope/server';
import { runVectors } from ${JSON.stringify(pathToFileURL(join(pkg, 'test', 'runtimes', 'run-vectors.mjs')).href)};
const fullCore = new WebAssembly.Module(readFileSync(new URL(import.meta.resolve('mcp-envelope/full.core.wasm'))));
runVectors({ ...main, ...server, ...agent, ...contract, ...raw }, fullCore);
`,
  );
});
after(() => rmSync(project, { recursive: true, force: true }));

async function verdictOf(command, args) {
  const { stdout } = await promisify(execFile)(command, args, { cwd: project, maxBuffer: 64 << 20, timeout: 120_000 });
  return JSON.parse(stdout);
}

function assertAllPassed(verdict, runtime) {
  assert.deepEqual(verdict.failures, [], `failures in ${verdict.runtime}:\n${JSON.stringify(verdict.failures, null, 2)}`);
  assert.equal(verdict.runtime, runtime);
  assert.equal(verdict.total, total);
  assert.equal(verdict.passed, total);
  assert.equal(verdict.coreModule, pathToFileURL(join(pkg, 'dist', 'load', 'node.js')).href);
}

test('every shared vector passes in Deno', async () => {
  const wasm = ['envelope', 'full'].map((name) => join(pkg, 'generated', `${name}.core.wasm`));
  const verdict = await verdictOf(bin('deno'), [
    'run',
    '--no-lock',
    '--no-prompt',
    `--allow-read=${wasm.join(',')},${vectors}`,
    'main.mjs',
  ]);
  assertAllPassed(verdict, `deno ${pinned('deno')}`);
});

test('every shared vector passes in Bun', async () => {
  const verdict = await verdictOf(bin('bun'), ['main.mjs']);
  assertAllPassed(verdict, `bun ${pinned('bun')}`);
});
