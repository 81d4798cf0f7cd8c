// A trap inside the component must not kill the host: the call that trapped
// throws an Error saying so, the next call runs on a fresh instance, and a
// ledger that lived in the trapped instance fails with a clear error rather
// than reaching a dead one. The trap is real: this file (its own process under
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
    // render(ptr, len, format); [method]ledger.failure(handle, tool ptr, tool len, ...).
    const pointerAt = name.endsWith('#render') ? 0 : name.endsWith('#[method]ledger.failure') ? 1 : -1;
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

test('a trap in a ledger call: that ledger then says its instance is gone; new ledgers and calls work', () => {
  const ledger = new Ledger();
  const bystander = new Ledger();
  assert.equal(ledger.failure('t', spec).content[0].text, expectedXml);
  armed = '[method]ledger.failure';
  assert.throws(() => ledger.failure('t', spec), (e) => e.constructor === Error && reset.test(e.message));
  const stale = { name: 'Error', message: 'mcp-envelope: this Ledger belonged to a component instance that has since been reset ' +
    '(after a failure, or by useCoreModule), and its memory went with it; make a new Ledger' };
  assert.throws(() => ledger.failure('t', spec), stale);
  assert.throws(() => bystander.success('t'), stale);
  // Freeing a ledger of the dropped instance is harmless.
  ledger.dispose();
  bystander.dispose();
  const fresh = new Ledger();
  assert.equal(fresh.failure('t', spec).content[0].text, expectedXml);
  assert.match(fresh.failure('t', spec).content[0].text, /Nothing has changed since the last attempt/);
  assert.equal(render(spec), expectedXml);
});
