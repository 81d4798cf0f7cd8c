// The mistakes of vectors/same-contract.json made through the real Zod 4 and
// ajv, each against the JSON Schema its server lists, as the validation spec
// the package hands the core. `same-contract.test.mjs` checks the vectors
// still hold what these validators give today; run this file with
// `--write` to refresh the zod and ajv cases after a validator upgrade
// (the pydantic and jsonschema ones come from bindings/python/tests/same_contract.py).
import { readFileSync, writeFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import * as z from 'zod/v4';
import { toValidationIssues } from 'mcp-envelope';

export const VECTORS = new URL('../../../vectors/same-contract.json', import.meta.url);

/** billing.refund_order's arguments, as a TypeScript server declares them. */
export const refundOrder = z.object({
  customer: z.email(),
  amount: z.number().positive().max(10000),
  currency: z.enum(['BRL', 'USD']),
  quantity: z.int().min(1).max(100),
  note: z.string().max(20).optional(),
  lines: z
    .array(z.object({ sku: z.string().regex(/^SKU-\d+$/), qty: z.int().min(1) }))
    .min(1)
    .optional(),
});

/** The input schema `mcp-envelope/mcp` lists for it (the dialect line dropped, as the SDK drops it). */
export const listedSchema = (() => {
  const { $schema: _dialect, ...listed } = z.toJSONSchema(refundOrder, { io: 'input', unrepresentable: 'any' });
  return listed;
})();

/** The spec for Zod's issues: neutral issues, as `validationError` builds them. */
function zodSpec(action, args) {
  const parsed = refundOrder.safeParse(args, { reportInput: true });
  return { action, issues: toValidationIssues(parsed.error), arguments: args, inputSchema: listedSchema };
}

/** The spec for ajv's errors (every error, verbose): raw, as `validationError` hands them on. */
function ajvSpec(action, args) {
  const ajv = new Ajv({ allErrors: true, verbose: true });
  addFormats(ajv);
  const validate = ajv.compile(listedSchema);
  validate(args);
  return { action, jsonSchemaErrors: validate.errors, arguments: args, inputSchema: listedSchema };
}

/** The spec each JS validator gives for a case of the file, by the case's description. */
export const SPECS = { 'zod 4': zodSpec, 'ajv 8': ajvSpec };

if (process.argv.includes('--write')) {
  const groups = JSON.parse(readFileSync(VECTORS, 'utf8'));
  for (const group of groups) {
    for (const c of group.cases) {
      const spec = SPECS[c.description];
      if (spec) c.validation = JSON.parse(JSON.stringify(spec(c.validation.action, c.validation.arguments)));
    }
  }
  writeFileSync(VECTORS, `${JSON.stringify(groups, null, 2)}\n`);
}
