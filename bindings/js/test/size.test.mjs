// Size budgets: sizes only, never timings (those vary with the machine; see
// bench/bench.mjs). README.md, "Size budgets", says where each number comes from.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { bundleBrowser, bundleWorker, nodeEntryFiles, pkg, wasmCopies } from './measure.mjs';

const GLUE_BUDGET = 25_000; // bytes, raw: the JavaScript between the API and the envelope component's core module
const NODE_ENTRY_BUDGET = 430_000; // bytes, raw: everything `import 'mcp-envelope'` + a first render loads in Node

const loaded = nodeEntryFiles();
const total = (files) => files.reduce((sum, f) => sum + f.raw, 0);
const describe = (files) => files.map((f) => `${f.file} ${f.raw}`).join(', ');
const fullCore = readFileSync(join(pkg, 'generated', 'full.core.wasm'));

test(`the JS glue is at most ${GLUE_BUDGET} bytes`, () => {
  // The glue is jco's bindings of the envelope component, component.ts over them and the loader the runtime picked.
  const glue = loaded.filter((f) => ['generated/envelope.js', 'dist/component.js', 'dist/load/node.js'].includes(f.file));
  assert.deepEqual(glue.map((f) => f.file).sort(), ['dist/component.js', 'dist/load/node.js', 'generated/envelope.js']);
  assert.ok(total(glue) <= GLUE_BUDGET, `glue ${total(glue)} bytes: ${describe(glue)}`);
});

test("the default Node entry loads neither the full component's bindings nor its loader", () => {
  // component.ts runs the envelope component alone; full-component.ts, which only the other entries import, the full one.
  const fullGlue = loaded.filter(
    (f) => f.file === 'generated/full.js' || f.file === 'dist/full-component.js' || f.file.startsWith('dist/load/'),
  );
  assert.deepEqual(
    fullGlue.map((f) => f.file),
    ['dist/load/node.js'],
  );
});

test(`the default Node entry loads at most ${NODE_ENTRY_BUDGET} bytes, the envelope component's wasm once, as a file`, () => {
  const wasm = loaded.filter((f) => f.file.endsWith('.wasm') || f.file.endsWith('-core-wasm.js'));
  assert.deepEqual(
    wasm.map((f) => f.file),
    ['generated/envelope.core.wasm'],
  );
  assert.ok(total(loaded) <= NODE_ENTRY_BUDGET, `${total(loaded)} bytes: ${describe(loaded)}`);
});

test('the other entry points and the framework integrations are entries of their own: the default entry loads none of them', () => {
  const integrations = loaded.filter((f) =>
    [
      'dist/server.js',
      'dist/agent.js',
      'dist/contract.js',
      'dist/raw.js',
      'dist/mcp.js',
      'dist/fastmcp.js',
      'dist/tool-call.js',
      'dist/handler-map.js',
      'dist/low-level.js',
      'dist/ai-sdk.js',
      'dist/langchain.js',
    ].includes(f.file),
  );
  assert.deepEqual(integrations, []);
});

test("a Workers bundle of the default entry holds one copy of the envelope component's wasm and nothing of the full one", async () => {
  const work = mkdtempSync(join(tmpdir(), 'mcp-envelope-size-'));
  try {
    const bundle = await bundleWorker(work);
    assert.deepEqual(
      bundle.map((f) => f.file),
      ['envelope.core.wasm', 'worker.js'],
    );
    assert.equal(wasmCopies(bundle), 1, describe(bundle));
    assert.equal(wasmCopies(bundle, fullCore), 0, describe(bundle));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("a browser bundle of the default entry embeds the envelope component's wasm once and nothing of the full one", async () => {
  const work = mkdtempSync(join(tmpdir(), 'mcp-envelope-size-'));
  try {
    const bundle = await bundleBrowser(work);
    assert.equal(wasmCopies(bundle), 1, describe(bundle));
    assert.equal(wasmCopies(bundle, fullCore), 0, describe(bundle));
    const js = readFileSync(bundle.find((f) => f.file === 'app.js').path, 'utf8');
    assert.doesNotMatch(js, /mcp:envelope\/server@/, "the full component's bindings are in the bundle");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
