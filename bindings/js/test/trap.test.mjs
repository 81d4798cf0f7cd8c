// A trap inside the component must not kill the host. The host drops the
// instance that trapped (it held nothing) and does what a fresh instance's
// `after-trap` says (vectors/after-trap.json): an answer in the call's own
// shape (an INTERNAL_ERROR for the model, `unavailable` for an idempotency
// claim, the result sent as it is for a ledger observation, the claim kept
// for a finished write), or the call made once more. The trap is real: this
// file (its own process under `node --test`) wraps WebAssembly.Instance so
// that, when armed, an export is handed a string pointer far outside the
// module's memory, and the core traps reading it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const RealInstance = WebAssembly.Instance;
const OUTSIDE_MEMORY = 0xfff0_0000;
const armed = new Map(); // export name -> how many of its next calls trap

WebAssembly.Instance = function Instance(module, imports) {
  const instance = new RealInstance(module, imports);
  if (!('memory' in instance.exports)) return instance;
  const exports = { ...instance.exports };
  for (const [name, real] of Object.entries(instance.exports)) {
    const call = name.split('#')[1];
    // Every export taking a string takes its pointer first; after-trap itself is never armed, nor a
    // post-return function (`cabi_post_...`), which one component may share between exports of equal shape.
    if (typeof real !== 'function' || call === undefined || call === 'after-trap' || name.startsWith('cabi_post_')) continue;
    exports[name] = (...args) => {
      const left = armed.get(call) ?? 0;
      if (left > 0) {
        armed.set(call, left - 1);
        args[0] = OUTSIDE_MEMORY;
      }
      return real(...args);
    };
  }
  return { exports };
};

const { render, toolError } = await import('mcp-envelope');
const { Idempotency, Ledger } = await import('mcp-envelope/server');
const { decide } = await import('mcp-envelope/agent');
const { onTrapLog } = await import('mcp-envelope/raw');
const logged = [];
onTrapLog((line) => logged.push(line));
const takeLog = () => logged.splice(0);

const spec = { code: 'NOT_FOUND', message: 'No invoice inv_9' };
const expectedXml =
  '<tool_error code="NOT_FOUND" severity="error">\n  <message>No invoice inv_9</message>\n' +
  '  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n</tool_error>';
const trap = 'RuntimeError: memory access out of bounds';
/** The core's INTERNAL_ERROR for a trap, in XML, under the fresh id (err_ and 12 hex digits) it quotes twice. */
const internalXml = (message) =>
  new RegExp(
    '^<tool_error code="INTERNAL_ERROR" severity="error">\\n' +
      `  <message>${message}</message>\\n` +
      '  <recovery>Do not retry blindly: the same call is likely to fail again\\. Tell the user the tool failed, quoting the correlation id if there is one\\.</recovery>\\n' +
      '  <customer_message>Something went wrong on our side\\. It was recorded under the reference (err_[0-9a-f]{12})\\.</customer_message>\\n' +
      '  <correlation_id>\\1</correlation_id>\\n</tool_error>$',
  );

test('a trap in render answers the INTERNAL_ERROR envelope and logs the trap; the next call runs on a fresh instance', () => {
  assert.equal(render(spec), expectedXml);
  armed.set('render', 1);
  const text = render(spec);
  const [, id] = text.match(internalXml('The tool failed with an internal error\\.'));
  assert.deepEqual(takeLog(), [`code=INTERNAL_ERROR correlationId="${id}" tool="" exception="render trapped: ${trap}"`]);
  assert.equal(render(spec), expectedXml);
});

