// mcp-envelope: the error envelopes MCP servers send to language models,
// rendered and read by the shared WebAssembly component so every host writes
// and reads the same bytes. The MCP SDK integration is in `mcp-envelope/mcp`.

export type {
  AccessKind,
  AccessOptions,
  CallToolResult,
  CanonicalCode,
  Category,
  Code,
  CodeDefaults,
  ContractDelta,
  DecideOptions,
  Decision,
  DetailValue,
  EmptyResultOptions,
  EnvelopeReading,
  EnvelopeSpec,
  ErrorOptions,
  ErrorOutcome,
  ExceptionOptions,
  ExceptionReport,
  Format,
  HeadersLike,
  IssueCode,
  LedgerFailureOptions,
  LedgerRequest,
  Limits,
  LimitsInForce,
  Locale,
  PartialFailure,
  PartialLimits,
  PartialLimitsInForce,
  PartialReport,
  PartialResultReading,
  PartialSpec,
  ProtocolError,
  ProtocolErrorKind,
  Reading,
  RenderOptions,
  Severity,
  TextContent,
  ToolErrorReading,
  RevisionAnswer,
  ToolFailureRequest,
  UnknownToolAnswer,
  UnknownToolAnswerKind,
  UnknownToolError,
  UnknownToolOptions,
  UpstreamFailure,
  UpstreamReport,
  ValidationErrorReading,
  ValidationField,
  ValidationIssue,
  ValidationOptions,
  ValidationReport,
} from './types.js';
export {
  callToolResultJson,
  canonicalCodes,
  codeDefaults,
  codeDefaultsJson,
  limitsInForce,
  limitsInForceJson,
  protocolError,
  protocolErrorJson,
  render,
  renderJson,
  toolError,
} from './render.js';
export { error, ErrorBuilder, isErrorBuilder } from './builder.js';
export { decide, decideJson, EnvelopeError, parseEnvelope, throwIfError } from './read.js';
export { renderValidation, renderValidationJson, toValidationIssues, validationError, validationResultJson } from './validation.js';
export {
  accessError,
  accessErrorJson,
  authRequired,
  emptyResult,
  emptyResultJson,
  exceptionResult,
  exceptionResultJson,
  forbidden,
  answerForRevision,
  answerForRevisionJson,
  unknownTool,
  unknownToolJson,
  upstreamError,
  upstreamErrorJson,
  userError,
  userErrorJson,
} from './recovery.js';
export {
  partialLimitsInForce,
  partialLimitsInForceJson,
  partialResult,
  partialResultJson,
  renderPartial,
  renderPartialJson,
} from './partial.js';
export { Ledger } from './ledger.js';
export {
  afterTrapJson,
  handlerResultJson,
  idempotencyBeginJson,
  idempotencyFinishJson,
  idempotencyKeyArgument,
  idempotencyKeyJson,
  idempotencyStoreKey,
  ledgerFailureJson,
  ledgerKeyJson,
  ledgerObserveJson,
  ledgerStoreKey,
} from './state.js';
export { Idempotency, withIdempotency } from './idempotency.js';
export { MemoryStore, SharedIdempotency, SharedLedger, StoreUnavailable } from './stores.js';
export type { SharedBegin, SharedFinish, StateStore } from './stores.js';
export type {
  IdempotencyBegin,
  IdempotencyCallOptions,
  IdempotencyFinish,
  IdempotencyOptions,
  WithIdempotencyOptions,
} from './idempotency.js';
export { backoff, backoffJson, retryWithin } from './backoff.js';
export { callToolWithRecovery, hostStep, hostStepJson } from './host-loop.js';
export { spanAttributes, spanAttributesJson } from './telemetry.js';
export type { OpenTelemetryApi } from './telemetry.js';
export type {
  Escalation,
  HostAttempt,
  HostBudget,
  HostStep,
  HostStepRequest,
  JsonRpcErrorAnswer,
  ListedTool,
  Recovered,
  RecoveryOptions,
  ToolCaller,
} from './host-loop.js';
export { contractDiff, contractDiffJson, contractLock, contractLockJson, LockedContract } from './contract.js';
export type { ToolList } from './contract.js';
export type { BackoffRequest, BackoffStep, ProgressExtra, RetryWithinOptions } from './backoff.js';
export { onTrapLog, useCoreModule } from './component.js';
