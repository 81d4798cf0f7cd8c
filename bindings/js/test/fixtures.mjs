// What the validator and framework tests share: schemas written for Zod 4,
// Valibot and ArkType the way their users write them (the refund order of
// vectors/same-contract.json, the shop order whose envelope every language
// gives alike), the results every helper makes, and the answers to a call of
// a tool a three-tool server does not list.
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as z from 'zod';
import { error, partialResult, toolError, validationError } from 'mcp-envelope';
import { authRequired, emptyResult, exceptionResult, forbidden, unknownTool } from 'mcp-envelope/server';

/** billing.refund_order's arguments in Valibot (Zod's is same-contract.mjs's `refundOrder`). */
export const valibotRefundOrder = toStandardJsonSchema(
  v.object({
    customer: v.pipe(v.string(), v.email()),
    amount: v.pipe(v.number(), v.gtValue(0), v.maxValue(10000)),
    currency: v.picklist(['BRL', 'USD']),
    quantity: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
    note: v.optional(v.pipe(v.string(), v.maxLength(20))),
    lines: v.optional(
      v.pipe(
        v.array(
          v.object({
            sku: v.pipe(v.string(), v.regex(/^SKU-\d+$/)),
            qty: v.pipe(v.number(), v.integer(), v.minValue(1)),
          }),
        ),
        v.minLength(1),
      ),
    ),
  }),
);

/** The same in ArkType. */
export const arktypeRefundOrder = type({
  customer: 'string.email',
  amount: '0 < number <= 10000',
  currency: "'BRL' | 'USD'",
  quantity: '1 <= number.integer <= 100',
  'note?': 'string <= 20',
  'lines?': type({ sku: /^SKU-\d+$/, qty: 'number.integer >= 1' })
    .array()
    .atLeastLength(1),
});

/** A shop order, in each validator. */
export const placeOrder = {
  zod: z.object({ email: z.email(), quantity: z.int(), count: z.int(), size: z.enum(['S', 'M', 'L']) }),
  valibot: toStandardJsonSchema(
    v.object({
      email: v.pipe(v.string(), v.email()),
      quantity: v.pipe(v.number(), v.integer()),
      count: v.pipe(v.number(), v.integer()),
      size: v.picklist(['S', 'M', 'L']),
    }),
  ),
  arktype: type({ email: 'string.email', quantity: 'number.integer', count: 'number.integer', size: "'S' | 'M' | 'L'" }),
};

/** Arguments with four mistakes, one a missing field. */
export const badOrder = { email: 'nope', quantity: 'abc', size: 'XL' };

/** What every validator's failure of `badOrder` gives, in every language (tests/test_mcp_channel.py has it too). */
export const EQUAL_SCHEMAS_XML = [
  '<validation_error action="place_order">',
  '  <field name="email">Invalid email format. You sent: \'nope\'. Expected a valid email address.</field>',
  '  <field name="quantity">Wrong type. You sent: \'abc\'. Expected an integer.</field>',
  '  <field name="count">Missing required field. You sent: nothing. Expected an integer.</field>',
  "  <field name=\"size\">Not one of the allowed values. You sent: 'XL'. Expected one of: 'S', 'M', 'L'.</field>",
  '  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>',
  '</validation_error>',
].join('\n');

/** The UNKNOWN_ACTION envelope for `refund_orders` on a server listing these three tools (the `isError` result's text under `unknownTool: 'tool-result'`). */
export const UNKNOWN_XML = [
  '<tool_error code="UNKNOWN_ACTION" severity="error">',
  "  <message>No tool named 'refund_orders' on this server.</message>",
  '  <recovery>Call one of the available tools instead, with the arguments its input schema asks for.</recovery>',
  '  <available_actions>',
  '    <action>list_invoices</action>',
  '    <action>get_invoice</action>',
  '    <action>refund_order</action>',
  '  </available_actions>',
  '</tool_error>',
].join('\n');

/** A result of each helper, as a tool returns it (the builder unbuilt); the ones that are not errors are marked. */
export const RESULTS = {
  tool_error: () => toolError('NOT_FOUND', { message: 'No invoice inv_9', availableActions: ['billing.list_invoices'] }),
  builder: () => error('RATE_LIMITED', 'Too many lookups').retryAfter(30),
  to_json: () => toolError('CONFLICT', { message: 'Order changed', format: 'json' }),
  empty_result: () => emptyResult({ what: 'orders', query: 'for jo@example.com' }),
  partial_result: () => partialResult({ obtained: ['A: 3 filings'], failed: [{ item: 'Company C', code: 'FORBIDDEN' }] }),
  forbidden: () => forbidden({ action: 'refund', resource: 'order A-8812' }),
  auth_required: () => authRequired(),
  validation_error: () =>
    validationError('refund', [{ path: ['amount_cents'], code: 'too_small', origin: 'number', minimum: 1, input: 0 }]),
  unknown_tool: () => unknownTool({ tool: 'refund_orders', tools: ['refund_order'], answer: 'tool-result' }).result,
  exception_result: () => exceptionResult({ tool: 'charge', exception: 'vault down', correlationId: 'req-7' }).result,
  warning: () => error('DEPRECATED', 'use find').warning(),
};
/** `isError` of each of RESULTS, in order. */
export const RESULTS_IS_ERROR = [true, true, true, false, false, true, true, true, true, true, false];

/** The plain result a helper's value is (a builder is built), as JSON carries it. */
export const plain = (value) => JSON.parse(JSON.stringify(value));

/** The same NOT_FOUND of get_invoice three times in a row through a repeat ledger: each reading's severity and message. */
export const LEDGER_STREAK = [
  ['error', 'No invoice inv_9'],
  ['error', 'Nothing has changed since the last attempt: the same failure again (2 in a row).'],
  ['critical', 'Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.'],
];

/**
 * `get(id)` calls get_invoice through an integration with a repeat ledger and reads the answer back
 * (`parseEnvelope`): three failures give LEDGER_STREAK, the success of id `ok` holds no envelope, and it ends the streak.
 */
export async function assertLedgerStreak(get) {
  assert.deepEqual(
    [await get('inv_9'), await get('inv_9'), await get('inv_9')].map((r) => [r.severity, r.message]),
    LEDGER_STREAK,
  );
  assert.equal(await get('ok'), null);
  assert.equal((await get('inv_9')).message, 'No invoice inv_9');
}

/** The JSON-RPC error's message for `refund_orders` on a server listing the three tools of UNKNOWN_XML (the default answer). */
export const UNKNOWN_MESSAGE = "Unknown tool: refund_orders. This server's tools: list_invoices, get_invoice, refund_order.";
