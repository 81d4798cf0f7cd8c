// A JavaScript value as the JSON text the component reads, by the rule of
// docs/host-values.md, which the Python package follows too: JSON's own values
// as JSON.stringify writes them, and every other value a spec, a detail, an
// issue's input or a call's arguments can hold written as text, so an envelope
// is never refused for content nobody checked (a parsed upstream body, a thrown
// object, arguments a model made up). The walk keeps its own stack, so a value
// of any depth converts; the core cuts what is deeper than it shows.

const CYCLE = '"[cycle]"';
const UNREADABLE = '"[unreadable]"';

/** An array, set or object being written: its members are read one at a time, each of which may throw. */
interface Container {
  readonly kind: 'array' | 'set' | 'object';
  readonly of: object;
  /** Member names of an object (empty for arrays and sets). */
  readonly keys: readonly string[];
  readonly length: number;
  readonly read: (at: number) => unknown;
}

interface Frame extends Container {
  at: number;
  wrote: number;
  /** Where the members start in the output. */
  readonly start: number;
  /** A set's items: where each one's text starts in the output, to sort them at the end. */
  readonly marks: number[];
}

const quote = (text: string): string => JSON.stringify(text);

/** Bytes as text: UTF-8, each invalid sequence U+FFFD, a BOM kept (Python's `decode("utf-8", "replace")`). */
const bytesText = (bytes: Uint8Array): string => quote(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));

const numberText = (n: number): string =>
  Number.isFinite(n) ? JSON.stringify(n) : quote(Number.isNaN(n) ? '[NaN]' : n > 0 ? '[Infinity]' : '[-Infinity]');

const array = (of: object, items: ArrayLike<unknown>): Container => ({
  kind: 'array',
  of,
  keys: [],
  length: items.length,
  read: (at) => items[at],
});

/** The text of a Map key that is not a string: its JSON, a string shown as itself. */
function keyText(key: unknown): string {
  if (typeof key === 'string') return key;
  const text = write(key);
  return text === undefined ? String(key) : text.startsWith('"') ? (JSON.parse(text) as string) : text;
}

/**
 * A value with a rule of its own (bytes, a date, an error, a boxed primitive,
 * a Map, a Set), known by its built-in tag, so one from another realm (a vm
 * context, a worker) is known too; undefined otherwise.
 */
function special(value: object): string | Container | undefined {
  if (ArrayBuffer.isView(value)) {
    const bytes = value instanceof Uint8Array || value instanceof Uint8ClampedArray || value instanceof DataView;
    return bytes ? bytesText(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) : array(value, Array.from(value as never));
  }
  switch (Object.prototype.toString.call(value)) {
    case '[object ArrayBuffer]':
    case '[object SharedArrayBuffer]':
      return bytesText(new Uint8Array(value as ArrayBuffer));
    case '[object Date]': {
      const time = Date.prototype.getTime.call(value);
      return quote(Number.isNaN(time) ? '[Invalid Date]' : Date.prototype.toISOString.call(value));
    }
    case '[object Error]':
      return quote(Error.prototype.toString.call(value));
    case '[object Number]':
      return numberText(Number.prototype.valueOf.call(value));
    case '[object String]':
      return quote(String.prototype.valueOf.call(value));
    case '[object Boolean]':
      return String(Boolean.prototype.valueOf.call(value));
    case '[object BigInt]':
      return BigInt.prototype.toString.call(value);
    case '[object Map]': {
      const entries = Array.from(Map.prototype.entries.call(value) as Iterable<[unknown, unknown]>);
      return {
        kind: 'object',
        of: value,
        keys: entries.map(([key]) => keyText(key)),
        length: entries.length,
        read: (at) => entries[at]![1],
      };
    }
    case '[object Set]': {
      const items = Array.from(Set.prototype.values.call(value) as Iterable<unknown>);
      return { kind: 'set', of: value, keys: [], length: items.length, read: (at) => items[at] };
    }
    default:
      return undefined;
  }
}

/**
 * How one value is written: its JSON text, a container to walk, or undefined
 * for none (undefined, left out of an object as JSON leaves it). `toJson` is
 * applied once, as JSON.stringify applies it, to what has no rule of its own.
 */
