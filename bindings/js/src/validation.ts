// `<validation_error>` envelopes from whatever validator a server uses: Zod 4,
// Zod 3 and ajv errors are mapped onto the component's neutral issues (Zod 4's
// shape, flattened), with the value the model sent looked up in the call's
// arguments when the validator did not report it.

import * as wasm from './component.js';
import type { CallToolResult, ContractDelta } from './types.js';

/** What kind of failure an issue is (Zod 4's codes, plus `missing_required`). */
export type IssueCode =
  | 'invalid_type' | 'too_small' | 'too_big' | 'invalid_format' | 'not_multiple_of' | 'unrecognized_keys'
  | 'invalid_union' | 'invalid_key' | 'invalid_element' | 'invalid_value' | 'custom' | 'missing_required';

/** One failed check, independent of the validator that found it. */
export interface ValidationIssue {
  /** Where: property names and array indices. */
  path: (string | number)[];
  code: IssueCode;
  /** The value sent; absent means the field was missing. */
  input?: unknown;
  expected?: string;
  format?: string;
  pattern?: string;
  values?: unknown[];
  minimum?: number | string;
  maximum?: number | string;
  inclusive?: boolean;
  exact?: boolean;
  origin?: string;
  keys?: string[];
  divisor?: number;
  /** The validator's own words, used only where no template fits. */
  message?: string;
}

/** Options of `validationError`. */
export interface ValidationOptions {
  /** The arguments of the call: where a sent value is looked up when an issue lacks it. */
  input?: unknown;
  /** Contract changes to show the model in the same turn. */
  deltas?: readonly ContractDelta[];
  /** At most this many fields are listed (20 by default). */
  maxFields?: number;
  /** At most this many deltas are listed (5 by default). */
  maxDeltas?: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const ABSENT: unique symbol = Symbol('absent');

/** A value as JSON can carry it; ABSENT for `undefined` (a field that was not sent). */
function jsonValue(value: unknown, seen: WeakSet<object> = new WeakSet()): Json | typeof ABSENT {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return ABSENT;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (typeof value !== 'object') return String(value);
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    if (Array.isArray(value) || value instanceof Set) {
      return [...value].map((item) => { const json = jsonValue(item, seen); return json === ABSENT ? null : json; });
    }
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    const object: { [key: string]: Json } = {};
    for (const [key, item] of entries) {
      const json = jsonValue(item, seen);
      if (json !== ABSENT) object[String(key)] = json;
    }
    return object;
  } finally {
    seen.delete(value);
  }
}

/** The value at `path` in the call's arguments, or ABSENT when nothing is there. */
function lookUp(input: unknown, path: readonly (string | number)[]): unknown {
  let here: unknown = input;
  for (const segment of path) {
    if (Array.isArray(here)) {
      const index = typeof segment === 'number' ? segment : /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= here.length) return ABSENT;
      here = here[index];
    } else if (here !== null && typeof here === 'object' && Object.prototype.hasOwnProperty.call(here, segment)) {
      here = (here as Record<string, unknown>)[String(segment)];
    } else {
      return ABSENT;
    }
  }
  return here;
}

function boundValue(value: unknown, origin: string | undefined): number | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (origin === 'date' && (typeof value === 'number' || value instanceof Date)) {
    const date = new Date(value instanceof Date ? value.getTime() : value);
    return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
  }
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(value);
}

const ORIGINS: Record<string, string> = { int: 'integer', safeint: 'integer' };
const TYPE_NAMES: Record<string, string> = { int: 'integer', safeint: 'integer', float: 'number' };

/** Codes only Zod 3 uses: seeing one (or Zod 3's field names) means a Zod 3 issue. */
const ZOD3_ONLY = new Set(['invalid_string', 'invalid_enum_value', 'invalid_literal', 'invalid_date', 'not_finite',
  'invalid_intersection_types', 'invalid_arguments', 'invalid_return_type', 'invalid_union_discriminator']);

type Raw = Record<string, unknown>;

function pathOf(raw: Raw): (string | number)[] {
  const path = Array.isArray(raw.path) ? raw.path : [];
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
}

function withMessage(issue: ValidationIssue, raw: Raw): ValidationIssue {
  if (typeof raw.message === 'string' && raw.message !== '') issue.message = raw.message;
  return issue;
}

