// The only module that talks to the component: its core module's exports,
// called through the canonical ABI of `mcp:envelope/api@0.2.0` (wit/api.wit).
//
// Why not jco's generated bindings: jco (1.35) emits 65 KB of glue, most of it
// machinery for component-model async tasks, and each call through it spent
// more time in that glue (about 2.8 µs) than the core spends rendering. This
// API is strings and enums only, so the ABI is short: a string goes in as
// (pointer, length) in the core's memory, allocated with its `cabi_realloc`;
// a result comes back in a return area of (tag, pointer, length) words, and
// the matching `cabi_post_*` export frees it. jco still unpacks the component
// (scripts/build.mjs), and test/abi.test.mjs checks every function here
// against jco's own bindings and this interface against the WIT jco reads.
//
// Where the core module comes from depends on the runtime: `#core-module`
// (package.json "imports") reads the .wasm file in Node, imports it as a
// module in Cloudflare Workers, and decodes an embedded copy elsewhere.

import { coreModule } from '#core-module';
import type { Format, ProtocolErrorKind } from './types.js';

/** The WIT interface this module implements, and its functions: test/abi.test.mjs compares them with jco's reading of the component. */
export const INTERFACE = 'mcp:envelope/api@0.2.0';
export const FUNCTIONS = ['canonical-codes', 'code-defaults', 'render', 'call-tool-result', 'protocol-error', 'internal-error-result',
  'render-validation', 'validation-result', 'read-envelope', 'error-of-result'] as const;
type Name = (typeof FUNCTIONS)[number];

const FORMATS: Record<Format, number> = { xml: 0, json: 1, text: 2 };
const KINDS: Record<ProtocolErrorKind, number> = {
  'parse-error': 0, 'invalid-request': 1, 'method-not-found': 2, 'invalid-params': 3, 'internal-error': 4,
};

type Export = (...args: number[]) => number;
interface Core {
  memory: WebAssembly.Memory;
  realloc: (ptr: number, oldSize: number, align: number, newSize: number) => number;
  call: Record<Name, Export>;
  post: Record<Name, (ret: number) => void>;
}

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF is text like any other (TextDecoder would drop it).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

let providedModule: WebAssembly.Module | undefined;
let core: Core | undefined;
// Views of the core's memory, renewed whenever it grows (which detaches the old buffer).
let bytes = new Uint8Array(0);
let words = new DataView(new ArrayBuffer(0));

/** Uses an already compiled core module (for runtimes that forbid compiling wasm from bytes). */
export function useCoreModule(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new TypeError('useCoreModule expects a WebAssembly.Module (import the package\'s core.wasm)');
  }
  providedModule = module;
  core = undefined;
}

function start(): Core {
  const { exports } = new WebAssembly.Instance(providedModule ?? coreModule(), {});
  const find = (name: string) => {
    if (!(name in exports)) throw new Error(`mcp-envelope: the core module has no export ${name}; it was built from another WIT than ${INTERFACE}`);
    return exports[name] as Export;
  };
  const call = {} as Core['call'];
  const post = {} as Core['post'];
  for (const name of FUNCTIONS) {
    call[name] = find(`${INTERFACE}#${name}`);
    post[name] = find(`cabi_post_${INTERFACE}#${name}`);
  }
  return { memory: exports.memory as WebAssembly.Memory, realloc: find('cabi_realloc'), call, post };
}

function view(memory: WebAssembly.Memory): void {
  if (bytes.buffer !== memory.buffer) {
    bytes = new Uint8Array(memory.buffer);
    words = new DataView(memory.buffer);
  }
}

// The length of the string `lower` last wrote (saves allocating a pair per argument).
let lowered = 0;

/**
 * Copies a string into the core's memory as UTF-8 and gives its pointer; the
 * callee owns and frees it. Sized for ASCII first; on the first other
 * character it grows to the worst case, then shrinks to the exact length,
 * since the core frees exactly `length` bytes (the canonical ABI does the same).
 */
function lower(c: Core, text: string): number {
  const length = text.length;
  if (length === 0) {
    lowered = 0;
    return 1; // no allocation for an empty string, as in the canonical ABI
  }
  let ptr = c.realloc(0, 0, 1, length);
  view(c.memory);
  const first = encoder.encodeInto(text, bytes.subarray(ptr, ptr + length));
  let written = first.written;
  if (first.read < length) {
    const capacity = written + (length - first.read) * 3;
    ptr = c.realloc(ptr, length, 1, capacity);
    view(c.memory);
    written += encoder.encodeInto(text.slice(first.read), bytes.subarray(ptr + written, ptr + capacity)).written;
    ptr = c.realloc(ptr, capacity, 1, written);
  }
  lowered = written;
  return ptr;
}

