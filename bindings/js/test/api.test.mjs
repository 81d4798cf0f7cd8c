// The public API, function by function: render, toolError, the builder
// (returned, thrown, stringified), parseEnvelope, EnvelopeError, throwIfError.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  canonicalCodes,
  error,
  EnvelopeError,
  parseEnvelope,
  protocolError,
  render,
  throwIfError,
  toolError,
  validationError,
} from 'mcp-envelope';
import { renderJson, useCoreModule } from 'mcp-envelope/raw';

const seedSpec = {
  code: 'NOT_FOUND',
  message: 'No invoice with that ID',
  suggestion: 'List invoices first, then retry with a real ID',
  availableActions: ['billing.list_invoices'],
  details: { requestedId: 'inv_2026_9999' },
  retryAfter: 30,
};
const seedXml = `<tool_error code="NOT_FOUND" severity="error">
  <message>No invoice with that ID</message>
  <recovery>List invoices first, then retry with a real ID</recovery>
  <available_actions>
    <action>billing.list_invoices</action>
  </available_actions>
  <details>
    <detail key="requestedId">inv_2026_9999</detail>
  </details>
  <retry_after>30 seconds</retry_after>
</tool_error>`;
const notFoundRecovery = 'Check the identifier: look the item up or list the available ones, then call again with a real one.';

describe('render', () => {
  test('renders the seed example as XML by default', () => {
    assert.equal(render(seedSpec), seedXml);
  });

  test('renders JSON and text on request', () => {
    assert.equal(
      render({ code: 'NOT_FOUND', message: 'gone' }, { format: 'json' }),
      `{"code":"NOT_FOUND","severity":"error","errorCategory":"business","isRetryable":false,"reason":"gone","recovery":"${notFoundRecovery}"}`,
    );
    assert.equal(
      render({ code: 'NOT_FOUND', message: 'gone' }, { format: 'text' }),
      `error_code: NOT_FOUND\nwhat_failed: gone\nnext_action: ${notFoundRecovery}\nretryable: false`,
    );
  });

  test('leaves out fields that are undefined, as JSON does', () => {
    assert.equal(
      render({ ...seedSpec, suggestion: undefined, customerMessage: undefined }),
      seedXml.replace('List invoices first, then retry with a real ID', notFoundRecovery),
    );
  });

  test('refuses a bad spec with a TypeError naming the key', () => {
    assert.throws(
      () => render({ code: 'NOT_FOUND', message: 'x', retryAfter: -1 }),
      (e) => e instanceof TypeError && /retryAfter/.test(e.message),
    );
    assert.throws(
      () => render({ message: 'x' }),
      (e) => e instanceof TypeError && /code/.test(e.message),
    );
  });

  test('refuses an unknown format; a spec holding itself renders, the cycle marked (docs/host-values.md)', () => {
    assert.throws(() => render(seedSpec, { format: 'yaml' }), {
      name: 'TypeError',
      message: 'format must be "xml", "json" or "text", not "yaml"',
    });
    assert.throws(() => render(seedSpec, 'json'), {
      name: 'TypeError',
      message: 'options must be an object such as { format: \'json\' }, not "json"',
    });
    const cyclic = { code: 'X', message: 'x' };
    cyclic.details = { self: cyclic };
    assert.ok(render(cyclic).includes('<detail key="self">[cycle]</detail>'), render(cyclic));
    assert.throws(() => render(undefined), { name: 'TypeError', message: 'the spec must be a JSON object, not undefined' });
  });

  test('renderJson takes the spec as JSON text', () => {
    assert.equal(renderJson(JSON.stringify(seedSpec)), seedXml);
  });
});

describe('toolError', () => {
  test('returns the CallToolResult with the envelope as its one text block', () => {
    const { code, ...options } = seedSpec;
    assert.deepEqual(toolError(code, options), { content: [{ type: 'text', text: seedXml }], isError: true });
  });

  test('a warning is guidance on a success: isError is false', () => {
    const result = toolError('DEPRECATED', { message: 'amount is deprecated; use amount_cents', severity: 'warning' });
    assert.equal(result.isError, false);
    assert.match(result.content[0].text, /^<tool_error code="DEPRECATED" severity="warning">/);
  });

  test('takes the format as an option', () => {
    const result = toolError('RATE_LIMITED', { message: 'slow down', retryAfter: 1, format: 'text' });
    assert.equal(
      result.content[0].text,
      'error_code: RATE_LIMITED\nwhat_failed: slow down\nnext_action: Wait for the retry-after period, then make the same call again.\nretryable: true\nretry_after: 1 second',
    );
  });

  test('refuses a call without options', () => {
    assert.throws(() => toolError('NOT_FOUND'), TypeError);
  });
});

