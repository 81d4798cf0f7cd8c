// Every shared vector through the package's public API, compared byte for
// byte: each case as the package routes it (the envelope component for the
// WIT interface `envelope`, the full one for the rest), then the `envelope`
// cases again on the full component.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as main from 'mcp-envelope';
import * as agent from 'mcp-envelope/agent';
import * as contract from 'mcp-envelope/contract';
import * as raw from 'mcp-envelope/raw';
import * as server from 'mcp-envelope/server';
import { componentRuns, INTERFACE_OF_CALL, vectorCases } from './vector-runner.mjs';

const folder = new URL('../../../vectors/', import.meta.url);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, groups: JSON.parse(readFileSync(new URL(name, folder), 'utf8')) }));
const cases = vectorCases(files);
// The runner calls every export by name, whichever entry point holds it.
const api = { ...main, ...server, ...agent, ...contract, ...raw };

// Which core module each instance is made of: the component's exports say (`server` only in the full one).
const instantiated = [];
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args) {
    const full = WebAssembly.Module.exports(args[0]).some((e) => e.name.startsWith('mcp:envelope/server@'));
    instantiated.push(full ? 'full' : 'envelope');
    return Reflect.construct(target, args);
  },
});

test('the vector files hold cases of every interface', () => {
  if (cases.length < 160) throw new Error(`only ${cases.length} cases found in ${folder.pathname}`);
  assert.deepEqual([...new Set(cases.map((c) => c.wit))].sort(), ['agent', 'contract', 'envelope', 'server']);
});

test("the runner's table of interfaces is the WIT's", () => {
  const wit = new URL('../../../wit/', import.meta.url);
  const declared = {};
  for (const name of readdirSync(wit).filter((f) => f.endsWith('.wit'))) {
    let current;
    for (const line of readFileSync(new URL(name, wit), 'utf8').split('\n')) {
      const opened = /^\s*interface\s+([a-z-]+)\s*\{/.exec(line);
      if (opened) current = opened[1];
      const func = /^\s*([a-z][a-z0-9-]*)\s*:\s*func\b/.exec(line);
      if (func && current !== undefined) declared[func[1]] = current;
    }
  }
  for (const [call, wit] of Object.entries(INTERFACE_OF_CALL)) assert.equal(declared[call], wit, call);
});

let handedOver;
for (const { name, run } of componentRuns(cases, () => {
  handedOver = instantiated.length;
  raw.useCoreModule(new WebAssembly.Module(readFileSync(new URL('../generated/full.core.wasm', import.meta.url))));
})) {
  test(name, () => run(api));
}

test('the first pass instantiated both components, the second only the full one', () => {
  assert.ok(handedOver !== undefined);
  assert.deepEqual([...new Set(instantiated.slice(0, handedOver))].sort(), ['envelope', 'full']);
  assert.deepEqual([...new Set(instantiated.slice(handedOver))], ['full']);
});
