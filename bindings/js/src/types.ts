// The shapes the public API speaks: the error spec (the CLI's JSON object),
// the MCP CallToolResult, and the names of formats, severities and codes.

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

/** A detail value; the envelope shows it as text. */
export type DetailValue = string | number | boolean;

/** Everything but the code: the options of `toolError(code, options)`. */
export interface ErrorOptions {
  message: string;
  suggestion?: string | null;
  availableActions?: readonly string[] | null;
  /** Shown in key order. */
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

/** The sent-versus-expected line of one field of a `<validation_error>`. */
export interface ValidationField {
  name: string;
  text: string;
}

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

/** What a `<validation_error>` says, as `parseEnvelope` reads it back. */
export interface ValidationReport {
  action: string;
  fields: ValidationField[];
  /** How many more fields failed than the envelope lists. */
  omittedFields?: number;
  deltas: ContractDelta[];
  /** How many more deltas apply than the envelope lists. */
  omittedDeltas?: number;
}

/** A parsed envelope: the spec, plus `validation` when it was a `<validation_error>`. */
export interface ParsedEnvelope extends EnvelopeSpec {
  validation?: ValidationReport;
}
