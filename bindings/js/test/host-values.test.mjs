// Values JSON cannot hold, written by the content rule (docs/host-values.md):
// each value of bindings/host-values.json is built here under its description
// and must give exactly the table's detail text and sent value, the texts the
// Python package's tests (tests/test_host_values.py) assert for the same
// values. Then hostile thrown values, through exceptionResult and the MCP
// integration's handler wrapper, answer INTERNAL_ERROR.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, test } from 'node:test';
import { parseEnvelope, render, renderValidation, toolError } from 'mcp-envelope';
import { exceptionResult } from 'mcp-envelope/server';
import { withEnvelope } from 'mcp-envelope/mcp';
import { expand } from './vector-runner.mjs';

const table = JSON.parse(readFileSync(new URL('../../host-values.json', import.meta.url), 'utf8'));
const vectorsDir = new URL('../../../vectors/', import.meta.url);
const renderSpecs = readdirSync(vectorsDir)
  .filter((name) => name.endsWith('.json') && name !== 'schema.json')
  .flatMap((name) => JSON.parse(readFileSync(new URL(name, vectorsDir), 'utf8')))
  .flatMap((group) => group.cases)
  .map(expand)
  .filter((c) => c.spec !== null && typeof c.spec === 'object' && 'expected' in c && !('error' in c));

const nested = (n, leaf, wrap) => {
  let value = leaf;
  for (let i = 0; i < n; i++) value = wrap(value);
  return value;
};
const selfHolding = () => {
  const object = { a: 1 };
  object.self = object;
  return object;
};
const selfArray = () => {
  const array = [1];
  array.push(array);
  return array;
};
const throwing = () => {
  throw new Error('no');
};
/** A Proxy whose every trap throws: an object from a broken library. */
const hostile = () =>
  new Proxy(
    {},
    Object.fromEntries(
      [
        'get',
        'has',
        'ownKeys',
        'getOwnPropertyDescriptor',
        'getPrototypeOf',
        'set',
        'defineProperty',
        'deleteProperty',
        'apply',
        'construct',
        'isExtensible',
        'preventExtensions',
        'setPrototypeOf',
      ].map((trap) => [trap, throwing]),
    ),
  );
const bytes = (...parts) => new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part)] : part)));
function refund() {}
const at1230 = new Date(Date.UTC(2026, 0, 31, 12, 30, 5, 123));

const BUILD = {
  NaN: () => Number.NaN,
  Infinity: () => Number.POSITIVE_INFINITY,
  '-Infinity': () => Number.NEGATIVE_INFINITY,
  'an integer beyond 2^53 (a bigint, a Python int): its digits': () => 2n ** 70n,
  'an object that holds itself: the cycle marked': selfHolding,
  'an array that holds itself': selfArray,
  'one object twice, side by side, is no cycle: written twice': () => {
    const shared = { k: 1 };
    return [shared, shared];
  },
  'a named function': () => refund,
  'bytes: their UTF-8 text, a bad byte U+FFFD': () => bytes('ok ', [0xff]),
  "bytes with broken sequences: one U+FFFD per maximal bad part, as the WHATWG decoder and Python's replace agree": () =>
    bytes([0xe2, 0x82], 'A|', [0xed, 0xa0, 0x80], '|', [0xf0, 0x9f, 0x98], 'B|', [0xc0, 0xaf]),
  'bytes starting with a byte order mark: the mark kept': () => bytes([0xef, 0xbb, 0xbf], 'A'),
  "a set of numbers: an array in the order of the items' texts": () => new Set([3, 1, 12]),
  'a set of strings: ordered by UTF-16 code units, so an emoji sorts before U+FFFF': () => new Set(['\uffff', 'b', '😀', 'é', 'a']),
  'a map (a dict) whose keys are not strings: each key as its JSON text': () =>
    new Map([
      [7, 'seven'],
      [2.5, 'half'],
      [null, 'none'],
      [true, 'yes'],
      [[1, 2], 'pair'],
    ]),
  'a date-time in UTC: ISO 8601 as toISOString writes it, milliseconds and Z': () => at1230,
  'a date-time at another offset: the same instant in UTC': () => new Date('2026-01-31T13:30:05+01:00'),
  'an exception (an Error): its name and message': () => new TypeError('card declined'),
  'an exception with no message: its name': () => new TypeError(),
  'a value that cannot be read (a Proxy whose every trap throws; an object whose __str__ raises)': hostile,
  'an object one of whose members cannot be read: that member marked': () => ({
    ok: 1,
    get bad() {
      return throwing();
    },
  }),
  'an object whose keys cannot be listed: the object marked': () => new Proxy({ a: 1 }, { ownKeys: throwing }),
  'odd values inside a container, each by its rule': () => ({
    when: at1230,
    tags: new Set(['b', 'a']),
    raw: bytes('ok'),
    n: Number.NaN,
    f: refund,
  }),
  '5,000 levels of objects: converted without recursion, the core cuts past 64': () => nested(5000, 'x', (inner) => ({ a: inner })),
  '100,000 levels of arrays': () => nested(100_000, 1, (inner) => [inner]),
  'a symbol': () => Symbol('order'),
  'an anonymous function': () => [() => 1][0],
  'undefined in an array: null, as JSON writes it': () => [1, undefined],
  'an invalid Date': () => new Date(Number.NaN),
  'a boxed NaN': () => new Number(Number.NaN),
  'a typed array of numbers: an array': () => new Int16Array([1, -2]),
  'a Buffer: its bytes as text, not its toJSON': () => Buffer.from('hi'),
  "a Map whose key is an object: the key's JSON": () => new Map([[{ a: 1 }, 'x']]),
  'a toJSON that throws': () => ({ toJSON: throwing }),
  'an object whose toString throws is walked as its members; toString is never called': () =>
    Object.defineProperty({ a: 1 }, 'toString', { value: throwing, enumerable: false }),
  'an Error from another realm (a vm context)': () => runInNewContext('new RangeError("too far")'),
};

