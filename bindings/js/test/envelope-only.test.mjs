// The main entry never loads the full component: importing `mcp-envelope` and
// calling every one of its functions (a trap and its `after-trap` answer
// included) reads, compiles and instantiates only the envelope component's
// core module; the full one is read on the first call of an export only it
// has (here `mcp-envelope/server`'s `idempotencyKeyArgument`), not on the import of an entry
// point holding one. This file (its own process under `node --test`) watches
// `fs` and WebAssembly from before the package's first import; a core module
// is the full component's when it exports the WIT interface `server`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { entries } from './entries.mjs';

const componentOf = (module) =>
  WebAssembly.Module.exports(module).some((e) => e.name.startsWith('mcp:envelope/server@')) ? 'full' : 'envelope';
const seen = { read: [], compiled: [], instantiated: [] };
const take = () => {
  const taken = { read: [...new Set(seen.read)], compiled: [...new Set(seen.compiled)], instantiated: [...new Set(seen.instantiated)] };
  for (const list of Object.values(seen)) list.length = 0;
  return taken;
};

const realReadFileSync = fs.readFileSync;
fs.readFileSync = function readFileSync(path, ...rest) {
  const name = String(path instanceof URL ? fileURLToPath(path) : path);
  if (name.endsWith('.wasm')) seen.read.push(name.split('/').pop());
  return realReadFileSync.call(this, path, ...rest);
};
syncBuiltinESMExports();
WebAssembly.Module = new Proxy(WebAssembly.Module, {
  construct(target, args) {
    const module = Reflect.construct(target, args);
    seen.compiled.push(componentOf(module));
    return module;
  },
});
// A trap on demand, as test/trap.test.mjs makes one: the armed export gets a pointer outside memory.
const OUTSIDE_MEMORY = 0xfff0_0000;
let armed;
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args) {
    const instance = Reflect.construct(target, args);
    seen.instantiated.push(componentOf(args[0]));
    const exports = { ...instance.exports };
    for (const [name, real] of Object.entries(instance.exports)) {
      if (typeof real !== 'function' || !name.includes('#') || name.endsWith('#after-trap') || name.startsWith('cabi_post_')) continue;
      exports[name] = (...callArgs) => {
        if (armed !== undefined && name.endsWith(`#${armed}`)) {
          armed = undefined;
          callArgs[0] = OUTSIDE_MEMORY;
        }
        return real(...callArgs);
      };
    }
    return { exports };
  },
});

const main = await import('mcp-envelope');
const spec = { code: 'NOT_FOUND', message: 'No invoice inv_9' };

test('importing the main entry loads no core module', () => {
  assert.deepEqual(take(), { read: [], compiled: [], instantiated: [] });
});

test('every function of the main entry runs on the envelope component alone', () => {
  // A new export of the main entry joins test/entries.mjs and the calls below.
  assert.deepEqual(Object.keys(main).sort(), entries['mcp-envelope']);
  const xml = main.render(spec);
  assert.ok(main.toolError('NOT_FOUND', { message: 'x' }).isError);
  assert.equal(main.error('NOT_FOUND', 'x').isError, true);
  assert.equal(main.parseEnvelope(xml).kind, 'tool_error');
  assert.throws(() => main.throwIfError(main.toolError('NOT_FOUND', { message: 'x' })), main.EnvelopeError);
  assert.ok(main.canonicalCodes().includes('NOT_FOUND'));
  assert.equal(main.codeDefaults('NOT_FOUND').category, 'business');
  assert.equal(typeof main.limitsInForce(), 'object');
  assert.equal(main.protocolError('method-not-found', 'no').code, -32601);
  const issues = [{ path: ['id'], message: 'Required', code: 'missing_required' }];
  assert.match(main.renderValidation('fix the id', issues), /^<validation_error/);
  assert.ok(main.validationError('fix the id', issues).isError);
  assert.equal(main.toValidationIssues([{ path: ['id'], message: 'Required' }]).length, 1);
  const partial = { task: 'Find A and B', obtained: ['A'], failed: [{ item: 'B', code: 'NOT_FOUND', message: 'No B' }] };
  assert.match(main.renderPartial(partial), /^<partial_result/);
  assert.equal(typeof main.partialResult(partial), 'object');
  assert.equal(typeof main.partialLimitsInForce(), 'object');
  assert.deepEqual(take(), { read: ['envelope.core.wasm'], compiled: ['envelope'], instantiated: ['envelope'] });
});

test("a trap in the main entry's call is answered by a fresh envelope instance's after-trap", () => {
  // The fresh instance is made as the first was: its core module read and compiled again.
  armed = 'render';
  const errors = [];
  const log = console.error;
  console.error = (line) => errors.push(line);
  try {
    assert.match(main.render(spec), /^<tool_error code="INTERNAL_ERROR"/);
  } finally {
    console.error = log;
  }
  assert.equal(errors.length, 1);
  assert.deepEqual(take(), { read: ['envelope.core.wasm'], compiled: ['envelope'], instantiated: ['envelope'] });
});

test('importing an entry point that holds full-component exports loads nothing; its first such call loads the full component', async () => {
  const server = await import('mcp-envelope/server');
  await import('mcp-envelope/agent');
  await import('mcp-envelope/contract');
  await import('mcp-envelope/raw');
  assert.deepEqual(take(), { read: [], compiled: [], instantiated: [] });
  assert.equal(server.idempotencyKeyArgument(), 'idempotency_key');
  assert.deepEqual(take(), { read: ['full.core.wasm'], compiled: ['full'], instantiated: ['full'] });
  main.render(spec);
  assert.deepEqual(take(), { read: [], compiled: [], instantiated: [] });
});