describe('the error builder', () => {
  const built = () =>
    error('NOT_FOUND', 'No invoice with that ID')
      .suggest('List invoices first, then retry with a real ID')
      .actions('billing.list_invoices')
      .details({ requestedId: 'inv_2026_9999' })
      .retryAfter(30);

  test('builds the seed example', () => {
    assert.deepEqual(built().build(), { content: [{ type: 'text', text: seedXml }], isError: true });
  });

  test('is a CallToolResult when returned unbuilt', () => {
    const returned = built();
    assert.equal(returned.isError, true);
    assert.deepEqual(returned.content, [{ type: 'text', text: seedXml }]);
    assert.deepEqual({ ...returned }, { content: [{ type: 'text', text: seedXml }], isError: true });
  });

  test('JSON.stringify writes the built result', () => {
    assert.equal(JSON.stringify(built()), JSON.stringify({ content: [{ type: 'text', text: seedXml }], isError: true }));
  });

  test('thrown, it carries the envelope: String(thrown) is the envelope text', () => {
    try {
      throw built();
    } catch (thrown) {
      assert.equal(String(thrown), seedXml);
      assert.equal(thrown.isError, true);
      assert.deepEqual(thrown.build().content[0].text, seedXml);
    }
  });

  test('actions append and details merge; values pass through and objects show as their JSON', () => {
    const since = new Date(Date.UTC(2026, 0, 2));
    const b = error('CONFLICT', 'Order changed')
      .actions('orders.get')
      .actions('orders.list', 'orders.diff')
      .details({ version: 3, stale: true })
      .details({ version: 4, since, tags: ['a', 'b'], owner: null, skipped: undefined, big: 2n ** 64n });
    assert.deepEqual(b.toSpec(), {
      code: 'CONFLICT',
      message: 'Order changed',
      availableActions: ['orders.get', 'orders.list', 'orders.diff'],
      details: { version: 4, stale: true, since, tags: ['a', 'b'], owner: null, big: 2n ** 64n },
    });
    assert.match(
      b.render(),
      /<details>\n {4}<detail key="version">4<\/detail>\n {4}<detail key="stale">true<\/detail>\n {4}<detail key="since">2026-01-02T00:00:00.000Z<\/detail>\n {4}<detail key="tags">\["a","b"\]<\/detail>\n {4}<detail key="owner">null<\/detail>\n {4}<detail key="big">18446744073709551616<\/detail>\n {2}<\/details>/,
    );
  });

  test('a lone surrogate renders (as U+FFFD) instead of breaking the error path', () => {
    const text = error('X', 'half \ud800 of a pair').detail('k', 'also \udc00').render();
    assert.match(text, /<message>half \ufffd of a pair<\/message>/);
    assert.match(text, /<detail key="k">also \ufffd<\/detail>/);
    assert.equal(render({ code: 'X', message: '\ud800' }, { format: 'json' }).includes('\\ud800'), false);
  });

  test('critical() and warning() set the severity; warning is not an error', () => {
    assert.match(error('X', 'm').critical().content[0].text, /severity="critical"/);
    const warning = error('DEPRECATED', 'old parameter').warning();
    assert.equal(warning.isError, false);
    assert.match(warning.content[0].text, /severity="warning"/);
    assert.equal(error('X', 'm').severity('warning').isError, false);
  });

  test('the extension fields reach the envelope', () => {
    const text = error('INTERNAL_ERROR', 'boom')
      .category('transient')
      .retryable()
      .customerMessage('Try later')
      .correlationId('req-1')
      .render();
    assert.equal(
      text,
      '<tool_error code="INTERNAL_ERROR" severity="error">\n  <message>boom</message>\n' +
        '  <recovery>Do not retry blindly: the same call is likely to fail again. Tell the user the tool failed, quoting the correlation id if there is one.</recovery>\n' +
        '  <category>transient</category>\n  <retryable>true</retryable>\n  <customer_message>Try later</customer_message>\n' +
        '  <correlation_id>req-1</correlation_id>\n</tool_error>',
    );
  });

  test('deltas append, reach the envelope and are read back', () => {
    const change = {
      action: 'billing.find',
      severity: 'BREAKING',
      field: 'id',
      description: 'id is now a UUID',
      before: 'integer',
      after: 'uuid',
    };
    const b = error('UNKNOWN_ACTION', 'No such action').deltas(change).deltas({ severity: 'SAFE', field: 'note', description: 'added' });
    assert.match(
      b.render(),
      /\n {2}<contract_awareness>\n {4}<delta severity="BREAKING" action="billing.find" field="id" before="integer" after="uuid">id is now a UUID<\/delta>\n {2}<\/contract_awareness>\n/,
    );
    assert.deepEqual(parseEnvelope(b).error.deltas, [change]);
    assert.throws(
      () => throwIfError(b.build()),
      (e) => e instanceof EnvelopeError && e.reading.error.deltas.length === 1 && e.reading.error.deltas[0].field === 'id',
    );
  });

  test("refuses an empty code at once, in the component's words, and a bad value when built", () => {
    assert.throws(() => error('', 'x'), { name: 'TypeError', message: '"code" must not be empty' });
    assert.throws(
      () => error('X', 'm').retryAfter(-5).build(),
      (e) => e instanceof TypeError && /retryAfter/.test(e.message),
    );
  });
});

