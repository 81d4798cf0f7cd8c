// Reading envelopes back on the client side: parseEnvelope, EnvelopeError and
// throwIfError.

import * as wasm from './component.js';
import type { CallToolResult, Category, ContractDelta, Code, DetailValue, ParsedEnvelope, Severity, ValidationReport } from './types.js';

/** The text a value carries: a string, or the text blocks of a CallToolResult. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && Array.isArray((value as CallToolResult).content)) {
    return (value as CallToolResult).content
      .filter((block) => block !== null && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string')
      .map((block) => block.text)
      .join('\n');
  }
  throw new TypeError('parseEnvelope expects a string or a CallToolResult');
}

function parsedOrThrow(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch (error) {
    // A broken envelope: the message says what is wrong and at which byte.
    if (error instanceof wasm.ComponentRefusal) throw new SyntaxError(error.message);
    throw error;
  }
}

function parsedOrThrowRecord(text: string): wasm.ParsedRecord | undefined {
  try {
    return wasm.parseRecord(text);
  } catch (error) {
    if (error instanceof wasm.ComponentRefusal) throw new SyntaxError(error.message);
    throw error;
  }
}

/** The spec of a parsed record: unset fields left out, set ones kept even when equal to a default. */
function specOfRecord(record: wasm.ParsedRecord): ParsedEnvelope {
  const spec: ParsedEnvelope = { code: record.code, message: record.message };
  if (record.suggestion !== undefined) spec.suggestion = record.suggestion;
  if (record.availableActions.length > 0) spec.availableActions = record.availableActions;
  if (record.details.length > 0) spec.details = Object.fromEntries(record.details.map(({ key, value }) => [key, value]));
  if (record.retryAfter !== undefined) spec.retryAfter = record.retryAfter;
  if (record.severity !== 'error') spec.severity = record.severity;
  if (record.category !== undefined) spec.category = record.category;
  if (record.retryable !== undefined) spec.retryable = record.retryable;
  if (record.customerMessage !== undefined) spec.customerMessage = record.customerMessage;
  if (record.correlationId !== undefined) spec.correlationId = record.correlationId;
  if (record.deltas.length > 0) {
    spec.deltas = record.deltas.map(({ severity, ...rest }) => ({ ...rest, severity: severity.toUpperCase() as ContractDelta['severity'] }));
  }
  return spec;
}

/** What a `<validation_error>` says, as the shared spec fields. */
function validationAsSpec(report: ValidationReport): ParsedEnvelope {
  const names = report.fields.map((field) => field.name);
  const listed = names.length > 0 ? `: ${names.join(', ')}` : '';
  return {
    code: 'VALIDATION_ERROR',
    message: `Invalid arguments for ${report.action}${listed}`,
    category: 'validation',
    retryable: true,
    validation: report,
  };
}

/**
 * The error an envelope says, or `null` when the text holds none.
 *
 * ```ts
 * parseEnvelope(result)?.code; // 'NOT_FOUND'
 * ```
 * Reads `<tool_error>` in any of its three forms, and `<validation_error>`
 * (as code `VALIDATION_ERROR` with the fields under `validation`), from a
 * string or a CallToolResult. Throws a SyntaxError, saying what and where,
 * for an envelope that is there but broken.
 */
export function parseEnvelope(textOrResult: string | CallToolResult): ParsedEnvelope | null {
  const text = textOf(textOrResult);
  const record = parsedOrThrowRecord(text);
  if (record !== undefined) return specOfRecord(record);
  const validation = parsedOrThrow(() => wasm.parseValidationSpec(text));
  return validation === undefined ? null : validationAsSpec(JSON.parse(validation) as ValidationReport);
}

/**
 * A tool's error, thrown on the client side by `throwIfError`: every field of
 * the envelope, plus `raw`, the text it was read from.
 */
export class EnvelopeError extends Error {
  readonly code: Code;
  declare readonly suggestion?: string;
  readonly availableActions: string[];
  readonly details: Record<string, DetailValue>;
  /** Contract changes the envelope lists. */
  readonly deltas: ContractDelta[];
  declare readonly retryAfter?: number;
  readonly severity: Severity;
  declare readonly category?: Category;
  declare readonly retryable?: boolean;
  declare readonly customerMessage?: string;
  declare readonly correlationId?: string;
  /** The fields and deltas, when the envelope was a `<validation_error>`. */
  declare readonly validation?: ValidationReport;
  /** The text the error was read from. */
  readonly raw: string;

  constructor(envelope: ParsedEnvelope, raw: string) {
    super(envelope.message);
    this.name = 'EnvelopeError';
    this.code = envelope.code;
    this.availableActions = [...(envelope.availableActions ?? [])];
    this.details = { ...(envelope.details ?? {}) };
    this.deltas = [...(envelope.deltas ?? [])];
    this.severity = envelope.severity ?? 'error';
    this.raw = raw;
    // Unset fields stay absent rather than undefined-valued, like the spec.
    const optional = { suggestion: envelope.suggestion, retryAfter: envelope.retryAfter, category: envelope.category,
      retryable: envelope.retryable, customerMessage: envelope.customerMessage, correlationId: envelope.correlationId,
      validation: envelope.validation };
    for (const [key, value] of Object.entries(optional)) {
      if (value !== undefined && value !== null) Object.defineProperty(this, key, { value, enumerable: true });
    }
  }

  /** The spec this error says, ready to render again. */
  toSpec(): ParsedEnvelope {
    const spec: ParsedEnvelope = { code: this.code, message: this.message };
    if (this.suggestion !== undefined) spec.suggestion = this.suggestion;
    if (this.availableActions.length > 0) spec.availableActions = [...this.availableActions];
    if (Object.keys(this.details).length > 0) spec.details = { ...this.details };
    if (this.retryAfter !== undefined) spec.retryAfter = this.retryAfter;
    if (this.severity !== 'error') spec.severity = this.severity;
    if (this.category !== undefined) spec.category = this.category;
    if (this.retryable !== undefined) spec.retryable = this.retryable;
    if (this.customerMessage !== undefined) spec.customerMessage = this.customerMessage;
    if (this.correlationId !== undefined) spec.correlationId = this.correlationId;
    if (this.deltas.length > 0) spec.deltas = [...this.deltas];
    if (this.validation !== undefined) spec.validation = this.validation;
    return spec;
  }
}

/**
 * Returns the result unchanged when it is not an error; throws an
 * EnvelopeError when `isError` is true.
 *
 * ```ts
 * const result = throwIfError(await client.callTool({ name: 'get_invoice', arguments: { id } }));
 * ```
 * A `<validation_error>` throws code `VALIDATION_ERROR` with its fields; an
 * error result without any envelope throws code `UNKNOWN` with its text as
 * the message. A warning envelope (`isError: false`) is not thrown.
 */
export function throwIfError<T extends { isError?: boolean }>(result: T): T {
  if (result === null || typeof result !== 'object') throw new TypeError('throwIfError expects a CallToolResult');
  if (result.isError !== true) return result;
  const raw = textOf(result);
  const envelope = parseEnvelope(raw);
  throw new EnvelopeError(envelope ?? { code: 'UNKNOWN', message: raw }, raw);
}
