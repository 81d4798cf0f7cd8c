// The shapes the public API speaks: the error spec (the CLI's JSON object),
// the MCP CallToolResult, the readings `parseEnvelope` gives and the outcome
// `throwIfError` throws (docs/component-api.md). Types only: no code.
//
// The wire shapes the core's structs declare (the spec, limits, contract
// deltas, code defaults, the decision, the partial spec, the recovery
// helpers' options and reports, the host loop's budget and attempts, the
// readings, the string enums) are generated from the core's JSON
// Schema into generated/wire.ts by scripts/build.mjs and re-exported here
// under their public names; the rest is written here (ARCHITECTURE.md, "The
// generated types").

import type * as Wire from './generated/wire.js';

import type { ContractDelta } from './generated/wire.js';

// Shapes the package takes as the core declares them, their docs the core's.
export type {
  AccessOptions,
  CodeDefaults,
  ContractDelta,
  Decision,
  EmptyResultOptions,
  HostAttempt,
  HostBudget,
  HostEscalation,
  HostHandover,
  HostRetry,
  Limits,
  LimitsInForce,
  PartialLimits,
  PartialLimitsInForce,
  UnknownToolError,
  ValidationField,
  ValidationReport,
} from './generated/wire.js';

/** The rendering: `xml` (`<tool_error>`, the default), `json` or `text`. */
export type Format = Wire.Format;

/** `error` and `critical` mark the result `isError: true`; `warning` rides on a success. */
export type Severity = Wire.Severity;

/** Which recovery branch a failure is on. */
export type Category = Wire.Category;

/** The 17 canonical codes; any other non-empty string is a custom code. */
export type CanonicalCode = Wire.CanonicalCode;

/**
 * The catalog of words for people: `en` (the default) or `pt-BR`, spelled
 * exactly so. It also picks a canonical code's default recovery; lines that
 * steer the model stay English unless `localizeSteering` is set
 * (docs/locales.md).
 */
export type Locale = Wire.Locale;

/**
 * Asks for `_meta["io.modelcontextprotocol/toolFailure"]` on the result
 * (SEP-3313, a draft; docs/tool-failure-meta.md): `true`, or `{ now }` in
 * Unix epoch milliseconds to also get `retryNotBefore`. Needs a correlationId.
 */
export type ToolFailureRequest = Wire.ToolFailureRequest;

/** A canonical code, with autocomplete, or a custom one. */
export type Code = CanonicalCode | (string & {});

/**
 * A detail value as the spec carries it: text, a number or a boolean as
 * written, `null` as `null`, an object or array as its compact JSON (a
 * `Date` as its ISO text, a `bigint` as its digits).
 */
export type DetailValue = unknown;

/** A wire shape as a caller passes it: its lists may be readonly. */
type Input<T> = { [K in keyof T]: ReadonlyList<T[K]> };
type ReadonlyList<V> = V extends (infer Item)[] ? readonly Item[] : V;

/** Everything but the code: the options of `toolError(code, options)`. */
export interface ErrorOptions extends Input<Omit<Wire.EnvelopeSpec, 'code'>> {}

/** One error, as the CLI's JSON spec: `null` or absent means not set. */
export interface EnvelopeSpec extends ErrorOptions {
  /** A canonical code, with autocomplete, or a custom one: any non-empty string. */
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
  /** A tool's structured output, passed through (an empty result with an output schema). */
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  /** Result metadata: the ToolFailure classification when the spec asks for it. */
  _meta?: Record<string, unknown>;
};

/** A `<tool_error>` read back (any of its three forms). */
export interface ToolErrorReading extends Omit<Wire.ToolErrorReading, 'code' | 'error'> {
  /** The envelope's code: a canonical one, with autocomplete, or a custom one. */
  code: Code;
  /** Every field the envelope states, ready to render again. */
  error: EnvelopeSpec;
}

/** A `<validation_error>` read back: code `VALIDATION_ERROR`. */
export interface ValidationErrorReading extends Omit<Wire.ValidationErrorReading, 'code'> {
  /** `VALIDATION_ERROR`. */
  code: Code;
}