describe('parseEnvelope', () => {
  const seedReading = {
    kind: 'tool_error',
    code: 'NOT_FOUND',
    message: 'No invoice with that ID',
    severity: 'error',
    category: 'business',
    retryable: false,
    recovery: 'List invoices first, then retry with a real ID',
    error: seedSpec,
  };

  test('reads a rendered envelope back, from text or from a result', () => {
    assert.deepEqual(parseEnvelope(seedXml), seedReading);
    assert.deepEqual(parseEnvelope(toolError('NOT_FOUND', seedSpec)), seedReading);
    // The JSON form always states the category and retryable, so the faithful spec has them.
    const json = parseEnvelope(toolError('NOT_FOUND', { message: 'gone', format: 'json' }));
    assert.equal(json.recovery, notFoundRecovery);
    assert.equal(json.error.category, 'business');
    assert.equal(json.error.retryable, false);
  });

  test('the reading states the effective values; its spec renders the same bytes again', () => {
    const stated = render({ code: 'FORBIDDEN', message: 'no', category: 'permission', retryable: false });
    const reading = parseEnvelope(stated);
    assert.equal(reading.category, 'permission');
    assert.equal(reading.retryable, false);
    assert.equal(reading.error.category, 'permission');
    assert.equal(render(reading.error), stated);
    const unstated = parseEnvelope(render({ code: 'FORBIDDEN', message: 'no' }));
    assert.equal(unstated.category, 'permission');
    assert.equal(unstated.error.category, undefined);
    const custom = parseEnvelope(render({ code: 'MY_CODE', message: 'no' }));
    assert.deepEqual([custom.category, custom.recovery, custom.retryable], [null, null, false]);
  });

  test('finds the envelope inside other text', () => {
    assert.deepEqual(parseEnvelope(`The tool said:\n${seedXml}\nand then stopped.`), seedReading);
  });

  test('reads a <validation_error> as VALIDATION_ERROR with its fields', () => {
    const reading = parseEnvelope(validationError('billing.find', [{ path: ['id'], code: 'invalid_type', expected: 'string', input: 42 }]));
    assert.equal(reading.kind, 'validation_error');
    assert.equal(reading.code, 'VALIDATION_ERROR');
    assert.equal(reading.message, 'Invalid arguments for billing.find: id');
    assert.deepEqual(reading.validation, {
      action: 'billing.find',
      fields: [{ name: 'id', text: 'Wrong type. You sent: 42. Expected a string.' }],
      deltas: [],
    });
  });

  test('returns null when there is no envelope', () => {
    assert.equal(parseEnvelope('all good'), null);
    assert.equal(parseEnvelope({ content: [{ type: 'text', text: 'done' }] }), null);
  });

  test('throws a SyntaxError saying what is wrong with a broken envelope', () => {
    assert.throws(
      () => parseEnvelope('<tool_error code="X" severity="error">\n  <message>cut off'),
      (e) => e instanceof SyntaxError && e.message.length > 0,
    );
  });

  test('refuses what is neither text nor a result', () => {
    assert.throws(() => parseEnvelope(42), TypeError);
  });
});