function shown(value: unknown, key: string, open: Set<object>, toJSON = true): string | Container | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'undefined':
      return undefined;
    case 'symbol':
      return quote(`[${String(value)}]`);
    case 'function': {
      const { name } = value as { name?: unknown };
      return quote(typeof name === 'string' && name !== '' ? `[function ${name}]` : '[function]');
    }
  }
  if (value === null) return 'null';
  const object = value as object;
  if (open.has(object)) return CYCLE;
  // A plain object or an array has no rule of its own: the common case skips the look.
  const proto: unknown = Object.getPrototypeOf(object);
  const plain = proto === Object.prototype || proto === null || proto === Array.prototype;
  const own = plain ? undefined : special(object);
  if (own !== undefined) return own;
  const replacer = toJSON ? (object as { toJSON?: unknown }).toJSON : undefined;
  if (typeof replacer === 'function') return shown(replacer.call(object, key), key, open, false);
  if (Array.isArray(object)) return array(object, object as unknown[]);
  const keys = Object.keys(object);
  return { kind: 'object', of: object, keys, length: keys.length, read: (at) => (object as Record<string, unknown>)[keys[at]!] };
}

/** `shown`, where a value that throws on being read (a Proxy's trap, a getter, a toJSON) is `[unreadable]`. */
function safely(value: unknown, key: string, open: Set<object>): string | Container | undefined {
  try {
    return shown(value, key, open);
  } catch {
    return UNREADABLE;
  }
}

/** The JSON text of a value by the rule, or undefined for undefined. Never throws; never recurses but for a Map's keys. */
export function write(root: unknown): string | undefined {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();
  const begin = (item: string | Container): void => {
    if (typeof item === 'string') {
      out.push(item);
      return;
    }
    out.push(item.kind === 'object' ? '{' : '[');
    open.add(item.of);
    stack.push({
      kind: item.kind,
      of: item.of,
      keys: item.keys,
      length: item.length,
      read: item.read,
      at: 0,
      wrote: 0,
      start: out.length,
      marks: [],
    });
  };
  const first = safely(root, '', open);
  if (first === undefined) return undefined;
  begin(first);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.at < frame.length) {
      const at = frame.at++;
      const key = frame.kind === 'object' ? frame.keys[at]! : String(at);
      let item: string | Container | undefined;
      try {
        item = safely(frame.read(at), key, open);
      } catch {
        item = UNREADABLE;
      }
      if (frame.kind === 'object') {
        if (item === undefined) continue;
        if (frame.wrote++ > 0) out.push(',');
        out.push(quote(key), ':');
      } else if (frame.kind === 'set') {
        frame.marks.push(out.length);
      } else if (frame.wrote++ > 0) {
        out.push(',');
      }
      begin(item ?? 'null');
      continue;
    }
    stack.pop();
    open.delete(frame.of);
    if (frame.kind === 'set') {
      // A set has no order JSON could keep (and a Python set none at all): its items in the order of their texts.
      const texts = frame.marks.map((from, i) => out.slice(from, frame.marks[i + 1] ?? out.length).join(''));
      out.length = frame.start;
      out.push(texts.sort().join(','));
    }
    out.push(frame.kind === 'object' ? '}' : ']');
  }
  return out.join('');
}

/**
 * Whether a value holds only what JSON.stringify writes as the rule does:
 * strings, finite numbers, booleans, null, undefined, plain objects (no
 * `toJSON`) and arrays; a look at no more than 10,000 values (a cycle, or a
 * spec that large, is left to `write`). A getter that throws is not plain.
 */
function isPlain(root: unknown): boolean {
  const stack: unknown[] = [root];
  for (let visits = 0; stack.length > 0; visits++) {
    const value = stack.pop();
    if (visits > 10_000) return false;
    switch (typeof value) {
      case 'string':
      case 'boolean':
      case 'undefined':
        continue;
      case 'number':
        if (Number.isFinite(value)) continue;
        return false;
      case 'object':
        break;
      default:
        return false;
    }
    if (value === null) continue;
    const proto: unknown = Object.getPrototypeOf(value);
    if (Array.isArray(value)) {
      if (proto !== Array.prototype) return false;
      for (let i = 0; i < value.length; i++) stack.push(value[i]);
    } else {
      if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return true;
}

/**
 * A value as the component reads it: compact JSON by the rule above (a bigint
 * as its digits, `NaN` as `"[NaN]"`, a cycle as `"[cycle]"`, ...). A lone
 * surrogate is written as a `\ud800` escape, which the core turns into U+FFFD;
 * everything else the core checks itself. Throws only for `undefined`.
 */
export function toJson(value: unknown, what = 'the spec'): string {
  let json: string | undefined;
  // JSON.stringify (native, three times faster) for the common spec; it throws past a few thousand levels.
  try {
    if (isPlain(value)) json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  json ??= write(value);
  if (json === undefined) throw new TypeError(`${what} must be a JSON object, not ${typeof value}`);
  return json;
}
