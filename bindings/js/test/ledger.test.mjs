// The repeat ledger through the package: the streak rules as the component
// keeps them, the arguments as a native object, a builder's own format, the
// checks on what the component would silently convert, freeing the ledger,
// and a ledger whose component instance was replaced (useCoreModule).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { error, parseEnvelope, render } from 'mcp-envelope';
import { Ledger } from 'mcp-envelope/server';
import { useCoreModule } from 'mcp-envelope/raw';

const notFound = {
  code: 'NOT_FOUND',
  message: 'No invoice inv_9',
  availableActions: ['billing.list_invoices'],
  details: { requestedId: 'inv_9' },
};
const messageOf = (result) => parseEnvelope(result).message;
const REPEAT = (n) => `Nothing has changed since the last attempt: the same failure again (${n} in a row).`;
const STOP = (n) => `Stop retrying: this call has failed the same way ${n} times in a row and nothing has changed.`;

describe('Ledger', () => {
  test('by default: the error, then one "nothing has changed", then "stop"', () => {
    const ledger = new Ledger();
    const results = [1, 2, 3, 4].map(() => ledger.failure('get_invoice', notFound));
    assert.deepEqual(results[0], { content: [{ type: 'text', text: render(notFound) }], isError: true });
    assert.deepEqual(results.map(messageOf), ['No invoice inv_9', REPEAT(2), STOP(3), STOP(4)]);
    // The repeat leaves out what the first envelope, still in the model's context, has.
    assert.equal(parseEnvelope(results[1]).error.availableActions, undefined);
    assert.equal(parseEnvelope(results[2]).severity, 'critical');
  });

  test('arguments are native values; key order does not matter, array order and their absence do', () => {
    const ledger = new Ledger();
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: { a: 1, b: [1, 2] } })), 'No invoice inv_9');
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: { b: [1, 2], a: 1 } })), REPEAT(2));
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: { b: [2, 1], a: 1 } })), 'No invoice inv_9');
    assert.equal(messageOf(ledger.failure('t', notFound)), 'No invoice inv_9');
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: {} })), 'No invoice inv_9');
    // A bigint is written as its digits, as in a spec.
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: { n: 10n } })), 'No invoice inv_9');
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: { n: 10n } })), REPEAT(2));
  });

  test('a success ends the streak; each tool has its own; a warning neither counts nor ends one', () => {
    const ledger = new Ledger(1);
    ledger.failure('a', notFound);
    ledger.failure('b', notFound);
    const warning = { code: 'DEPRECATED', message: '`limit` is deprecated', severity: 'warning' };
    assert.deepEqual(ledger.failure('a', warning), { content: [{ type: 'text', text: render(warning) }], isError: false });
    assert.equal(messageOf(ledger.failure('a', notFound)), STOP(2));
    ledger.success('a');
    assert.equal(messageOf(ledger.failure('a', notFound)), 'No invoice inv_9');
    assert.equal(messageOf(ledger.failure('b', notFound)), STOP(2));
  });

  test('stopAfter 0 reads as 1; a builder keeps its format unless one is asked for', () => {
    const ledger = new Ledger(0);
    const conflict = error('CONFLICT', 'Order A-1 changed').format('text');
    assert.deepEqual(ledger.failure('t', conflict), conflict.build());
    assert.equal(
      ledger.failure('t', conflict).content[0].text,
      'error_code: CONFLICT\nwhat_failed: ' +
        STOP(2) +
        '\nnext_action: Do not make this call again. Tell the user what failed and that retrying did not help.\nretryable: false\nseverity: critical',
    );
    assert.match(ledger.failure('t', conflict, { format: 'json' }).content[0].text, /^\{"code":"CONFLICT","severity":"critical"/);
  });

  test('pt-BR with localizeSteering: the repeat in Portuguese', () => {
    const ledger = new Ledger();
    const locked = error('ORDER_LOCKED', 'Pedido A-1 em edição').locale('pt-BR').localizeSteering();
    ledger.failure('t', locked);
    assert.equal(messageOf(ledger.failure('t', locked)), 'Nada mudou desde a última tentativa: a mesma falha de novo (2 seguidas).');
  });

  test('what the component would convert silently is refused here; its refusals keep its words', () => {
    for (const bad of [-1, 1.5, '2', 2 ** 32, Number.NaN]) {
      assert.throws(() => new Ledger(bad), {
        name: 'TypeError',
        message: `stopAfter must be a whole number from 0 to 4294967295, not ${String(bad)}`,
      });
    }
    const ledger = new Ledger();
    assert.throws(() => ledger.failure('t', { code: '', message: 'x' }), { name: 'TypeError', message: '"code" must not be empty' });
    assert.throws(() => ledger.failure('t', notFound, { format: 'yaml' }), {
      name: 'TypeError',
      message: 'format must be "xml", "json" or "text", not "yaml"',
    });
    assert.throws(() => ledger.failure('t', notFound, 'json'), {
      name: 'TypeError',
      message: 'options must be an object such as { arguments: args }, not "json"',
    });
    // A refused call counts nothing: the ledger goes on.
    assert.equal(messageOf(ledger.failure('t', notFound)), 'No invoice inv_9');
  });

  test('arguments JSON cannot hold are taken by the content rule (docs/host-values.md): a cycle is the same call as its marker', () => {
    const ledger = new Ledger();
    const cyclic = { id: 'inv_9' };
    cyclic.self = cyclic;
    assert.equal(messageOf(ledger.failure('t', notFound, { arguments: cyclic })), 'No invoice inv_9');
    assert.match(messageOf(ledger.failure('t', notFound, { arguments: { id: 'inv_9', self: '[cycle]' } })), /^Nothing has changed/);
  });

  test('dispose forgets every streak (twice is harmless); Symbol.dispose is dispose', () => {
    const ledger = new Ledger();
    ledger.failure('t', notFound);
    ledger.dispose();
    ledger.dispose();
    assert.equal(messageOf(ledger.failure('t', notFound)), 'No invoice inv_9');
    assert.equal(Ledger.prototype[Symbol.dispose], Ledger.prototype.dispose);
  });

  test("the streaks are the host's: a replaced component instance loses none of them", () => {
    const ledger = new Ledger();
    ledger.failure('t', notFound);
    useCoreModule(new WebAssembly.Module(readFileSync(new URL('../generated/full.core.wasm', import.meta.url))));
    assert.equal(messageOf(ledger.failure('t', notFound)), REPEAT(2));
    ledger.success('t');
    assert.equal(messageOf(ledger.failure('t', notFound)), 'No invoice inv_9');
  });
});
