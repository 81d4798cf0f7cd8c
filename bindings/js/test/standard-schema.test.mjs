// Standard Schema failures: Valibot and ArkType report a mistake in fields of
// their own, which validationError names as Zod's, so on one input schema
// the same mistake gives the same envelope whichever of the three found it.
// A vendor whose issues hold only `message` and `path` gets `custom` lines:
// the component still words a missing field and a failed format from the
// schema, and nothing else (README, "Standard Schema").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import * as v from 'valibot';
import { type } from 'arktype';
import { renderValidation, toValidationIssues, validationError } from 'mcp-envelope';
import { VECTORS } from './same-contract.mjs';
import { arktypeRefundOrder, badOrder, EQUAL_SCHEMAS_XML, placeOrder, valibotRefundOrder } from './fixtures.mjs';

const groups = JSON.parse(readFileSync(VECTORS, 'utf8'));
const failure = async (schema, args) => schema['~standard'].validate(args);
const draft7 = (schema) => schema['~standard'].jsonSchema.input({ target: 'draft-07' });

describe('the mistakes of vectors/same-contract.json through Valibot and ArkType', () => {
  for (const [name, schema] of [
    ['Valibot', valibotRefundOrder],
    ['ArkType', arktypeRefundOrder],
  ]) {
    test(`${name}: each gives the envelope Zod 4 gives, on Zod's schema and on its own`, async () => {
      for (const group of groups) {
        const { validation, expected } = group.cases.find((c) => c.description === 'zod 4');
        const args = validation.arguments;
        const issues = await failure(schema, args);
        const mistake = group.description;
        assert.equal(
          validationError('billing.refund_order', issues, { input: args, inputSchema: validation.inputSchema }).content[0].text,
          expected,
          mistake,
        );
        assert.equal(renderValidation('billing.refund_order', issues, { input: args, inputSchema: draft7(schema) }), expected, mistake);
      }
    });
  }
});

describe('Standard Schema issues in the neutral model', () => {
  test('Valibot: each issue by its type, a missing key as missing_required', async () => {
    const args = { customer: 'x', amount: 0, currency: 'EUR', quantity: 0.5, note: 'x'.repeat(21), lines: [] };
    assert.deepEqual(toValidationIssues(await failure(valibotRefundOrder, args)), [
      { path: ['customer'], code: 'invalid_format', format: 'email', input: 'x' },
      { path: ['amount'], code: 'too_small', origin: 'number', minimum: 0, inclusive: false, input: 0 },
      { path: ['currency'], code: 'invalid_value', input: 'EUR' },
      // Valibot checks the bound after `integer` fails; Zod reports the wrong type alone.
      { path: ['quantity'], code: 'invalid_type', expected: 'integer', input: 0.5 },
      { path: ['note'], code: 'too_big', origin: 'string', maximum: 20, inclusive: true, input: 'x'.repeat(21) },
      { path: ['lines'], code: 'too_small', origin: 'array', minimum: 1, inclusive: true, input: [] },
    ]);
    assert.deepEqual(
      toValidationIssues(await failure(valibotRefundOrder, {})).map((i) => [i.path[0], i.code]),
      [
        ['customer', 'missing_required'],
        ['amount', 'missing_required'],
        ['currency', 'missing_required'],
        ['quantity', 'missing_required'],
      ],
    );
  });

  // In ArkType's order: the required keys by name, then the optional ones.
  test('ArkType: each error by its code, an enum as its allowed values, several checks at one path as Zod reports them', async () => {
    const args = { customer: 'x', amount: 0, currency: 'EUR', quantity: 0.5, note: 'x'.repeat(21), lines: [] };
    assert.deepEqual(toValidationIssues(await failure(arktypeRefundOrder, args)), [
      { path: ['amount'], code: 'too_small', origin: 'number', minimum: 0, inclusive: false, input: 0 },
      { path: ['currency'], code: 'invalid_value', values: ['BRL', 'USD'], input: 'EUR' },
      { path: ['customer'], code: 'invalid_format', format: 'regex', pattern: '^[\\w%+.-]+@[\\d.A-Za-z-]+\\.[A-Za-z]{2,}$', input: 'x' },
      { path: ['quantity'], code: 'invalid_type', expected: 'integer', input: 0.5 },
      { path: ['lines'], code: 'too_small', origin: 'array', minimum: 1, inclusive: true, input: [] },
      { path: ['note'], code: 'too_big', origin: 'string', maximum: 20, inclusive: true, input: 'x'.repeat(21) },
    ]);
  });

  test('strict objects: the keys not declared, one issue per object, as Zod reports them', async () => {
    const sentKeys = { id: 'a', colour: 1, size: 2 };
    const arktype = toValidationIssues(await failure(type({ '+': 'reject', id: 'string' }), sentKeys));
    assert.deepEqual(arktype, [{ path: [], code: 'unrecognized_keys', keys: ['colour', 'size'] }]);
    // Valibot stops at the first key it does not expect, so it names only that one.
    const valibot = toValidationIssues(await failure(v.strictObject({ id: v.string() }), sentKeys));
    assert.deepEqual(valibot, [{ path: [], code: 'unrecognized_keys', keys: ['colour'] }]);
  });

  test('ArkType: an enum of three or more values, which it checks as one predicate, is its allowed values', async () => {
    const schema = type({
      size: "'S' | 'M' | 'L'",
      flag: '1 | 2.5 | true',
      check: type('string').narrow((s, ctx) => s === 'ok' || ctx.mustBe('ok')),
    });
    assert.deepEqual(toValidationIssues(await failure(schema, { size: 'XL', flag: 7, check: 'x' })), [
      { path: ['check'], code: 'custom', message: 'check must be ok (was "x")', input: 'x' },
      { path: ['flag'], code: 'invalid_value', values: [1, 2.5, true], input: 7 },
      { path: ['size'], code: 'invalid_value', values: ['L', 'M', 'S'], input: 'XL' },
    ]);
  });
});