/** A Zod 3 issue. Zod 3 never reports the value, so `input` comes from the arguments. */
function fromZod3(raw: Raw): ValidationIssue {
  const path = pathOf(raw);
  const base = (code: IssueCode, extra: Partial<ValidationIssue> = {}) => withMessage({ path, code, ...extra }, raw);
  switch (raw.code) {
    case 'invalid_type':
      return base('invalid_type', { expected: TYPE_NAMES[String(raw.expected)] ?? String(raw.expected) });
    case 'invalid_literal':
      return base('invalid_value', { values: [jsonValue(raw.expected)] });
    case 'invalid_enum_value':
    case 'invalid_union_discriminator':
      return base('invalid_value', { values: Array.isArray(raw.options) ? raw.options.map((o) => jsonValue(o)) : [] });
    case 'invalid_date':
      return base('invalid_type', { expected: 'date' });
    case 'invalid_string': {
      const validation = raw.validation;
      if (typeof validation === 'string') return base('invalid_format', { format: validation === 'ip' ? 'ipv4' : validation });
      const kind = validation !== null && typeof validation === 'object' ? Object.keys(validation)[0] : undefined;
      const names: Record<string, string> = { startsWith: 'starts_with', endsWith: 'ends_with', includes: 'includes' };
      return base('invalid_format', { format: names[kind ?? ''] ?? 'other' });
    }
    case 'too_small':
    case 'too_big': {
      const origin = String(raw.type ?? 'number');
      const bound = raw.code === 'too_small' ? 'minimum' : 'maximum';
      return base(raw.code, {
        origin, [bound]: boundValue(raw[bound], origin),
        inclusive: raw.inclusive !== false, ...(raw.exact === true ? { exact: true } : {}),
      });
    }
    case 'not_multiple_of':
      return base('not_multiple_of', { divisor: Number(raw.multipleOf) });
    case 'unrecognized_keys':
      return base('unrecognized_keys', { keys: Array.isArray(raw.keys) ? raw.keys.map(String) : [] });
    case 'invalid_union':
      return base('invalid_union');
    default:
      return base('custom');
  }
}

const NEUTRAL_FIELDS = ['expected', 'format', 'pattern', 'values', 'minimum', 'maximum', 'inclusive', 'exact', 'origin',
  'keys', 'divisor'] as const;

/** A Zod 4 issue, or a neutral one (the same shape). */
function fromZod4(raw: Raw): ValidationIssue {
  const code = String(raw.code) as IssueCode;
  const issue: ValidationIssue = { path: pathOf(raw), code };
  const origin = typeof raw.origin === 'string' ? (ORIGINS[raw.origin] ?? raw.origin) : undefined;
  for (const field of NEUTRAL_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (field === 'minimum' || field === 'maximum') issue[field] = boundValue(value, origin);
    else if (field === 'origin') issue.origin = origin;
    else if (field === 'expected') issue.expected = TYPE_NAMES[String(value)] ?? String(value);
    else if (field === 'values') issue.values = Array.isArray(value) ? value.map((v) => jsonValue(v)) : [];
    else if (field === 'divisor') issue.divisor = Number(value);
    else (issue as unknown as Raw)[field] = value;
  }
  // Zod's own pattern for a named format (its email regex) is noise to a model.
  if (issue.format !== 'regex') delete issue.pattern;
  // `z.int()` reports an integer failure as invalid_type with format safeint.
  if (code === 'invalid_type') delete issue.format;
  if ('input' in raw) issue.input = raw.input;
  return withMessage(issue, raw);
}

function fromZodIssue(raw: Raw): ValidationIssue {
  const zod3 = ZOD3_ONLY.has(String(raw.code)) || 'received' in raw || 'multipleOf' in raw || 'unionErrors' in raw ||
    ((raw.code === 'too_small' || raw.code === 'too_big') && 'type' in raw && !('origin' in raw));
  return zod3 ? fromZod3(raw) : fromZod4(raw);
}

const AJV_FORMATS: Record<string, string> = { 'date-time': 'datetime', uri: 'url', 'uri-reference': 'url', ipv4: 'ipv4', ipv6: 'ipv6' };