/** One item a partial result could not obtain. */
export interface PartialFailure extends Omit<Wire.PartialFailure, 'code'> {
  /** Its error code: a canonical one, with autocomplete, or a custom one. */
  code: Code;
}

/**
 * A partial result (docs/partial-results.md): what was obtained, what failed
 * with which code, what was already tried. The core writes the summary and
 * the severity from the lists. Its lists may be readonly; `structuredContent`
 * is left out, since `renderPartial` refuses it.
 */
export interface PartialSpec extends Input<Omit<Wire.PartialSpec, 'failed' | 'structuredContent'>> {
  /** At least one failed item: with nothing failed, the call succeeded. */
  failed: readonly PartialFailure[];
}

/** A partial result as read back: the spec as stated, each item's category and retryability filled in. */
export interface PartialReport extends Omit<Wire.PartialReport, 'failed'> {
  /** The items that failed, each with its retryability (a reading fills it in). */
  failed: (Omit<Wire.PartialReportFailure, 'code' | 'retryable'> & { code: Code; retryable: boolean })[];
}

/**
 * A `<partial_result>` read back: code `PARTIAL_RESULT`, the summary as its
 * message, severity `warning` when something was obtained (`error` when
 * nothing was), category `null`, retryable when any failed item is.
 */
export interface PartialResultReading extends Omit<Wire.PartialResultReading, 'code' | 'partial'> {
  /** `PARTIAL_RESULT`. */
  code: Code;
  /** The partial result as read back. */
  partial: PartialReport;
}

/** What `parseEnvelope` gives for a text that holds an envelope. */
export type EnvelopeReading = ToolErrorReading | ValidationErrorReading | PartialResultReading;

/** The component's reading of a text: an envelope, or `{ kind: 'none' }`. */
export type Reading = EnvelopeReading | Wire.NoReading;

/** What a client throws for an error result (`throwIfError`). */
export interface ErrorOutcome extends Omit<Wire.ErrorOutcome, 'code' | 'reading'> {
  /** The envelope's code; `UNKNOWN_ERROR` when the result holds none (or a broken one). */
  code: Code;
  reading: Reading;
}

/** What kind of failure a neutral issue is (Zod 4's codes, plus `missing_required`). */
export type IssueCode = Wire.IssueCode;

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
  /**
   * The tool's input schema as `tools/list` publishes it (the JSON Schema the
   * model read): the component words each field's "Expected …" from it, so
   * every validator gives the same line for the same schema. Passed on unchanged.
   */
  inputSchema?: Record<string, unknown>;
  /** Contract changes to show the model in the same turn. */
  deltas?: readonly ContractDelta[];
  /** At most this many fields are listed (20 by default). */
  maxFields?: number;
  /** At most this many deltas are listed (5 by default). */
  maxDeltas?: number;
  /** The catalog of the field lines (English by default). */
  locale?: Locale;
  /** With `pt-BR`: the recovery line in Portuguese too (it stays English by default). */
  localizeSteering?: boolean;
}

/** Options of the render functions. */
export interface RenderOptions {
  /** `xml` (default), `json` or `text`. */
  format?: Format;
}

/** The JSON-RPC error kinds, for failures of the request itself. */
export type ProtocolErrorKind = Wire.ProtocolErrorKind;

/** A JSON-RPC 2.0 error object. */
export interface ProtocolError {
  code: number;
  message: string;
  data?: unknown;
}

/** What the logger receives for a failure answered under a correlation id: the exception, whose text the model is not shown. */
export interface InternalFailure {
  /** The id the model was given, to find this entry. */
  correlationId: string;
  /** The tool (or action) that failed. */
  tool: string;
  /** The exception, as thrown. */
  error: unknown;
  /** The component's logfmt line: code, correlation id, tool and the exception's text (its stack) as JSON strings. */
  log: string;
}

