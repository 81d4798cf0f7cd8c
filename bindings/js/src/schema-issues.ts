// Standard Schema issues onto the component's neutral issue model. The
// Standard Schema interface promises only `message` and `path`; Valibot and
// ArkType, the two validators besides Zod that MCP frameworks take, report
// what failed in fields of their own (Valibot's `kind`/`type`/`requirement`,
// ArkType's `code`/`rule`), which exist only in JavaScript and are named
// here, as Zod's are in validation.ts. An issue of any other vendor becomes
// `custom` with its message; the component then still words a missing field
// and a failed format from the tool's input schema.

import type { ValidationIssue } from './types.js';

type Raw = Record<string, unknown>;
type Mapped = Partial<ValidationIssue> & { path?: (string | number)[] };

/** A Standard Schema path segment (a key, or `{ key }`) as the model's path element. */
export function pathOf(raw: Raw): (string | number)[] {
  // Array.from, not map: ArkType's path is an Array subclass, and map would make another one.
  return Array.from(Array.isArray(raw.path) ? raw.path : [], (segment: unknown) => {
    const key = segment !== null && typeof segment === 'object' ? (segment as { key?: unknown }).key : segment;
    return typeof key === 'number' ? key : String(key);
  });
}

/** Valibot's issues: `kind` is schema, validation or transformation, `type` the schema or action that failed. */
export const isValibot = (raw: Raw): boolean =>
  (raw.kind === 'schema' || raw.kind === 'validation' || raw.kind === 'transformation') &&
  typeof raw.type === 'string' &&
  'received' in raw;

/** ArkType's errors (ArkError, or one as JSON): a `code` and the `problem` it words. */
export const isArkType = (raw: Raw): boolean => typeof raw.code === 'string' && 'problem' in raw;

/** The value a validator saw, when JSON can carry it (the component otherwise looks it up in the arguments). */
const sent = (value: unknown): Mapped => (value === undefined || typeof value === 'function' ? {} : { input: value });

/** What a length or size bound measured, from the value. */
const measured = (value: unknown): string => (Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'object');

const bound = (code: 'too_small' | 'too_big', origin: string, limit: unknown, inclusive = true, exact = false): Mapped => ({
  code,
  origin,
  [code === 'too_small' ? 'minimum' : 'maximum']: limit instanceof Date ? limit.toISOString() : limit,
  inclusive,
  ...(exact ? { exact: true } : {}),
});

const custom = (raw: Raw): Mapped => ({ code: 'custom', ...(typeof raw.message === 'string' ? { message: raw.message } : {}) });

const VALIBOT_OBJECTS = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const VALIBOT_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  bigint: 'bigint',
  null: 'null',
  date: 'date',
  array: 'array',
  tuple: 'array',
  loose_tuple: 'array',
  strict_tuple: 'array',
  tuple_with_rest: 'array',
  record: 'object',
  map: 'map',
  set: 'set',
};
const VALIBOT_FORMATS: Record<string, string> = {
  email: 'email',
  rfc_email: 'email',
  url: 'url',
  uuid: 'uuid',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  ip: 'ip',
  iso_date: 'date',
  iso_date_time: 'datetime',
  iso_timestamp: 'datetime',
  iso_time: 'time',
  base64: 'base64',
  cuid2: 'cuid2',
  ulid: 'ulid',
  nanoid: 'nanoid',
  emoji: 'emoji',
  starts_with: 'starts_with',
  ends_with: 'ends_with',
};

/** One Valibot issue. */
export function fromValibot(raw: Raw): Mapped {
  const type = String(raw.type);
  const path = pathOf(raw);
  const input = raw.input;
  if (raw.kind === 'schema') {
    if (VALIBOT_OBJECTS.has(type) && path.length > 0) {
      // A key Valibot expected and did not get, or (strict) one it did not expect.
      if (input === undefined) return { code: 'missing_required' };
      if (type === 'strict_object') return { code: 'unrecognized_keys', keys: [String(path[path.length - 1])], path: path.slice(0, -1) };
    }
    if (VALIBOT_OBJECTS.has(type)) return { code: 'invalid_type', expected: 'object', ...sent(input) };
    if (type in VALIBOT_TYPES) return { code: 'invalid_type', expected: VALIBOT_TYPES[type], ...sent(input) };
    if (type === 'picklist' || type === 'enum' || type === 'literal') return { code: 'invalid_value', ...sent(input) };
    if (type === 'union' || type === 'variant') return { code: 'invalid_union', ...sent(input) };
    return { ...custom(raw), ...sent(input) };
  }
  if (raw.kind !== 'validation') return { ...custom(raw), ...sent(input) };
  const requirement = raw.requirement;
  const length = (value: unknown) => (typeof value === 'string' || Array.isArray(value) ? value.length : undefined);
  const mapped: Mapped | undefined = (() => {
    switch (type) {
      case 'integer':
      case 'safe_integer':
        return { code: 'invalid_type', expected: 'integer' };
      case 'regex':
        return { code: 'invalid_format', format: 'regex', pattern: requirement instanceof RegExp ? requirement.source : undefined };
      case 'min_length':
        return bound('too_small', measured(input), requirement);
      case 'max_length':
        return bound('too_big', measured(input), requirement);
      case 'non_empty':
        return bound('too_small', measured(input), 1);
      case 'length': {
        const short = (length(input) ?? 0) < Number(requirement);
        return bound(short ? 'too_small' : 'too_big', measured(input), requirement, true, true);
      }
      case 'min_value':
        return bound('too_small', input instanceof Date ? 'date' : 'number', requirement);
      case 'max_value':
        return bound('too_big', input instanceof Date ? 'date' : 'number', requirement);
      case 'gt_value':
        return bound('too_small', input instanceof Date ? 'date' : 'number', requirement, false);
      case 'lt_value':
        return bound('too_big', input instanceof Date ? 'date' : 'number', requirement, false);
      case 'min_entries':
        return bound('too_small', 'object', requirement);
      case 'max_entries':
        return bound('too_big', 'object', requirement);
      case 'min_size':
        return bound('too_small', input instanceof Blob ? 'file' : measured(input), requirement);
      case 'max_size':
        return bound('too_big', input instanceof Blob ? 'file' : measured(input), requirement);
      case 'multiple_of':
        return { code: 'not_multiple_of', divisor: Number(requirement) };
      case 'value':
        return { code: 'invalid_value', values: [requirement] };
      case 'values':
        return { code: 'invalid_value', values: Array.isArray(requirement) ? requirement : [] };
      default:
        return type in VALIBOT_FORMATS ? { code: 'invalid_format', format: VALIBOT_FORMATS[type] } : undefined;
    }
  })();
  return { ...(mapped ?? custom(raw)), ...sent(input) };
}