describe('the shop order: Zod 4, Valibot and ArkType', () => {
  const zodListing = draft7(placeOrder.zod);
  for (const name of ['zod', 'valibot']) {
    test(`${name}: the envelope every language gives, on its own listed schema and on Zod's`, async () => {
      const issues = await failure(placeOrder[name], badOrder);
      assert.equal(renderValidation('place_order', issues, { input: badOrder, inputSchema: draft7(placeOrder[name]) }), EQUAL_SCHEMAS_XML);
      assert.equal(renderValidation('place_order', issues, { input: badOrder, inputSchema: zodListing }), EQUAL_SCHEMAS_XML);
    });
  }

  test("ArkType: the same lines, in ArkType's order (the required keys by name)", async () => {
    const issues = await failure(placeOrder.arktype, badOrder);
    const [head, email, quantity, count, size, ...tail] = EQUAL_SCHEMAS_XML.split('\n');
    assert.equal(
      renderValidation('place_order', issues, { input: badOrder, inputSchema: zodListing }),
      [head, count, email, quantity, size, ...tail].join('\n'),
    );
    // Its own listing sorts the enum too, so the model read 'L', 'M', 'S'.
    assert.equal(
      renderValidation('place_order', issues, { input: badOrder, inputSchema: draft7(placeOrder.arktype) }),
      [head, count, email, quantity, size.replace("'S', 'M', 'L'", "'L', 'M', 'S'"), ...tail].join('\n'),
    );
  });
});

/** A Standard Schema of a vendor this package has no names for: its issues say only `message` and `path`. */
const plainVendor = {
  '~standard': {
    version: 1,
    vendor: 'plain',
    validate: () => ({
      issues: [
        { message: 'Invalid email address', path: [{ key: 'email' }] },
        { message: 'Expected an integer', path: [{ key: 'quantity' }] },
        { message: 'Required', path: ['count'] },
        { message: 'Not one of S, M, L', path: [{ key: 'size' }] },
      ],
    }),
  },
};

describe('a vendor whose issues say only message and path', () => {
  test('its issues are custom; the schema still words a missing field and a failed format', async () => {
    assert.deepEqual(
      toValidationIssues(await failure(plainVendor, badOrder)).map((i) => [i.path, i.code]),
      [
        [['email'], 'custom'],
        [['quantity'], 'custom'],
        [['count'], 'custom'],
        [['size'], 'custom'],
      ],
    );
    const inputSchema = draft7(placeOrder.zod);
    assert.equal(
      renderValidation('place_order', await failure(plainVendor, badOrder), { input: badOrder, inputSchema }),
      [
        '<validation_error action="place_order">',
        '  <field name="email">Invalid email format. You sent: \'nope\'. Expected a valid email address.</field>',
        '  <field name="quantity">Expected an integer. You sent: \'abc\'. Expected a value that passes this check.</field>',
        '  <field name="count">Missing required field. You sent: nothing. Expected an integer.</field>',
        '  <field name="size">Not one of S, M, L. You sent: \'XL\'. Expected a value that passes this check.</field>',
        '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
        '</validation_error>',
      ].join('\n'),
    );
  });
});
