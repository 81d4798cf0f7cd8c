// The validator adapters: Zod 4, Zod 3 and ajv errors become the same neutral
// issues, and the same `<field>` lines in the `<validation_error>` envelope.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import * as z4 from 'zod/v4';
import * as z3 from 'zod/v3';
import { parseEnvelope, renderValidation, throwIfError, toValidationIssues, validationError } from 'mcp-envelope';

// One schema, written for each validator the way its users write it.
const invoiceQuery = (z) =>
  z
    .object({
      id: z.string().uuid(),
      email: z.string().email(),
      plan: z.enum(['free', 'pro']),
      name: z.string().min(3),
      tags: z.array(z.string()).max(2),
      count: z.number().int(),
      step: z.number().multipleOf(5),
      owner: z.string(),
    })
    .strict();
const invoiceQueryJsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    plan: { type: 'string', enum: ['free', 'pro'] },
    name: { type: 'string', minLength: 3 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    count: { type: 'integer' },
    step: { type: 'number', multipleOf: 5 },
    owner: { type: 'string' },
  },
  required: ['id', 'email', 'plan', 'name', 'tags', 'count', 'step', 'owner'],
  additionalProperties: false,
};
const sent = { id: 'x', email: 'nope', plan: 'gold', name: 'ab', tags: ['a', 'b', 'c'], count: 1.5, step: 7, extra: 1, extra2: 2 };