/** The string whose (pointer, length) words are at `at`. */
function lift(at: number): string {
  const ptr = words.getUint32(at, true);
  return decoder.decode(bytes.subarray(ptr, ptr + words.getUint32(at + 4, true)));
}

function tag(at: number, cases: number): number {
  const value = words.getUint8(at);
  if (value >= cases) throw new Error(`invalid discriminant ${value}`);
  return value;
}

/** A failure (a trap, or a malformed answer) leaves the instance unusable: it is dropped, and the next call starts afresh. */
function failed(error: unknown): Error {
  core = undefined;
  return new Error(`mcp-envelope: the component failed (${String(error)}); it has been reset`);
}

/** Runs one call on the live instance, starting one when there is none. */
function guarded<T>(run: (c: Core) => T): T {
  const c = core ?? (core = start());
  try {
    return run(c);
  } catch (error) {
    throw failed(error);
  }
}

type Refusal = new (message: string) => Error;

/**
 * The hot path: a function of one string (and an enum, `-1` for none) giving
 * `result<string, string>`, or `result<option<string>, string>` when
 * `optional`. Its `err` is thrown as `Refusal` with the component's own words.
 */
function textCall(name: Name, text: string, enumIndex: number, Refusal: Refusal, optional = false): string | undefined {
  const c = core ?? (core = start());
  let refused: boolean;
  let value: string | undefined;
  try {
    const ptr = lower(c, text);
    const ret = enumIndex < 0 ? c.call[name](ptr, lowered) : c.call[name](ptr, lowered, enumIndex);
    view(c.memory);
    refused = tag(ret, 2) === 1;
    value = refused || !optional ? lift(ret + 4) : tag(ret + 4, 2) === 1 ? lift(ret + 8) : undefined;
    c.post[name](ret);
  } catch (error) {
    throw failed(error);
  }
  if (refused) throw new Refusal(value as string);
  return value;
}

// Checked before anything is lowered, so a bad value is the caller's TypeError, not a component failure.
function format(value: Format): number {
  const index = FORMATS[value];
  if (index === undefined) throw new TypeError(`format must be "xml", "json" or "text", not ${JSON.stringify(String(value))}`);
  return index;
}

/** The 17 canonical codes. */
export const canonicalCodes = (): string[] => guarded((c) => {
  const ret = c.call['canonical-codes']();
  view(c.memory);
  const list = words.getUint32(ret, true);
  const codes = Array.from({ length: words.getUint32(ret + 4, true) }, (_, i) => lift(list + 8 * i));
  c.post['canonical-codes'](ret);
  return codes;
});

/** A canonical code's defaults as JSON text; undefined for a custom code. */
export const codeDefaults = (code: string): string | undefined => guarded((c) => {
  const ret = c.call['code-defaults'](lower(c, code), lowered);
  view(c.memory);
  const value = tag(ret, 2) === 1 ? lift(ret + 4) : undefined;
  c.post['code-defaults'](ret);
  return value;
});

export const render = (spec: string, as: Format): string => textCall('render', spec, format(as), TypeError) as string;

export const callToolResult = (spec: string, as: Format): string => textCall('call-tool-result', spec, format(as), TypeError) as string;

export function protocolError(kind: ProtocolErrorKind, message: string, data: string | undefined): string {
  const k = KINDS[kind];
  if (k === undefined) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  let refused = false;
  const value = guarded((c) => {
    const m = lower(c, message);
    const mLength = lowered;
    const d = data === undefined ? 0 : lower(c, data);
    const ret = c.call['protocol-error'](k, m, mLength, data === undefined ? 0 : 1, d, data === undefined ? 0 : lowered);
    view(c.memory);
    refused = tag(ret, 2) === 1;
    const text = lift(ret + 4);
    c.post['protocol-error'](ret);
    return text;
  });
  if (refused) throw new TypeError(value);
  return value;
}

export function internalErrorResult(tool: string, correlationId: string, as: Format): string {
  const f = format(as);
  return guarded((c) => {
    const t = lower(c, tool);
    const tLength = lowered;
    const ret = c.call['internal-error-result'](t, tLength, lower(c, correlationId), lowered, f);
    view(c.memory);
    const value = lift(ret);
    c.post['internal-error-result'](ret);
    return value;
  });
}

export const renderValidation = (spec: string): string => textCall('render-validation', spec, -1, TypeError) as string;

export const validationResult = (spec: string): string => textCall('validation-result', spec, -1, TypeError) as string;

/** The reading as JSON text; a broken envelope is refused with a SyntaxError. */
export const readEnvelope = (text: string): string => textCall('read-envelope', text, -1, SyntaxError) as string;

/** The client-side outcome as JSON text; undefined when the result is not an error. */
export const errorOfResult = (toolResult: string): string | undefined => textCall('error-of-result', toolResult, -1, TypeError, true);