/** Options of `withEnvelope` and `registerTool`. */
export interface EnvelopeToolOptions {
  /** The name `<validation_error action="...">` shows (the tool's name by default). */
  action?: string;
  /**
   * Receives every failure answered under a correlation id: an exception
   * turned into INTERNAL_ERROR, and a thrown value whose structure told its
   * kind (a system error, an HTTP status, a timeout). Default: `console.error`.
   */
  logger?: (failure: InternalFailure) => void;
  /** The rendering of `<tool_error>` results (xml by default). */
  format?: Format;
  /** The catalog of the words for people in the envelopes the wrapper makes (INTERNAL_ERROR, `<validation_error>`). */
  locale?: Locale;
  /**
   * The repeat ledger: every result holding a `<tool_error>` goes through it,
   * so an identical failure gets a short "nothing has changed" and a run of
   * them "stop retrying"; a success ends the streak. One ledger belongs to
   * one conversation: a `Ledger` or `SharedLedger` for every call (a server
   * made per session), or a function given each call's `LedgerRequest` that
   * returns the ledger of its conversation (undefined: none for this call),
   * such as `({ conversation }) => conversation === undefined ? undefined :
   * new SharedLedger(store, conversation)`.
   */
  ledger?: SessionLedger | ((request: LedgerRequest) => SessionLedger | undefined);
  /**
   * The contract a model learned (`new LockedContract(lockfile)`, one for the
   * server; docs/contract-diff.md): a `<validation_error>` then also tells the
   * model the tool's BREAKING and RISKY changes since. FastMCP's `addTool`
   * takes it here; the MCP SDK's servers take the lockfile in `envelopeServer`.
   */
  contract?: { deltasFor(tool: string, listTools: () => unknown): Promise<ContractDelta[]> };
  /**
   * What a thrown instance of exactly `Error` becomes (`throw new Error('Entity
   * Nobody not found')`, how a tool of the MCP SDK tells the model what went
   * wrong): `shown` (the default), TOOL_ERROR stating its message, scrubbed of
   * credentials by the core; `hidden`, INTERNAL_ERROR with the message in the
   * log line only. Subclasses (TypeError, a library's errors) are never shown;
   * a system error, an HTTP client's status or a timeout gets its own code
   * either way (docs/js-integrations.md).
   */
  thrownMessages?: 'shown' | 'hidden';
}

/** Options of `exceptionResult`. */
export interface ExceptionOptions extends Omit<Wire.ExceptionOptions, 'exception'> {
  /** Whatever was thrown: its stack (or `name: message`, or `String(x)`) goes to `log`, never into the result. */
  exception: unknown;
}

/** What `exceptionResult` gives. */
export interface ExceptionReport extends Omit<Wire.ExceptionReport, 'result'> {
  /** INTERNAL_ERROR quoting the correlation id; nothing of the exception is in it. */
  result: CallToolResult;
}

/**
 * Response headers: a fetch `Headers` (or anything with its `forEach`, such
 * as a `Map`), a plain record or `[name, value]` pairs. Values must be strings.
 */
export type HeadersLike =
  | Readonly<Record<string, string | undefined>>
  | Iterable<readonly [string, string]>
  | { forEach(callback: (value: string, name: string) => void): void };

/** An upstream HTTP failure, for `upstreamError`. */
export interface UpstreamFailure extends Omit<Wire.UpstreamFailure, 'headers' | 'now'> {
  /** Only Retry-After (for the retryable statuses), retry-after-ms, the RateLimit ones and WWW-Authenticate are read. */
  headers?: HeadersLike | null;
  /** The current time in Unix seconds, for a Retry-After date (`Date.now() / 1000` by default). */
  now?: number | null;
}

/** What `upstreamError` gives: the error to send, and what to log. */
export interface UpstreamReport extends Omit<Wire.UpstreamReport, 'error'> {
  /** The error for the model, mapped from the status. */
  error: EnvelopeSpec;
}

/** `forbidden` (not allowed) or `auth-required` (not signed in). */
export type AccessKind = Wire.AccessKind;

/** Options of `decide`. */
export interface DecideOptions {
  /** The called tool's `tools/list` entry (the SDK's `Tool`): its annotations say whether a retry is safe. */
  tool?: object;
}

/** Options of `unknownTool`: a call of a tool the server does not have (the list of tools may be readonly). */
export interface UnknownToolOptions extends Input<Wire.UnknownToolOptions> {}

