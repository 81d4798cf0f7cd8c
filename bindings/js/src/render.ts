// Rendering an error spec into an envelope or a CallToolResult, and the
// protocol-error object: each one call into the component.

import * as component from './component.js';
import { toJson } from './to-json.js';
import type {
  CallToolResult,
  Code,
  CodeDefaults,
  EnvelopeSpec,
  ErrorOptions,
  Format,
  Limits,
  LimitsInForce,
  Locale,
  ProtocolError,
  ProtocolErrorKind,
  RenderOptions,
} from './types.js';

export { toJson };

export function formatOf(options: RenderOptions | undefined): Format {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`options must be an object such as { format: 'json' }, not ${JSON.stringify(options)}`);
  }
  const format = options?.format ?? 'xml';
  if (format !== 'xml' && format !== 'json' && format !== 'text') {
    throw new TypeError(`format must be "xml", "json" or "text", not ${JSON.stringify(String(format))}`);
  }
  return format;
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
  return component.render(toJson(spec), formatOf(options));
}

/** `render` for a spec that is already JSON text (from a file, a queue, the CLI). */
export const renderJson = (specText: string, options?: RenderOptions): string => component.render(String(specText), formatOf(options));

/** The `CallToolResult` JSON text, byte for byte what every other host writes. */
export const callToolResultJson = (spec: EnvelopeSpec, options?: RenderOptions): string =>
  component.callToolResult(toJson(spec), formatOf(options));

/** The result object for a spec (shared by `toolError` and the builder). */
export const resultOf = (spec: EnvelopeSpec, format?: Format) => JSON.parse(callToolResultJson(spec, { format })) as CallToolResult;

/**
 * The MCP `CallToolResult` carrying one error: return it from a tool handler.
 *
 * ```ts
 * return toolError('RATE_LIMITED', { message: 'Too many lookups', retryAfter: 30 });
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

/** The JSON-RPC error object as text; `data`, when given, is the error's JSON form. */
export function protocolErrorJson(kind: ProtocolErrorKind, message: string, data?: EnvelopeSpec | null): string {
  return component.protocolError(kind, String(message), data === undefined || data === null ? undefined : toJson(data));
}

/**
 * A JSON-RPC error for a request that is itself wrong (unknown tool, malformed
 * params); anything a model could fix is a tool result instead.
 */
export function protocolError(kind: ProtocolErrorKind, message: string, data?: EnvelopeSpec | null): ProtocolError {
  return JSON.parse(protocolErrorJson(kind, message, data)) as ProtocolError;
}

/** The 17 canonical codes, in a fixed order. */
export const canonicalCodes = (): string[] => component.canonicalCodes();

/**
 * A canonical code's category, retryability and default recovery (in
 * `locale`'s catalog, English by default); `null` for a custom code.
 *
 * ```ts
 * codeDefaults('NOT_FOUND', { locale: 'pt-BR' })?.recovery;  // 'Confira o identificador: …'
 * ```
 */
export function codeDefaults(code: Code, options: { locale?: Locale } = {}): CodeDefaults | null {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object such as { locale: 'pt-BR' }, not ${JSON.stringify(options)}`);
  }
  return JSON.parse(codeDefaultsJson(toJson({ code, locale: options.locale }, 'the request'))) as CodeDefaults | null;
}

/** `codeDefaults` with the request (`{"code", "locale"?}`) as JSON text; gives JSON text (`null` for a custom code). */
export const codeDefaultsJson = (requestText: string): string => component.codeDefaults(String(requestText));

/**
 * The size caps in force for a spec's `limits` (docs/size-caps.md): every
 * key, the ones not given at the core's defaults. Throws the TypeError a spec
 * with these limits would get, so a server can check its limits at start-up.
 *
 * ```ts
 * limitsInForce({ messageChars: 300 });  // { messageChars: 300, envelopeChars: …, actions: …, details: … }
 * limitsInForce();                       // the defaults
 * ```
 */
export function limitsInForce(limits: Limits | null = null): LimitsInForce {
  return JSON.parse(limitsInForceJson(toJson(limits, 'the limits'))) as LimitsInForce;
}

/** `limitsInForce` with the limits as JSON text (`null` for the defaults); gives JSON text. */
export const limitsInForceJson = (limitsText: string): string => component.limits(String(limitsText));
