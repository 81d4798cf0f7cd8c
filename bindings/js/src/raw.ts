// mcp-envelope/raw: the core's exports as JSON text in, JSON text out (the
// twins of the idiomatic functions, named `...Json`), the steps the server
// toolkit and the integrations are built from, and the hooks that load the
// core module (docs/component-api.md).

export type { ErrorOutcome, ToolFailureRequest } from './types.js';
export {
  callToolResultJson,
  codeDefaultsJson,
  limitsInForceJson,
  protocolErrorJson,
  renderJson,
} from './render.js';
export { isErrorBuilder } from './builder.js';
export { decideJson } from './decide.js';
export { renderValidationJson, validationResultJson } from './validation.js';
export {
  accessErrorJson,
  answerForRevisionJson,
  emptyResultJson,
  exceptionResultJson,
  unknownToolJson,
  upstreamErrorJson,
  userErrorJson,
} from './recovery.js';
export { partialLimitsInForceJson, partialResultJson, renderPartialJson } from './partial.js';
export {
  afterTrapJson,
  handlerResultJson,
  idempotencyBeginJson,
  idempotencyFinishJson,
  idempotencyKeyJson,
  idempotencyStoreKey,
  ledgerFailureJson,
  ledgerKeyJson,
  ledgerObserveJson,
  ledgerStoreKey,
} from './state.js';
export { backoffJson } from './backoff.js';
export { hostStepJson } from './host-loop.js';
export { spanAttributesJson } from './telemetry.js';
export { contractDiffJson, contractLockJson } from './lockfile.js';
export { onTrapLog, useCoreModule } from './component.js';
