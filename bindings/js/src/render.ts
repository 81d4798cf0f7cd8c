// Rendering an error spec into an envelope or a CallToolResult, and the
// protocol-error object: thin, checked calls into the component.

import * as wasm from './component.js';
import type { CallToolResult, Code, EnvelopeSpec, ErrorOptions, Format } from './types.js';

/** Options of the render functions. */
export interface RenderOptions {
  /** `xml` (default), `json` or `text`. */
  format?: Format;
}

const FORMATS: readonly string[] = ['xml', 'json', 'text'];

function formatOf(options: RenderOptions | undefined): Format {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`options must be an object such as { format: 'json' }, not ${JSON.stringify(options)}`);
  }
  const format = options?.format ?? 'xml';
  if (!FORMATS.includes(format)) {
    throw new TypeError(`format must be "xml", "json" or "text", not ${JSON.stringify(String(format))}`);
  }
  return format;
}

/** The spec as the component reads it: compact JSON, `undefined` fields left out. */
export function specJson(spec: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(spec);
  } catch (error) {
    throw new TypeError(`the spec cannot be written as JSON: ${(error as Error).message}`);
  }
  // Anything JSON can hold goes to the component, whose refusals are the
  // messages every host shares ("the spec must be a JSON object, not an array").
  if (json === undefined) throw new TypeError(`the spec must be a JSON object, not ${typeof spec}`);
  return json;
}

// The component refuses a bad spec with a message naming the key; that
// message is the error's whole text, as in the CLI.
function refusalsAsTypeErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof wasm.ComponentRefusal) throw new TypeError(error.message);
    throw error;
  }
}

/**
 * The envelope text of one error.
 *
 * ```ts
 * render({ code: 'NOT_FOUND', message: 'No invoice with that ID' });
 * // '<tool_error code="NOT_FOUND" severity="error">\n  <message>No invoice with that ID</message>\n  ...'
 * ```
 * Throws a TypeError naming the key when the spec is refused.
 */
export function render(spec: EnvelopeSpec, options?: RenderOptions): string {
  const format = formatOf(options);
  return renderJson(specJson(spec), { format });
}

/** `render` for a spec that is already JSON text (from a file, a queue, the CLI). */
export function renderJson(specText: string, options?: RenderOptions): string {
  const format = formatOf(options);
  return refusalsAsTypeErrors(() => wasm.renderSpec(String(specText), format));
}

/** The `CallToolResult` JSON text, byte for byte what every other host writes. */
export function callToolResultJson(spec: EnvelopeSpec, options?: RenderOptions): string {
  const format = formatOf(options);
  return refusalsAsTypeErrors(() => wasm.callToolResultSpec(specJson(spec), format));
}

/** The result object for a spec (shared by `toolError`, the builder and the MCP wrapper). */
export function resultOf(spec: EnvelopeSpec, format?: Format): CallToolResult {
  return JSON.parse(callToolResultJson(spec, { format })) as CallToolResult;
}

/**
 * The MCP `CallToolResult` carrying one error: return it from a tool handler.
 *
 * ```ts
 * return toolError('RATE_LIMITED', { message: 'Too many lookups', retryAfter: 30 });
 * // { content: [{ type: 'text', text: '<tool_error code="RATE_LIMITED" ...' }], isError: true }
 * ```
 * `isError` is false only for `severity: 'warning'`.
 */
export function toolError(code: Code, options: ErrorOptions & RenderOptions): CallToolResult {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('toolError(code, options) needs options with at least a message');
  }
  const { format, ...rest } = options;
  return resultOf({ ...rest, code }, format);
}

/** The JSON-RPC error kinds, for failures of the request itself. */
export type ProtocolErrorKind = wasm.ProtocolErrorKind;

/** A JSON-RPC 2.0 error object. */
export interface ProtocolError {
  code: number;
  message: string;
  data?: unknown;
}

/** The JSON-RPC error object as text; `data`, when given, is the error's JSON form. */
export function protocolErrorJson(kind: ProtocolErrorKind, message: string, data?: EnvelopeSpec): string {
  const kinds: readonly string[] = ['parse-error', 'invalid-request', 'method-not-found', 'invalid-params', 'internal-error'];
  if (!kinds.includes(kind)) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  const dataJson = data === undefined || data === null ? undefined : specJson(data);
  return refusalsAsTypeErrors(() => wasm.protocolError(kind, String(message), dataJson));
}

/**
 * A JSON-RPC error for a request that is itself wrong (unknown tool, malformed
 * params); anything a model could fix is a tool result instead.
 */
export function protocolError(kind: ProtocolErrorKind, message: string, data?: EnvelopeSpec): ProtocolError {
  return JSON.parse(protocolErrorJson(kind, message, data)) as ProtocolError;
}

/** The 17 canonical codes, in the seed's order. */
export function canonicalCodes(): string[] {
  return wasm.canonicalCodes();
}