/** A JSON literal as ArkType writes a unit in a description. */
const LITERAL = String.raw`"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null`;
const UNIT_LIST = new RegExp(`^(?:${LITERAL})(?:, (?:${LITERAL}))* or (?:${LITERAL})$`);

/**
 * The values of an ArkType union of three or more units, which it checks as
 * one predicate and describes as `"L", "M" or "S"`; undefined for any other
 * description.
 */
function unitsOf(expected: unknown): unknown[] | undefined {
  if (typeof expected !== 'string' || !UNIT_LIST.test(expected)) return undefined;
  return [...expected.matchAll(new RegExp(LITERAL, 'g'))].map(([literal]) => JSON.parse(literal) as unknown);
}

/** One ArkType error, its nested ones (an `intersection` of several failed checks at one path) expanded. */
export function fromArkType(raw: Raw): Mapped[] {
  const rule = raw.rule;
  const data = raw.data;
  const errors = Array.isArray(raw.errors) ? (raw.errors as Raw[]) : [];
  const one = (issue: Mapped): Mapped[] => [{ ...issue, ...(issue.code === 'missing_required' ? {} : sent(data)) }];
  switch (raw.code) {
    case 'required':
      return one({ code: 'missing_required' });
    case 'domain':
      return one({ code: 'invalid_type', expected: String(raw.domain) });
    case 'proto': {
      const name = typeof raw.proto === 'function' ? raw.proto.name : String(raw.expected ?? '');
      const expected = name === 'Array' || name === 'an array' ? 'array' : name === 'Date' || name === 'a Date' ? 'date' : name;
      return one({ code: 'invalid_type', expected });
    }
    case 'unit':
      return one({ code: 'invalid_value', values: [raw.unit] });
    case 'union':
      // An enum is a union of units: the values it allows.
      return errors.length > 0 && errors.every((e) => e.code === 'unit')
        ? one({ code: 'invalid_value', values: errors.map((e) => e.unit) })
        : one({ code: 'invalid_union' });
    case 'intersection':
      return errors.flatMap((e) => (isArkType(e) ? fromArkType(e).map((m) => ({ path: pathOf(e), ...m })) : []));
    case 'pattern':
      return one({ code: 'invalid_format', format: 'regex', pattern: String(rule) });
    case 'divisor':
      return one(rule === 1 ? { code: 'invalid_type', expected: 'integer' } : { code: 'not_multiple_of', divisor: Number(rule) });
    case 'min':
      return one(bound('too_small', 'number', rule, raw.exclusive !== true));
    case 'max':
      return one(bound('too_big', 'number', rule, raw.exclusive !== true));
    case 'minLength':
      return one(bound('too_small', measured(data), rule));
    case 'maxLength':
      return one(bound('too_big', measured(data), rule));
    case 'exactLength': {
      const short = (typeof data === 'string' || Array.isArray(data) ? data.length : 0) < Number(rule);
      return one(bound(short ? 'too_small' : 'too_big', measured(data), rule, true, true));
    }
    case 'after':
      return one(bound('too_small', 'date', rule, raw.exclusive !== true));
    case 'before':
      return one(bound('too_big', 'date', rule, raw.exclusive !== true));
    default: {
      // An undeclared key under `'+': 'reject'` is a predicate expecting it removed.
      const path = pathOf(raw);
      if (raw.code === 'predicate' && raw.expected === 'removed' && path.length > 0) {
        return [{ code: 'unrecognized_keys', keys: [String(path[path.length - 1])], path: path.slice(0, -1) }];
      }
      const units = raw.code === 'predicate' ? unitsOf(raw.expected) : undefined;
      return one(units === undefined ? custom(raw) : { code: 'invalid_value', values: units });
    }
  }
}

/**
 * The issues of Valibot and ArkType as Zod reports the same mistakes: a value
 * of the wrong type (an integer given a fraction) is its field's only line,
 * where Valibot's `integer` action and ArkType's integer divisor let the
 * bounds after them report too; an object's unrecognized keys are one issue.
 */
export function asZodReports(issues: ValidationIssue[]): ValidationIssue[] {
  const key = (issue: ValidationIssue) => JSON.stringify(issue.path);
  const wrongType = new Set<string>();
  const keysAt = new Map<string, ValidationIssue>();
  const kept: ValidationIssue[] = [];
  for (const issue of issues) {
    if (wrongType.has(key(issue))) continue;
    if (issue.code === 'invalid_type') wrongType.add(key(issue));
    if (issue.code === 'unrecognized_keys') {
      const same = keysAt.get(key(issue));
      if (same !== undefined) {
        same.keys = [...(same.keys ?? []), ...(issue.keys ?? [])];
        continue;
      }
      keysAt.set(key(issue), issue);
    }
    kept.push(issue);
  }
  return kept;
}