const detailOf = (value) => JSON.parse(render({ code: 'X', message: 'm', details: { v: value } }, { format: 'json' })).details.v;
const sentOf = (value) => {
  const field = parseEnvelope(renderValidation('a', [{ path: ['v'], code: 'custom', message: 'bad', input: value }])).validation.fields[0];
  return field.text.replace(/^bad\. You sent: /, '').replace(/\. Expected a value that passes this check\.$/, '');
};

describe('values JSON cannot hold: the shared table (bindings/host-values.json)', () => {
  const mine = table.values.filter((row) => row.hosts.includes('js'));
  test('every value the table gives JavaScript is built here, and nothing else', () => {
    assert.deepEqual(Object.keys(BUILD).sort(), mine.map((row) => row.description).sort());
  });
  for (const row of mine) {
    test(row.description, () => {
      assert.equal(detailOf(BUILD[row.description]()), expand(row.detail));
      assert.equal(sentOf(BUILD[row.description]()), row.sent);
    });
  }
});

describe('the rule where a value goes: a spec, a validation issue, the call arguments', () => {
  test("the walk writes what JSON.stringify writes: every render vector's spec, held by a class instance, renders the same", () => {
    class Spec {}
    assert.ok(renderSpecs.length > 100);
    for (const c of renderSpecs) {
      const held = Object.assign(new Spec(), c.spec);
      for (const format of Object.keys(c.expected)) assert.equal(render(held, { format }), render(c.spec, { format }), c.description);
    }
  });

  test("a misplaced marker is the programmer's mistake, refused in the core's words", () => {
    assert.throws(() => render({ code: 'X', message: 'm', retryAfter: Number.NaN }), {
      name: 'TypeError',
      message: 'retryAfter: invalid type: string "[NaN]", expected a number of seconds',
    });
    assert.throws(() => render(hostile()), { name: 'TypeError', message: 'the spec must be a JSON object, not a string' });
    assert.throws(() => render(undefined), { name: 'TypeError', message: 'the spec must be a JSON object, not undefined' });
  });

  test("a message JSON cannot hold renders as its text; an object where text belongs stays the programmer's mistake", () => {
    assert.equal(parseEnvelope(toolError('X', { message: Symbol('m') })).error.message, '[Symbol(m)]');
    assert.equal(parseEnvelope(toolError('X', { message: Number.NaN })).error.message, '[NaN]');
    assert.throws(() => toolError('X', { message: { text: 'm' } }), {
      name: 'TypeError',
      message: 'message: invalid type: map, expected a string',
    });
  });

  test('the call arguments go through the same rule: a value is looked up in them at its path', () => {
    const args = { when: at1230, n: Number.NaN, self: undefined };
    args.self = args;
    const text = renderValidation(
      'a',
      [
        { path: ['n'], code: 'invalid_type', expected: 'number' },
        { path: ['self'], code: 'invalid_type', expected: 'object' },
      ],
      { input: args },
    );
    assert.deepEqual(
      parseEnvelope(text).validation.fields.map((f) => f.text),
      ["Wrong type. You sent: '[NaN]'. Expected a number.", "Wrong type. You sent: '[cycle]'. Expected an object."],
    );
  });
});

describe('a hostile thrown value answers INTERNAL_ERROR, described safely in the log line', () => {
  const logged = (exception) => {
    const { result, log } = exceptionResult({ tool: 'charge', exception, correlationId: 'req_7' });
    assert.equal(parseEnvelope(result).error.code, 'INTERNAL_ERROR');
    return log.split(' exception=')[1];
  };
  test('a Proxy whose every trap throws', () => {
    assert.equal(logged(hostile()), '"[unreadable]"');
  });
  test('an object whose message, stack and toString getters throw', () => {
    const broken = {};
    for (const key of ['message', 'stack', 'name', 'toString']) Object.defineProperty(broken, key, { get: throwing });
    assert.equal(logged(broken), '"[object Object]"');
  });
  test('an Error whose stack getter throws: its name and message', () => {
    const error = new Error('db down');
    Object.defineProperty(error, 'stack', { get: throwing });
    assert.equal(logged(error), '"Error: db down"');
  });

  test("through the MCP integration's handler wrapper: INTERNAL_ERROR, the logger given the value, nothing thrown", async () => {
    const failures = [];
    const handler = withEnvelope(
      'charge',
      async () => {
        throw hostile();
      },
      { logger: (failure) => failures.push(failure) },
    );
    const result = await handler({});
    assert.equal(parseEnvelope(result).error.code, 'INTERNAL_ERROR');
    assert.equal(failures.length, 1);
    assert.match(failures[0].log, /^code=INTERNAL_ERROR correlationId="err_[0-9a-f]{12}" tool="charge" exception=/);
  });
});