/** The path of a JSON pointer, with array indices as numbers where the arguments hold an array. */
function pointerPath(pointer: string, input: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let here: unknown = input;
  for (const encoded of pointer.replace(/^\//, '').split('/')) {
    const segment = encoded.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(here) && /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : undefined;
    path.push(index ?? segment);
    here = here !== null && typeof here === 'object' ? (here as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}

/** ajv's errors (ajv 8's `instancePath`, ajv 6's `dataPath`). */
function fromAjv(errors: readonly Raw[], input: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const extraKeys = new Map<string, ValidationIssue>();
  for (const error of errors) {
    const params = (error.params ?? {}) as Raw;
    const count = issues.length;
    const pointer = String(error.instancePath ?? error.dataPath ?? '');
    const path = pointerPath(pointer, input);
    const base = (code: IssueCode, extra: Partial<ValidationIssue> = {}) => withMessage({ path, code, ...extra }, error);
    switch (error.keyword) {
      case 'required': {
        // With ajv's `verbose: true` the parent schema says what type the missing field has.
        const missing = String(params.missingProperty);
        const declared = (error.parentSchema as { properties?: Record<string, { type?: unknown }> } | undefined)
          ?.properties?.[missing]?.type;
        const expected = typeof declared === 'string' ? { expected: declared } : {};
        issues.push(base('invalid_type', { path: [...path, missing], ...expected }));
        break;
      }
      case 'additionalProperties': {
        // ajv reports each extra key apart; Zod reports them together: one issue either way.
        const existing = extraKeys.get(pointer);
        if (existing) existing.keys?.push(String(params.additionalProperty));
        else {
          const issue = base('unrecognized_keys', { keys: [String(params.additionalProperty)] });
          extraKeys.set(pointer, issue);
          issues.push(issue);
        }
        break;
      }
      case 'type': {
        const type = Array.isArray(params.type) ? params.type[0] : String(params.type).split(',')[0];
        issues.push(base('invalid_type', { expected: String(type) }));
        break;
      }
      case 'minLength': case 'maxLength': case 'minItems': case 'maxItems': case 'minProperties': case 'maxProperties':
      case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': {
        const keyword = String(error.keyword);
        const small = keyword.startsWith('min') || keyword === 'exclusiveMinimum';
        const origin = keyword.endsWith('Length') ? 'string' : keyword.endsWith('Items') ? 'array'
          : keyword.endsWith('Properties') ? 'object' : 'number';
        issues.push(base(small ? 'too_small' : 'too_big', {
          origin, [small ? 'minimum' : 'maximum']: Number(params.limit), inclusive: !keyword.startsWith('exclusive'),
        }));
        break;
      }
      case 'format':
        issues.push(base('invalid_format', { format: AJV_FORMATS[String(params.format)] ?? String(params.format) }));
        break;
      case 'pattern':
        issues.push(base('invalid_format', { format: 'regex', pattern: String(params.pattern) }));
        break;
      case 'enum':
        issues.push(base('invalid_value', { values: Array.isArray(params.allowedValues) ? params.allowedValues.map((v) => jsonValue(v)) : [] }));
        break;
      case 'const':
        issues.push(base('invalid_value', { values: [jsonValue(params.allowedValue)] }));
        break;
      case 'multipleOf':
        issues.push(base('not_multiple_of', { divisor: Number(params.multipleOf) }));
        break;
      case 'anyOf': case 'oneOf':
        issues.push(base('invalid_union'));
        break;
      default:
        issues.push(base('custom'));
    }
    // With `verbose: true` ajv gives the failing value; `required` gives the parent object instead.
    const added = issues.length > count ? issues[issues.length - 1] : undefined;
    if (added !== undefined && input === undefined && 'data' in error && error.keyword !== 'required') {
      added.input = error.data;
    }
  }
  // A schema from Zod states both `format` and the pattern behind it; the
  // model needs only the named format.
  const named = new Set(issues.filter((i) => i.code === 'invalid_format' && i.format !== 'regex').map((i) => JSON.stringify(i.path)));
  const kept = issues.filter((i) => !(i.code === 'invalid_format' && i.format === 'regex' && named.has(JSON.stringify(i.path))));
  return inDeclaredOrder(kept, errors);
}

/**
 * ajv reports `required` and `additionalProperties` before the properties'
 * own checks; Zod goes in declaration order and reports extra keys last. With
 * `verbose: true` the root schema is known, so the fields are put in its
 * order, and the same failures give the same envelope, byte for byte.
 */
function inDeclaredOrder(issues: ValidationIssue[], errors: readonly Raw[]): ValidationIssue[] {
  const root = errors.find((e) => (e.instancePath ?? e.dataPath ?? '') === '' && e.parentSchema !== undefined)?.parentSchema as
    { properties?: Record<string, unknown> } | undefined;
  if (root?.properties === undefined || root.properties === null) return issues;
  const order = Object.keys(root.properties);
  const rank = (issue: ValidationIssue) => {
    if (issue.path.length === 0) return order.length + 1;
    const at = order.indexOf(String(issue.path[0]));
    return at < 0 ? order.length : at;
  };
  return issues.map((issue, index) => ({ issue, index }))
    .sort((a, b) => rank(a.issue) - rank(b.issue) || a.index - b.index)
    .map(({ issue }) => issue);
}

function looksLikeAjv(items: readonly unknown[]): boolean {
  return items.some((item) => item !== null && typeof item === 'object' && ('keyword' in item || 'instancePath' in item));
}

/**
 * Neutral issues from a Zod 4 or Zod 3 error, an ajv `errors` array, an array
 * of Zod or neutral issues. Where an issue lacks the sent value, it is looked
 * up in `input` by path; absent there too means the field was missing.
 */
export function toValidationIssues(issuesOrError: unknown, input?: unknown): ValidationIssue[] {
  const source = issuesOrError as { issues?: unknown; errors?: unknown } | null;
  let items: readonly unknown[];
  if (Array.isArray(issuesOrError)) items = issuesOrError;
  else if (source !== null && typeof source === 'object' && Array.isArray(source.issues)) items = source.issues;
  else if (source !== null && typeof source === 'object' && Array.isArray(source.errors)) items = source.errors;
  else throw new TypeError('expected a Zod error, an ajv errors array, or an array of validation issues');

  const raw = items.filter((item): item is Raw => item !== null && typeof item === 'object');
  const issues = looksLikeAjv(raw) ? fromAjv(raw, input) : raw.map(fromZodIssue);
  return issues.map((issue) => {
    let sent = 'input' in issue ? jsonValue(issue.input) : ABSENT;
    if (sent === ABSENT && input !== undefined) {
      const found = lookUp(input, issue.path);
      sent = found === ABSENT ? ABSENT : jsonValue(found);
    }
    const { input: _dropped, ...rest } = issue;
    return sent === ABSENT ? rest : { ...rest, input: sent };
  });
}

function validationSpecJson(action: string, issuesOrError: unknown, options: ValidationOptions): string {
  if (typeof action !== 'string') throw new TypeError('validationError(action, ...): action must be a string');
  const spec: Record<string, unknown> = { action, issues: toValidationIssues(issuesOrError, options.input) };
  if (options.deltas !== undefined) spec.deltas = options.deltas;
  if (options.maxFields !== undefined) spec.maxFields = options.maxFields;
  if (options.maxDeltas !== undefined) spec.maxDeltas = options.maxDeltas;
  return JSON.stringify(spec);
}

function refused<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof wasm.ComponentRefusal) throw new TypeError(error.message);
    throw error;
  }
}

/**
 * The `CallToolResult` of a `<validation_error>`: one sent-versus-expected
 * line per failed field, and the recovery that tells the model to call again.
 *
 * ```ts
 * const parsed = schema.safeParse(args);
 * if (!parsed.success) return validationError('billing.get_invoice', parsed.error, { input: args });
 * ```
 */
export function validationError(action: string, issuesOrError: unknown, options: ValidationOptions = {}): CallToolResult {
  const spec = validationSpecJson(action, issuesOrError, options);
  return JSON.parse(refused(() => wasm.validationResultSpec(spec))) as CallToolResult;
}

/** The `<validation_error>` envelope text alone. */
export function renderValidation(action: string, issuesOrError: unknown, options: ValidationOptions = {}): string {
  const spec = validationSpecJson(action, issuesOrError, options);
  return refused(() => wasm.renderValidationSpec(spec));
}

/** The envelope for a validation spec that is already JSON text (the shared vectors' shape). */
export function renderValidationJson(specText: string): string {
  return refused(() => wasm.renderValidationSpec(String(specText)));
}

/** The CallToolResult JSON text for a validation spec that is already JSON text. */
export function validationResultJson(specText: string): string {
  return refused(() => wasm.validationResultSpec(String(specText)));
}
