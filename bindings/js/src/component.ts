// The only module that talks to the jco-generated bindings: it loads the
// component once, on first use, and turns the component's error results into
// plain strings for the hand-written API.
//
// Loading: the bindings are transpiled with `--instantiation sync`, so they
// contain no fetch, no fs and no top-level await. The core module is embedded
// as base64 and compiled synchronously with `new WebAssembly.Module` the first
// time a function is called, which works unchanged in Node and browsers
// (Chromium allows synchronous compiles up to 8 MB on the main thread) and
// needs nothing Deno or Bun lack.
// Runtimes that forbid compiling wasm from bytes at run time (Cloudflare
// Workers, Vercel Edge) import the `.wasm` file as a module instead and hand
// it over with `useCoreModule` before the first call.

import { instantiate } from '../generated/envelope.js';
import { coreWasmBase64 } from '../generated/core-wasm.js';

export type WireFormat = 'xml' | 'json' | 'text';
export type ProtocolErrorKind =
  | 'parse-error' | 'invalid-request' | 'method-not-found' | 'invalid-params' | 'internal-error';

type Api = ReturnType<typeof instantiate>['api'];

let providedModule: WebAssembly.Module | undefined;
let api: Api | undefined;

/** Uses an already compiled core module (for runtimes that forbid compiling wasm from bytes). */
export function useCoreModule(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new TypeError('useCoreModule expects a WebAssembly.Module (import the package\'s core.wasm)');
  }
  providedModule = module;
  api = undefined;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function component(): Api {
  if (api === undefined) {
    const module = providedModule ?? new WebAssembly.Module(decodeBase64(coreWasmBase64));
    api = instantiate(() => module, {}).api;
  }
  return api;
}

/** A refusal from the component: the exact message the shared vectors expect. */
export class ComponentRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ComponentRefusal';
  }
}

// Every call goes through here. A refusal (the component's `err` string) becomes
// a ComponentRefusal; anything else is a trap, after which jco marks the instance
// unusable, so the instance is dropped and the next call starts a fresh one.
function call<T>(run: (api: Api) => T): T {
  const instance = component();
  try {
    return run(instance);
  } catch (error) {
    const payload = (error as { payload?: unknown } | null)?.payload;
    if (typeof payload === 'string') throw new ComponentRefusal(payload);
    api = undefined;
    throw new Error(`mcp-envelope: the component failed (${String(error)}); it has been reset`);
  }
}

export function renderSpec(specJson: string, format: WireFormat): string {
  return call((c) => c.renderSpec(specJson, format));
}

export function callToolResultSpec(specJson: string, format: WireFormat): string {
  return call((c) => c.callToolResultSpec(specJson, format));
}

/** The minimal spec JSON of the earliest envelope, or undefined when there is none. */
export function parseSpec(text: string): string | undefined {
  return call((c) => c.parseSpec(text));
}

/** A detail of a parsed error, as the component gives it. */
export interface ParsedDetail { key: string; value: string }

/** A contract delta as the component's record (lower-case severity, no action for a tool-wide change). */
export interface ParsedDelta {
  action?: string; severity: 'breaking' | 'risky' | 'safe' | 'cosmetic'; field: string; description: string;
  before?: string; after?: string;
}

/** A parsed error as the component's record: unlike parseSpec it keeps fields set to their defaults. */
export interface ParsedRecord {
  code: string; message: string; suggestion?: string; availableActions: string[]; details: ParsedDetail[];
  retryAfter?: number; severity: 'error' | 'critical' | 'warning';
  category?: 'transient' | 'validation' | 'business' | 'permission' | 'internal';
  retryable?: boolean; customerMessage?: string; correlationId?: string; deltas: ParsedDelta[];
}

/**
 * The earliest envelope as a record, or undefined when there is none.
 *
 * Two reads, on purpose: the minimal spec JSON drops an explicit category or
 * retryable equal to the code's default (rendering it again would lose that
 * section), so those come from the typed record; but jco 1.35 lifts each
 * string with a default TextDecoder, which strips a leading U+FEFF, so the
 * strings come from the JSON, where every string sits inside quotes.
 */
function readRecord(c: Api, text: string): ParsedRecord | undefined {
  let record: ParsedRecord;
  try {
    record = c.parse(text);
  } catch (error) {
    const failure = (error as { payload?: { tag?: string; val?: unknown } } | null)?.payload;
    if (failure?.tag === 'no-envelope') return undefined;
    if (failure?.tag === 'malformed') throw Object.assign(new Error(String(failure.val)), { payload: String(failure.val) });
    throw error;
  }
  const json = c.parseSpec(text);
  if (json === undefined) return record;
  const spec = JSON.parse(json) as Partial<Record<keyof ParsedRecord, unknown>> & {
    details?: Record<string, string>;
    deltas?: { action?: string | null; severity: string; field: string; description: string; before?: string; after?: string }[];
  };
  return {
    ...record,
    code: spec.code as string,
    message: spec.message as string,
    suggestion: (spec.suggestion as string | undefined) ?? record.suggestion,
    availableActions: (spec.availableActions as string[] | undefined) ?? [],
    details: Object.entries(spec.details ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    customerMessage: (spec.customerMessage as string | undefined) ?? record.customerMessage,
    correlationId: (spec.correlationId as string | undefined) ?? record.correlationId,
    deltas: (spec.deltas ?? []).map(({ action, severity, ...rest }) => ({
      ...rest,
      ...(action === null || action === undefined ? {} : { action }),
      severity: severity.toLowerCase() as ParsedDelta['severity'],
    })),
  };
}

export function parseRecord(text: string): ParsedRecord | undefined {
  return call((c) => readRecord(c, text));
}

export function canonicalCodes(): string[] {
  return call((c) => c.canonicalCodes());
}

/** A JSON-RPC error object; `dataSpecJson` is validated and carried as the error's JSON form. */
export function protocolError(kind: ProtocolErrorKind, message: string, dataSpecJson?: string): string {
  return call((c) => {
    // The typed call needs a tool-error record: the component builds one from
    // the spec by reading back its own JSON rendering, so the spec's checks and
    // messages are the same as everywhere else.
    const data = dataSpecJson === undefined ? undefined : readRecord(c, c.renderSpec(dataSpecJson, 'json'));
    return c.protocolError(kind, message, data);
  });
}

export function renderValidationSpec(specJson: string): string {
  return call((c) => c.renderValidationSpec(specJson));
}

export function validationResultSpec(specJson: string): string {
  return call((c) => c.validationResultSpec(specJson));
}

/** The validation spec JSON of a `<validation_error>`, or undefined when there is none. */
export function parseValidationSpec(text: string): string | undefined {
  return call((c) => c.parseValidationSpec(text));
}
