// The shapes the public API speaks: the error spec (the CLI's JSON object),
// the MCP CallToolResult, the readings `parseEnvelope` gives and the outcome
// `throwIfError` throws (docs/component-api.md). Types only: no code.

/** The rendering: `xml` (`<tool_error>`, the default), `json` or `text`. */
export type Format = 'xml' | 'json' | 'text';

/** `error` and `critical` mark the result `isError: true`; `warning` rides on a success. */
export type Severity = 'error' | 'critical' | 'warning';

/** Which recovery branch a failure is on. */
export type Category = 'transient' | 'validation' | 'business' | 'permission' | 'internal';

/** The 17 canonical codes; any other non-empty string is a custom code. */
export type CanonicalCode =
  | 'MISSING_DISCRIMINATOR' | 'UNKNOWN_ACTION' | 'VALIDATION_ERROR' | 'MISSING_REQUIRED_FIELD'
  | 'INTERNAL_ERROR' | 'RATE_LIMITED' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT'
  | 'TIMEOUT' | 'SERVER_BUSY' | 'DEPRECATED' | 'AUTH_REQUIRED' | 'HANDOFF_UPSTREAM_UNAVAILABLE'
  | 'HANDOFF_NAMESPACE_MISMATCH' | 'HANDOFF_CONNECTING';

/** A canonical code, with autocomplete, or a custom one. */
export type Code = CanonicalCode | (string & {});

/**
 * A detail value as the spec carries it: text, a number or a boolean as
 * written, `null` as `null`, an object or array as its compact JSON (a
 * `Date` as its ISO text, a `bigint` as its digits).
 */
export type DetailValue = unknown;

/** Everything but the code: the options of `toolError(code, options)`. */
export interface ErrorOptions {
  message: string;
  suggestion?: string | null;
  availableActions?: readonly string[] | null;
  /** Shown in key order; `undefined` values are left out. */
  details?: Readonly<Record<string, DetailValue>> | null;
  /** Whole seconds; a fraction rounds up. */
  retryAfter?: number | null;
  severity?: Severity | null;
  category?: Category | null;
  retryable?: boolean | null;
  customerMessage?: string | null;
  correlationId?: string | null;
  /** Contract changes since the model learned the tool; the BREAKING and RISKY ones are shown. */
  deltas?: readonly ContractDelta[] | null;
}

/** One error, as the CLI's JSON spec: `null` or absent means not set. */
export interface EnvelopeSpec extends ErrorOptions {
  code: Code;
}

/** One text block of a tool result. */
export interface TextContent {
  type: 'text';
  text: string;
}

/**
 * The MCP `CallToolResult` an error travels in. A type alias, not an
 * interface, so it is assignable to the MCP SDK's own (index-signed) type.
 */
export type CallToolResult = {
  content: TextContent[];
  isError: boolean;
};

/** A contract change since the last known-good lockfile, shown in `<contract_awareness>`. */
export interface ContractDelta {
  /** The action it concerns; `null` or absent for a change that is tool-wide. */
  action?: string | null;
  severity: 'BREAKING' | 'RISKY' | 'SAFE' | 'COSMETIC';
  field: string;
  description: string;
  before?: string;
  after?: string;
}

/** The sent-versus-expected line of one field of a `<validation_error>`. */
export interface ValidationField {
  name: string;
  text: string;
}

/** A `<validation_error>` as read back. */
export interface ValidationReport {
  action: string;
  fields: ValidationField[];
  /** How many more fields failed than the envelope lists. */
  omittedFields?: number;
  deltas: ContractDelta[];
  /** How many more deltas apply than the envelope lists. */
  omittedDeltas?: number;
}

/** What every reading of an envelope states: the effective values, defaults filled in. */
interface ReadingCommon {
  code: Code;
  message: string;
  severity: Severity;
  /** `null` for a custom code that sets none. */
  category: Category | null;
  retryable: boolean;
  /** `null` for a custom code that sets none. */
  recovery: string | null;
}

/** A `<tool_error>` read back (any of its three forms). */
export interface ToolErrorReading extends ReadingCommon {
  kind: 'tool_error';
  /** Every field the envelope states, ready to render again. */
  error: EnvelopeSpec;
}

/** A `<validation_error>` read back: code `VALIDATION_ERROR`. */
export interface ValidationErrorReading extends ReadingCommon {
  kind: 'validation_error';
  validation: ValidationReport;
}

/** What `parseEnvelope` gives for a text that holds an envelope. */
export type EnvelopeReading = ToolErrorReading | ValidationErrorReading;

/** The component's reading of a text: an envelope, or `{ kind: 'none' }`. */
export type Reading = EnvelopeReading | { kind: 'none' };

/** What a client throws for an error result (`throwIfError`). */
export interface ErrorOutcome {
  /** The envelope's code; `UNKNOWN_ERROR` when the result holds none (or a broken one). */
  code: Code;
  /** The envelope's message; the result's text when it holds none. */
  message: string;
  reading: Reading;
  /** What is wrong with an envelope that is there but broken. */
  malformed?: string;
}

/** What kind of failure a neutral issue is (Zod 4's codes, plus `missing_required`). */
export type IssueCode =
  | 'invalid_type' | 'too_small' | 'too_big' | 'invalid_format' | 'not_multiple_of' | 'unrecognized_keys'
  | 'invalid_union' | 'invalid_key' | 'invalid_element' | 'invalid_value' | 'custom' | 'missing_required';

/** One failed check, independent of the validator that found it (docs/validation.md, "The issue model"). */
export interface ValidationIssue {
  /** Where: property names and array indices. */
  path: (string | number)[];
  code: IssueCode;
  /** The value sent; absent means: look it up in the call's arguments (not there: the field was missing). */
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
  /** The validator's own words, used only where no template fits (`custom`). */
  message?: string;
}

/** Options of `validationError` and `renderValidation`. */
export interface ValidationOptions {
  /** The call's arguments: the component looks up there the value sent for an issue that lacks it. */
  input?: unknown;
  /** Contract changes to show the model in the same turn. */
  deltas?: readonly ContractDelta[];
  /** At most this many fields are listed (20 by default). */
  maxFields?: number;
  /** At most this many deltas are listed (5 by default). */
  maxDeltas?: number;
}

/** Options of the render functions. */
export interface RenderOptions {
  /** `xml` (default), `json` or `text`. */
  format?: Format;
}

/** The JSON-RPC error kinds, for failures of the request itself. */
export type ProtocolErrorKind = 'parse-error' | 'invalid-request' | 'method-not-found' | 'invalid-params' | 'internal-error';

/** A JSON-RPC 2.0 error object. */
export interface ProtocolError {
  code: number;
  message: string;
  data?: unknown;
}

/** What the logger receives for an exception the model is not shown. */
export interface InternalFailure {
  /** The id the model was given, to find this entry. */
  correlationId: string;
  /** The tool (or action) that failed. */
  tool: string;
  /** The exception, as thrown. */
  error: unknown;
}

/** Options of `withEnvelope` and `registerTool`. */
export interface EnvelopeToolOptions {
  /** The name `<validation_error action="...">` shows (the tool's name by default). */
  action?: string;
  /** Receives every exception turned into INTERNAL_ERROR. Default: `console.error`. */
  logger?: (failure: InternalFailure) => void;
  /** The rendering of `<tool_error>` results (xml by default). */
  format?: Format;
}
