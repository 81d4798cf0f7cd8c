// mcp-envelope/server: the server toolkit around the envelopes. Recovery
// helpers for the usual failures, answers for a stale revision, the repeat
// ledger, idempotent writes and the stores that share them between replicas,
// and backoff for a flaky upstream (docs/recovery-features.md, docs/state.md).

export type {
  AccessKind,
  AccessOptions,
  EmptyResultOptions,
  ExceptionOptions,
  ExceptionReport,
  HeadersLike,
  LedgerFailureOptions,
  LedgerRequest,
  RevisionAnswer,
  UnknownToolAnswer,
  UnknownToolAnswerKind,
  UnknownToolError,
  UnknownToolOptions,
  UpstreamFailure,
  UpstreamReport,
} from './types.js';
export {
  accessError,
  answerForRevision,
  authRequired,
  emptyResult,
  exceptionResult,
  forbidden,
  unknownTool,
  upstreamError,
  userError,
} from './recovery.js';
export { Ledger } from './ledger.js';
export { idempotencyKeyArgument } from './state.js';
export { Idempotency, withIdempotency } from './idempotency.js';
export type {
  IdempotencyBegin,
  IdempotencyCallOptions,
  IdempotencyFinish,
  IdempotencyOptions,
  WithIdempotencyOptions,
} from './idempotency.js';
export { MemoryStore, SharedIdempotency, SharedLedger, StoreUnavailable } from './stores.js';
export type { SharedBegin, SharedFinish, StateStore } from './stores.js';
export { backoff, retryWithin } from './backoff.js';
export type { BackoffRequest, BackoffStep, ProgressExtra, RetryWithinOptions } from './backoff.js';
