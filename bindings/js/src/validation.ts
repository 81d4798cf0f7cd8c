// `<validation_error>` envelopes from whatever validator a server uses. Zod 4
// and Zod 3 issues are named in the component's neutral issue model (Zod 4's
// shape), and so are Standard Schema issues (Valibot's and ArkType's by their
// own fields, any other vendor's as `custom`: schema-issues.ts); ajv's errors
// go to the component raw, as `jsonSchemaErrors`, where one reader maps JSON
// Schema keywords for every host. The component also looks up in the call's
// arguments the value sent for an issue that lacks it.

import * as component from './component.js';
import { toJson } from './render.js';
import { asZodReports, fromArkType, fromValibot, isArkType, isValibot, pathOf } from './schema-issues.js';
import type { CallToolResult, IssueCode, ValidationIssue, ValidationOptions } from './types.js';

type Raw = Record<string, unknown>;

const TYPE_NAMES: Record<string, string> = { int: 'integer', safeint: 'integer', float: 'number' };

/** Codes only Zod 3 uses: seeing one (or Zod 3's field names) means a Zod 3 issue. */
const ZOD3_ONLY = new Set([
  'invalid_string',
  'invalid_enum_value',
  'invalid_literal',
  'invalid_date',
  'not_finite',
  'invalid_intersection_types',
  'invalid_arguments',
  'invalid_return_type',
  'invalid_union_discriminator',
]);

/** The fields of a Zod 4 issue that the neutral model has; the rest (`errors`, `params`, `note`) are dropped. */
const NEUTRAL_FIELDS = [
  'expected',
  'format',
  'pattern',
  'values',
  'minimum',
  'maximum',
  'inclusive',
  'exact',
  'origin',
  'keys',
  'divisor',
  'message',
  'input',
] as const;

/** A bound as the model takes it: a date as ISO text, a bigint as a number. */
function bound(value: unknown, origin: unknown): unknown {
  if (origin === 'date' && (typeof value === 'number' || value instanceof Date)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
  }
  return typeof value === 'bigint' ? Number(value) : value;
}

/** A Zod 3 issue. Zod 3 never reports the value sent: the component looks it up in the arguments. */
function fromZod3(raw: Raw): Partial<ValidationIssue> {
  switch (raw.code) {
    case 'invalid_type':
      return { code: 'invalid_type', expected: TYPE_NAMES[String(raw.expected)] ?? String(raw.expected) };
    case 'invalid_literal':
      return { code: 'invalid_value', values: [raw.expected] };
    case 'invalid_enum_value':
    case 'invalid_union_discriminator':
      return { code: 'invalid_value', values: Array.isArray(raw.options) ? raw.options : [] };
    case 'invalid_date':
      return { code: 'invalid_type', expected: 'date' };
    case 'invalid_string': {
      const kind = typeof raw.validation === 'string' ? raw.validation : Object.keys(raw.validation ?? {})[0];
      const names: Record<string, string> = { ip: 'ipv4', startsWith: 'starts_with', endsWith: 'ends_with' };
      return { code: 'invalid_format', format: names[kind ?? ''] ?? kind ?? 'other' };
    }
    case 'too_small':
    case 'too_big': {
      const origin = String(raw.type ?? 'number');
      const limit = raw.code === 'too_small' ? 'minimum' : 'maximum';
      return {
        code: raw.code,
        origin,
        [limit]: bound(raw[limit], origin),
        inclusive: raw.inclusive !== false,
        ...(raw.exact === true ? { exact: true } : {}),
      };
    }
    case 'not_multiple_of':
      return { code: 'not_multiple_of', divisor: Number(raw.multipleOf) };
    case 'unrecognized_keys':
    case 'invalid_union':
      return { code: raw.code, ...(Array.isArray(raw.keys) ? { keys: raw.keys.map(String) } : {}) };
    default:
      return { code: 'custom' };
  }
}

/** A Zod 4 issue, or a neutral one (the same shape). */
function fromZod4(raw: Raw): Partial<ValidationIssue> {
  const issue: Raw = { code: raw.code };
  for (const field of NEUTRAL_FIELDS) if (raw[field] !== undefined && (raw[field] !== null || field === 'input')) issue[field] = raw[field];
  if (typeof issue.origin === 'string') issue.origin = TYPE_NAMES[issue.origin] ?? issue.origin;
  if (typeof issue.expected === 'string') issue.expected = TYPE_NAMES[issue.expected] ?? issue.expected;
  for (const limit of ['minimum', 'maximum']) if (limit in issue) issue[limit] = bound(issue[limit], issue.origin);
  // Zod's own pattern behind a named format (its email regex) is noise to a model;
  // `z.int()` reports an integer failure as invalid_type with format safeint.
  if (issue.format !== 'regex') delete issue.pattern;
  if (issue.code === 'invalid_type') delete issue.format;
  return issue as Partial<ValidationIssue>;
}