/** The two ways to answer a call of a tool the server does not list. */
export type UnknownToolAnswerKind = Wire.UnknownToolAnswerKind;

/** What `unknownTool` gives: the JSON-RPC error to answer with, or the `isError` result. */
export type UnknownToolAnswer = Wire.UnknownToolErrorAnswer | { result: CallToolResult };

/** A `tools/call` answer: a result (a `CallToolResult`, or a 2026-07-28 `input_required` result) or a JSON-RPC error object. */
export type RevisionAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

/** Options of `Ledger.failure`. */
export interface LedgerFailureOptions {
  /** The call's arguments as the model sent them: they join the key (without them, only tool and code do). */
  arguments?: unknown;
  /** The envelope's form (xml by default). */
  format?: Format;
}

/**
 * What a `ledger` function is given about a call, to pick the ledger of the
 * conversation the call belongs to (docs/state.md).
 */
export interface LedgerRequest {
  /**
   * The conversation, as every language reads it: the request's `_meta` key
   * `mcp-envelope/conversation` when the client sent it (a non-empty
   * string), else the transport's session id, else undefined. The client
   * chooses it: put the caller's own identity in the scope as well when
   * clients must be kept apart.
   */
  conversation?: string;
  /** The transport's session id (`Mcp-Session-Id`): on a stateful Streamable HTTP transport only. */
  sessionId?: string;
  /** The request's `_meta`, as the client sent it (an empty object when it sent none). */
  meta: Readonly<Record<string, unknown>>;
  /** The HTTP request's headers, names in lower case: on an HTTP transport whose SDK hands them to the tool. */
  headers?: Readonly<Record<string, string>>;
  /** The SDK's own context of the call (SDK 1.x's `extra`, 2.x's `ctx`, FastMCP's `context`). */
  context: unknown;
}

/** What the MCP integration needs of a ledger: a `Ledger` or `SharedLedger` of this package (declared here, not imported, so types.ts imports nothing). */
export interface SessionLedger {
  failure(tool: string, spec: EnvelopeSpec | object, options?: { arguments?: unknown }): CallToolResult | Promise<CallToolResult>;
  observe(
    tool: string,
    result: unknown,
    options?: { arguments?: unknown },
  ): CallToolResult | undefined | Promise<CallToolResult | undefined>;
  /** Ends the tool's streak after a success that is not a result (FastMCP's content items and structured output). */
  success?(tool: string): void | Promise<void>;
}

/**
 * A Standard Schema (standardschema.dev, v1), as the spec asks to copy it:
 * what Zod, Valibot and ArkType schemas all are. Only the parts this package
 * reads are declared, so a schema of any copy of any vendor fits.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, ...options: any[]) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** The result of a Standard Schema's `validate`: the value, or the issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** A Standard Schema issue: the vendor's words and where. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/**
 * A Standard Schema that also gives its JSON Schema (the Standard JSON Schema
 * spec, `~standard.jsonSchema`): Zod 4.2 and later, ArkType 2.1.28 and later,
 * Valibot through `toStandardJsonSchema` from `@valibot/to-json-schema`.
 */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> extends StandardSchemaV1<Input, Output> {
  readonly '~standard': StandardSchemaV1<Input, Output>['~standard'] & {
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
    };
  };
}

/** The output type of a Standard Schema. */
export type InferOutput<Schema> = Schema extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly output: infer Output }
    ? Output
    : unknown
  : unknown;

/**
 * What `Idempotency.begin` answers: run the write, or send `result` instead.
 * The core's answers (generated), less a run's claim, which the store keeps.
 */
export type IdempotencyBegin =
  | Omit<Wire.IdempotencyRun, 'record' | 'ttlMs'>
  | (Omit<Wire.IdempotencyInstead, 'result'> & { result: CallToolResult });

/**
 * What `Idempotency.finish` did with an outcome: `stored`, `released` (the
 * key is free again), `absent` (no call with the key was running) or `kept`
 * (the finish step trapped, so the claim stays until it expires and the key
 * never runs twice).
 */
export type IdempotencyFinish = Wire.IdempotencyFinishAnswer['finished'];
