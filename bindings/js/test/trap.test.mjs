// A trap inside the component must not kill the host: the call that trapped
// throws an Error saying so, the next call runs on a fresh instance, and a
// ledger loses nothing, since its streaks are held by the host, not by the
// instance that trapped. The trap is real: this file (its own process under
// `node --test`) wraps WebAssembly.Instance so that, when armed, one export is
// handed a string pointer far outside the module's memory, and the core traps
// reading it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const RealInstance = WebAssembly.Instance;
const OUTSIDE_MEMORY = 0xfff0_0000;
let armed; // the export name whose next call traps

WebAssembly.Instance = function Instance(module, imports) {
  const instance = new RealInstance(module, imports);
  if (!('memory' in instance.exports)) return instance;
  const exports = { ...instance.exports };
  for (const [name, real] of Object.entries(instance.exports)) {
    if (typeof real !== 'function') continue;
    // render(ptr, len, format); ledger-failure(request ptr, request len).
    const pointerAt = name.endsWith('#render') || name.endsWith('#ledger-failure') ? 0 : -1;
    if (pointerAt < 0) continue;
    exports[name] = (...args) => {
      if (armed === name.split('#')[1]) {
        armed = undefined;
        args[pointerAt] = OUTSIDE_MEMORY;
      }
      return real(...args);
    };
  }
  return { exports };
};

const { Ledger, render } = await import('mcp-envelope');
const spec = { code: 'NOT_FOUND', message: 'No invoice inv_9' };
const expectedXml = '<tool_error code="NOT_FOUND" severity="error">\n  <message>No invoice inv_9</message>\n' +
  '  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n</tool_error>';
const reset = /^mcp-envelope: the component failed \(RuntimeError: memory access out of bounds\); it has been reset$/;

test('a trap in render throws a clear Error; the next call runs on a fresh instance', () => {
  assert.equal(render(spec), expectedXml);
  armed = 'render';
  assert.throws(() => render(spec), (e) => e.constructor === Error && reset.test(e.message));
  assert.equal(render(spec), expectedXml);
});

test('a trap in a ledger step: that call throws, and the ledger keeps its streak for the next call', () => {
  const ledger = new Ledger();
  const bystander = new Ledger();
  assert.equal(ledger.failure('t', spec).content[0].text, expectedXml);
  bystander.failure('t', spec);
  armed = 'ledger-failure';
  assert.throws(() => ledger.failure('t', spec), (e) => e.constructor === Error && reset.test(e.message));
  // The failed call counted nothing: the next identical failure is the second.
  assert.match(ledger.failure('t', spec).content[0].text, /Nothing has changed since the last attempt: the same failure again \(2 in a row\)/);
  assert.match(bystander.failure('t', spec).content[0].text, /\(2 in a row\)/);
  assert.equal(render(spec), expectedXml);
});