function ajvErrors(schema, data) {
  const ajv = new Ajv({ allErrors: true, verbose: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  assert.equal(validate(data), false);
  return validate.errors;
}

const zod4Error = () => invoiceQuery(z4).safeParse(sent).error;
const zod3Error = () => invoiceQuery(z3).safeParse(sent).error;

// What Zod's issues say in the neutral model, once the validator's own English
// and its bookkeeping (`origin` where the template does not use it) are set
// aside. The values sent are not there: the component looks them up in the arguments.
const expectedIssues = [
  { path: ['count'], code: 'invalid_type', expected: 'integer' },
  { path: ['email'], code: 'invalid_format', format: 'email' },
  { path: ['id'], code: 'invalid_format', format: 'uuid' },
  { path: ['name'], code: 'too_small', origin: 'string', minimum: 3, inclusive: true },
  { path: ['owner'], code: 'invalid_type', expected: 'string' },
  { path: ['plan'], code: 'invalid_value', values: ['free', 'pro'] },
  { path: ['step'], code: 'not_multiple_of', divisor: 5 },
  { path: ['tags'], code: 'too_big', origin: 'array', maximum: 2, inclusive: true },
  { path: [], code: 'unrecognized_keys', keys: ['extra', 'extra2'] },
];

function comparable(issues) {
  return issues
    .map(({ message: _m, ...issue }) =>
      ['invalid_format', 'not_multiple_of'].includes(issue.code) ? (({ origin: _o, ...rest }) => rest)(issue) : issue,
    )
    .sort((a, b) => (JSON.stringify(a.path) < JSON.stringify(b.path) ? -1 : 1));
}

describe('toValidationIssues', () => {
  test('Zod 4: the neutral issues', () => {
    assert.deepEqual(comparable(toValidationIssues(zod4Error())), expectedIssues);
  });

  test('Zod 4 with reportInput keeps the values it reports', () => {
    const error = invoiceQuery(z4).safeParse(sent, { reportInput: true }).error;
    const issues = toValidationIssues(error);
    assert.equal(issues.find((i) => i.path[0] === 'email').input, 'nope');
    assert.ok(!('input' in issues.find((i) => i.path[0] === 'owner')), 'a missing field has no input');
  });

  test('Zod 3: the same issues', () => {
    assert.deepEqual(comparable(toValidationIssues(zod3Error())), expectedIssues);
  });

  test('neutral issues pass through; a date bound becomes ISO text, a bigint bound a number', () => {
    const issues = toValidationIssues([
      { path: ['when'], code: 'too_small', origin: 'date', minimum: Date.UTC(2026, 0, 1), inclusive: true },
      { path: ['big'], code: 'too_big', origin: 'bigint', maximum: 10n, input: 12 },
      { path: ['gone'], code: 'missing_required' },
    ]);
    assert.deepEqual(issues, [
      { path: ['when'], code: 'too_small', origin: 'date', minimum: '2026-01-01T00:00:00.000Z', inclusive: true },
      { path: ['big'], code: 'too_big', origin: 'bigint', maximum: 10, input: 12 },
      { path: ['gone'], code: 'missing_required' },
    ]);
  });

  test('ajv errors are not mapped here: the component reads them', () => {
    assert.throws(() => toValidationIssues(ajvErrors(invoiceQueryJsonSchema, sent)), TypeError);
  });

  test('refuses what is not a validator error', () => {
    assert.throws(() => toValidationIssues('nope'), TypeError);
    assert.throws(() => toValidationIssues({ message: 'x' }), TypeError);
  });
});

const expectedEnvelope = `<validation_error action="billing.find">
  <field name="id">Invalid UUID format. You sent: 'x'. Expected a UUID, such as 123e4567-e89b-12d3-a456-426614174000.</field>
  <field name="email">Invalid email format. You sent: 'nope'. Expected a valid email address.</field>
  <field name="plan">Not one of the allowed values. You sent: 'gold'. Expected one of: 'free', 'pro'.</field>
  <field name="name">Too short. You sent: 'ab' (2 characters). Expected at least 3 characters.</field>
  <field name="tags">Too many items. You sent: an array of 3 items. Expected at most 2 items.</field>
  <field name="count">Wrong type. You sent: 1.5. Expected an integer.</field>
  <field name="step">Not a multiple of 5. You sent: 7. Expected a multiple of 5.</field>
  <field name="owner">Missing required field. You sent: nothing. Expected a string.</field>
  <field name="(arguments)">Unrecognized keys 'extra', 'extra2'. You sent: 'extra', 'extra2'. Expected only the declared keys; remove them.</field>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>`;
const fieldLines = (envelope) =>
  envelope
    .split('\n')
    .filter((line) => line.startsWith('  <field '))
    .sort();

describe('validationError and renderValidation', () => {
  test('Zod 4 gives the envelope, byte for byte', () => {
    assert.equal(renderValidation('billing.find', zod4Error(), { input: sent }), expectedEnvelope);
  });

  test('Zod 4 with reportInput needs no arguments', () => {
    assert.equal(renderValidation('billing.find', invoiceQuery(z4).safeParse(sent, { reportInput: true }).error), expectedEnvelope);
  });

  test('Zod 3 gives the same bytes', () => {
    assert.equal(renderValidation('billing.find', zod3Error(), { input: sent }), expectedEnvelope);
  });

  test("ajv (verbose) gives the same bytes, the fields in the schema's order", () => {
    assert.equal(renderValidation('billing.find', ajvErrors(invoiceQueryJsonSchema, sent), { input: sent }), expectedEnvelope);
  });

  test('ajv (verbose) without the arguments takes the values from its errors', () => {
    assert.equal(renderValidation('billing.find', ajvErrors(invoiceQueryJsonSchema, sent)), expectedEnvelope);
  });

  test('ajv on the JSON Schema Zod writes: the same bytes, the pattern behind a named format not repeated', () => {
    const schema = z4.toJSONSchema(invoiceQuery(z4));
    delete schema.$schema;
    assert.equal(renderValidation('billing.find', ajvErrors(schema, sent), { input: sent }), expectedEnvelope);
  });

  test('ajv takes its errors array or the validate function that holds it', () => {
    const ajv = new Ajv({ allErrors: true, verbose: true });
    addFormats(ajv);
    const validate = ajv.compile(invoiceQueryJsonSchema);
    validate(sent);
    assert.equal(renderValidation('billing.find', validate, { input: sent }), expectedEnvelope);
  });

  test("paths into arrays: indices from Zod and from ajv's JSON pointers (escapes undone) name the same field", () => {
    const schema = { type: 'object', properties: { 'a/b': { type: 'array', items: { type: 'number' } } } };
    const data = { 'a/b': [1, 'two'] };
    const line = '  <field name="a/b[1]">Wrong type. You sent: \'two\'. Expected a number.</field>';
    assert.equal(renderValidation('t', ajvErrors(schema, data), { input: data }).split('\n')[1], line);
    const zod = z4.object({ 'a/b': z4.array(z4.number()) }).safeParse(data).error;
    assert.equal(renderValidation('t', zod, { input: data }).split('\n')[1], line);
  });

  test("ajv without verbose: the same field lines in ajv's order, but a missing field's type is unknown", () => {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(invoiceQueryJsonSchema);
    validate(sent);
    const envelope = renderValidation('billing.find', validate.errors, { input: sent });
    const owner = '  <field name="owner">Missing required field. You sent: nothing. Expected ';
    assert.deepEqual(
      fieldLines(envelope).map((l) => l.replace(`${owner}a value.`, `${owner}a string.`)),
      fieldLines(expectedEnvelope),
    );
    assert.ok(envelope.startsWith('<validation_error action="billing.find">\n  <field name="owner">'), envelope);
  });

  test('validationError returns the CallToolResult; the client reads the fields back', () => {
    const result = validationError('billing.find', zod4Error(), { input: sent });
    assert.deepEqual(result, { content: [{ type: 'text', text: expectedEnvelope }], isError: true });
    const parsed = parseEnvelope(result);
    assert.equal(parsed.code, 'VALIDATION_ERROR');
    assert.equal(parsed.message, 'Invalid arguments for billing.find: id, email, plan, name, tags, count, step, owner, (arguments)');
    assert.equal(parsed.validation.action, 'billing.find');
    assert.deepEqual(parsed.validation.fields[0], {
      name: 'id',
      text: "Invalid UUID format. You sent: 'x'. Expected a UUID, such as 123e4567-e89b-12d3-a456-426614174000.",
    });
    assert.throws(
      () => throwIfError(result),
      (e) =>
        e.code === 'VALIDATION_ERROR' &&
        e.reading.validation.fields.length === 9 &&
        e.raw === expectedEnvelope &&
        e.retryable === true &&
        e.category === 'validation',
    );
  });

  test('deltas for the failing action are shown in the same turn', () => {
    const deltas = [
      {
        action: 'billing.find',
        severity: 'BREAKING',
        field: 'count',
        description: 'count is now an integer',
        before: 'number',
        after: 'integer',
      },
      { action: 'billing.other', severity: 'BREAKING', field: 'x', description: 'not this action' },
    ];
    const text = renderValidation('billing.find', [{ path: ['count'], code: 'invalid_type', expected: 'integer', input: 1.5 }], { deltas });
    assert.equal(
      text,
      `<validation_error action="billing.find">
  <field name="count">Wrong type. You sent: 1.5. Expected an integer.</field>
  <contract_awareness>
    <delta severity="BREAKING" action="billing.find" field="count" before="number" after="integer">count is now an integer</delta>
  </contract_awareness>
  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
</validation_error>`,
    );
  });

  test('maxFields caps the listed fields and the client learns how many were left out', () => {
    const result = validationError('billing.find', zod4Error(), { input: sent, maxFields: 2 });
    const { validation } = parseEnvelope(result);
    assert.deepEqual(
      validation.fields.map((f) => f.name),
      ['id', 'email'],
    );
    assert.equal(validation.omittedFields, 7);
  });

  test('a bad validation spec is refused with a TypeError', () => {
    assert.throws(() => validationError('a', [{ path: ['x'], code: 'no_such_code' }]), TypeError);
    assert.throws(() => validationError(42, []), TypeError);
  });

  test('arguments that hold themselves are content: the cycle is marked, the field line written', () => {
    const loop = { x: 'sent' };
    loop.self = loop;
    const text = renderValidation('a', [{ path: ['self'], code: 'custom', message: 'bad' }], { input: loop });
    assert.ok(text.includes('<field name="self">bad. You sent: \'[cycle]\'. Expected a value that passes this check.</field>'), text);
  });
});