test('a trap in a ledger failure answers INTERNAL_ERROR, and the streak stays as it was', () => {
  const ledger = new Ledger();
  assert.equal(ledger.failure('get_invoice', spec).content[0].text, expectedXml);
  armed.set('ledger-failure', 1);
  const trapped = ledger.failure('get_invoice', spec);
  assert.equal(trapped.isError, true);
  const [, id] = trapped.content[0].text.match(internalXml('The tool failed with an internal error\\.'));
  assert.deepEqual(takeLog(), [`code=INTERNAL_ERROR correlationId="${id}" tool="" exception="ledger-failure trapped: ${trap}"`]);
  // The trapped call counted nothing: the next identical failure is the second.
  assert.match(ledger.failure('get_invoice', spec).content[0].text, /the same failure again \(2 in a row\)/);
});

test('a trap in a ledger observation sends the result as it is (the ledger fails open)', () => {
  const ledger = new Ledger();
  const failed = toolError('NOT_FOUND', { message: 'No invoice inv_9' });
  assert.equal(ledger.observe('get_invoice', failed), undefined);
  armed.set('ledger-observe', 1);
  assert.equal(ledger.observe('get_invoice', failed), undefined);
  assert.deepEqual(takeLog(), [`code=TRAPPED call="ledger-observe" then="send-as-is" trap="${trap}"`]);
  assert.match(ledger.observe('get_invoice', failed).content[0].text, /\(2 in a row\)/);
});

test('a trap in an idempotency claim answers unavailable and the write does not run', async () => {
  const store = new Idempotency();
  let writes = 0;
  const write = () => {
    writes += 1;
    return { content: [{ type: 'text', text: 'Refunded' }] };
  };
  armed.set('idempotency-begin', 1);
  const busy = await store.run('refund_order', 'key-7', { amount: 5 }, write);
  assert.equal(writes, 0);
  assert.equal(busy.isError, true);
  assert.equal(
    busy.content[0].text,
    '<tool_error code="SERVER_BUSY" severity="error">\n' +
      '  <message>The server could not use its idempotency store, so this call did not run: nothing was written.</message>\n' +
      '  <recovery>Wait 5 seconds, then make the same call with the same key.</recovery>\n' +
      '  <details>\n    <detail key="tool">refund_order</detail>\n    <detail key="idempotencyKey">key-7</detail>\n  </details>\n' +
      '  <retry_after>5 seconds</retry_after>\n</tool_error>',
  );
  assert.deepEqual(takeLog(), [`code=TRAPPED call="idempotency-begin" then="unavailable" trap="${trap}"`]);
  // Nothing was claimed: the same call runs now, once.
  assert.equal((await store.run('refund_order', 'key-7', { amount: 5 }, write)).content[0].text, 'Refunded');
  assert.equal(writes, 1);
});

test('a trap in finishing a write keeps the claim: the key answers in-progress and never runs twice', async () => {
  const store = new Idempotency();
  let writes = 0;
  const write = () => {
    writes += 1;
    return { content: [{ type: 'text', text: 'Refunded' }] };
  };
  armed.set('idempotency-finish', 1);
  assert.equal((await store.run('refund_order', 'key-8', { amount: 5 }, write)).content[0].text, 'Refunded');
  assert.deepEqual(takeLog(), [`code=TRAPPED call="idempotency-finish" then="kept" trap="${trap}"`]);
  const again = await store.run('refund_order', 'key-8', { amount: 5 }, write);
  assert.equal(writes, 1);
  assert.match(again.content[0].text, /^<tool_error code="CONFLICT"/);
});

test("a trap in decide: the call is made once more on a fresh instance; trapping twice throws the core's words", () => {
  const failed = toolError('NOT_FOUND', { message: 'No invoice inv_9' });
  const expected = decide(failed);
  armed.set('decide', 1);
  assert.deepEqual(decide(failed), expected);
  assert.deepEqual(takeLog(), [`code=TRAPPED call="decide" then="call-again" trap="${trap}"`]);
  armed.set('decide', 2);
  assert.throws(
    () => decide(failed),
    (e) => e.constructor === Error && e.message === 'mcp-envelope: decide trapped twice, on a fresh instance too; it was not answered',
  );
  assert.equal(takeLog().length, 1);
  assert.deepEqual(decide(failed), expected);
});