describe('EnvelopeError and throwIfError', () => {
  test('throwIfError returns a result that is not an error', () => {
    const ok = { content: [{ type: 'text', text: 'done' }] };
    assert.equal(throwIfError(ok), ok);
    const warning = toolError('DEPRECATED', { message: 'old', severity: 'warning' });
    assert.equal(throwIfError(warning), warning);
  });

  test('throws an EnvelopeError with the code, the message, the reading and the raw text', () => {
    const full = {
      ...seedSpec,
      severity: 'critical',
      category: 'business',
      retryable: true,
      customerMessage: 'Sorry',
      correlationId: 'req-9',
    };
    const { code, ...options } = full;
    const result = toolError(code, options);
    assert.throws(
      () => throwIfError(result),
      (e) => {
        assert.ok(e instanceof EnvelopeError && e instanceof Error);
        assert.equal(e.name, 'EnvelopeError');
        assert.deepEqual(
          { code: e.code, message: e.message, severity: e.severity, category: e.category, retryable: e.retryable, recovery: e.recovery },
          {
            code: 'NOT_FOUND',
            message: 'No invoice with that ID',
            severity: 'critical',
            category: 'business',
            retryable: true,
            recovery: full.suggestion,
          },
        );
        assert.deepEqual(e.reading, parseEnvelope(result));
        assert.deepEqual(e.reading.error, full);
        assert.equal(e.raw, result.content[0].text);
        assert.ok(!('malformed' in e));
        return true;
      },
    );
  });

  test('an error without an envelope throws code UNKNOWN_ERROR with its text', () => {
    const result = {
      content: [
        { type: 'text', text: 'Tool x not found' },
        { type: 'image', data: '', mimeType: 'image/png' },
        { type: 'text', text: 'try again' },
      ],
      isError: true,
    };
    assert.throws(
      () => throwIfError(result),
      (e) => {
        assert.deepEqual(
          { code: e.code, message: e.message, reading: e.reading, raw: e.raw },
          { code: 'UNKNOWN_ERROR', message: 'Tool x not found\ntry again', reading: { kind: 'none' }, raw: 'Tool x not found\ntry again' },
        );
        assert.ok(!('severity' in e) && !('malformed' in e));
        return true;
      },
    );
  });

  test('a broken envelope throws UNKNOWN_ERROR saying what is malformed', () => {
    const text = '<tool_error code="X" severity="error">\n  <message>cut off';
    assert.throws(
      () => throwIfError({ content: [{ type: 'text', text }], isError: true }),
      (e) =>
        e.code === 'UNKNOWN_ERROR' &&
        e.message === text &&
        e.reading.kind === 'none' &&
        typeof e.malformed === 'string' &&
        e.malformed.length > 0,
    );
  });

  test('refuses what is not a result', () => {
    assert.throws(() => throwIfError({ isError: true }), TypeError);
    assert.throws(() => throwIfError(null), TypeError);
  });
});

describe('the rest of the surface', () => {
  test('canonicalCodes lists the 17 codes in their fixed order', () => {
    const codes = canonicalCodes();
    assert.equal(codes.length, 17);
    assert.equal(codes[0], 'MISSING_DISCRIMINATOR');
    assert.equal(codes[16], 'HANDOFF_CONNECTING');
  });

  test('protocolError gives the JSON-RPC error object', () => {
    assert.deepEqual(protocolError('method-not-found', 'Method not found: tools/run'), {
      code: -32601,
      message: 'Method not found: tools/run',
    });
    assert.throws(() => protocolError('teapot', 'x'), TypeError);
  });

  test('useCoreModule accepts the compiled core.wasm and full.core.wasm the package exports, and nothing else', async () => {
    const bytes = readFileSync(new URL(import.meta.resolve('mcp-envelope/core.wasm')));
    useCoreModule(await WebAssembly.compile(bytes));
    assert.equal(render(seedSpec), seedXml);
    const full = readFileSync(new URL(import.meta.resolve('mcp-envelope/full.core.wasm')));
    useCoreModule(await WebAssembly.compile(full));
    assert.equal(render(seedSpec), seedXml);
    assert.throws(() => useCoreModule(bytes), TypeError);
    // A module that is neither component's core module.
    assert.throws(() => useCoreModule(new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))), TypeError);
  });
});