function isZod3(raw: Raw): boolean {
  return (
    ZOD3_ONLY.has(String(raw.code)) ||
    'received' in raw ||
    'multipleOf' in raw ||
    'unionErrors' in raw ||
    ((raw.code === 'too_small' || raw.code === 'too_big') && 'type' in raw && !('origin' in raw))
  );
}

/** The issues or errors a value holds: an array, a Zod error's or a Standard Schema failure's `issues`, ajv's `errors`. */
function itemsOf(issuesOrError: unknown): Raw[] {
  const source = issuesOrError as { issues?: unknown; errors?: unknown } | null;
  const items = Array.isArray(source)
    ? source
    : Array.isArray(source?.issues)
      ? source.issues
      : Array.isArray(source?.errors)
        ? source.errors
        : undefined;
  if (items === undefined) {
    throw new TypeError(
      'expected a Zod error, a Standard Schema failure ({ issues }), an ajv errors array, or an array of validation issues',
    );
  }
  return items.filter((item): item is Raw => item !== null && typeof item === 'object');
}

const isAjv = (items: Raw[]) => items.some((item) => 'keyword' in item || 'instancePath' in item);

/** A Zod 4 or Zod 3 issue, a neutral one, or a Standard Schema issue of a vendor without names of its own (`custom`). */
function fromZod(raw: Raw): ValidationIssue {
  const issue = typeof raw.code !== 'string' ? { code: 'custom' } : isZod3(raw) ? fromZod3(raw) : fromZod4(raw);
  const message = typeof raw.message === 'string' && raw.message !== '' ? { message: raw.message } : {};
  return { path: pathOf(raw), ...message, ...issue, code: issue.code as IssueCode };
}

/** Valibot's or ArkType's issues as neutral ones, as Zod reports the same mistakes. */
function fromStandardVendors(items: Raw[]): ValidationIssue[] {
  const issues = items.flatMap((raw) => {
    const mapped = isValibot(raw) ? [fromValibot(raw)] : isArkType(raw) ? fromArkType(raw) : undefined;
    if (mapped === undefined) return [fromZod(raw)];
    return mapped.map(({ path, ...issue }) => ({ path: path ?? pathOf(raw), ...issue, code: issue.code as IssueCode }));
  });
  return asZodReports(issues);
}

/**
 * The neutral issues of a Zod 4 or Zod 3 error, a Standard Schema failure
 * (`{ issues }` from `schema['~standard'].validate`: Valibot, ArkType, or
 * any vendor's `{ message, path }`), or an array of any of their issues.
 */
export function toValidationIssues(issuesOrError: unknown): ValidationIssue[] {
  const items = itemsOf(issuesOrError);
  if (isAjv(items)) throw new TypeError('ajv errors are read by the component: pass them to validationError or renderValidation');
  return items.some((raw) => isValibot(raw) || isArkType(raw)) ? fromStandardVendors(items) : items.map(fromZod);
}

/** The validation spec (docs/component-api.md, "Specs") as the component reads it, before its JSON text. */
export function validationSpec(action: string, issuesOrError: unknown, options: ValidationOptions): Record<string, unknown> {
  const items = itemsOf(issuesOrError);
  const found = isAjv(items) ? { jsonSchemaErrors: items } : { issues: toValidationIssues(items) };
  const { input, inputSchema, deltas, maxFields, maxDeltas, locale, localizeSteering } = options;
  return { action, ...found, arguments: input, inputSchema, deltas, maxFields, maxDeltas, locale, localizeSteering };
}

function specJson(action: string, issuesOrError: unknown, options: ValidationOptions): string {
  return toJson(validationSpec(action, issuesOrError, options), 'the validation spec');
}

/**
 * The `CallToolResult` of a `<validation_error>`: one sent-versus-expected
 * line per failed field, and the recovery that tells the model to call again.
 *
 * ```ts
 * const parsed = schema.safeParse(args);
 * if (!parsed.success) return validationError('billing.get_invoice', parsed.error, { input: args });
 * ```
 * Takes a Zod 4 or Zod 3 error, a Standard Schema failure (Valibot's and
 * ArkType's issues named as Zod's; any other vendor's `custom`), ajv's
 * `errors` (with `verbose: true` the fields follow the schema's order, as
 * Zod's do), or neutral issues.
 */
export function validationError(action: string, issuesOrError: unknown, options: ValidationOptions = {}): CallToolResult {
  return JSON.parse(validationResultJson(specJson(action, issuesOrError, options))) as CallToolResult;
}

/** The `<validation_error>` envelope text alone. */
export function renderValidation(action: string, issuesOrError: unknown, options: ValidationOptions = {}): string {
  return renderValidationJson(specJson(action, issuesOrError, options));
}

/** The envelope for a validation spec that is already JSON text (docs/component-api.md, "Specs"). */
export const renderValidationJson = (specText: string): string => component.renderValidation(String(specText));

/** The CallToolResult JSON text for a validation spec that is already JSON text. */
export const validationResultJson = (specText: string): string => component.validationResult(String(specText));
