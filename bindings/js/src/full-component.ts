// The functions of the WIT interfaces `server`, `agent` and `contract`, run on
// the full component (jco's generated/full.js, given its core module by the
// runtime's loader, `#full-core-module`), instantiated on the first call of
// one of them; component.ts holds the envelope component and how a call is
// made, trapped and answered after a trap. Only the other entry points import
// this module, so the main entry never loads the full component's bindings.

import { coreModule as fullCoreModule } from '#full-core-module';
import { instantiate as instantiateFull } from '../generated/full.js';
import { Component, call, instantiateCore, provided } from './component.js';

type FullApi = ReturnType<typeof instantiateFull>;

// Marked pure, so a bundle that calls none of these functions drops `full`, the full bindings and the loader's module.
const full = /* @__PURE__ */ new Component<FullApi>(
  'full',
  () => instantiateFull(() => provided.full ?? fullCoreModule(), {}, instantiateCore),
  (api, request) => api.envelope.afterTrap(request),
);

export const exceptionResult = (input: string): string =>
  call(full, 'exception-result', (c) => c.server.exceptionResult(input), TypeError, input);
export const upstreamError = (input: string): string =>
  call(full, 'upstream-error', (c) => c.server.upstreamError(input), TypeError, input);
export const accessError = (input: string): string => call(full, 'access-error', (c) => c.server.accessError(input), TypeError, input);
export const emptyResult = (input: string): string => call(full, 'empty-result', (c) => c.server.emptyResult(input), TypeError, input);
export const unknownTool = (input: string): string => call(full, 'unknown-tool', (c) => c.server.unknownTool(input), TypeError, input);
export const userError = (input: string): string => call(full, 'user-error', (c) => c.server.userError(input), TypeError, input);
/** The result to send for what a tool handler produced (docs/handler-outcomes.md), as JSON text. */
export const handlerResult = (request: string): string =>
  call(full, 'handler-result', (c) => c.server.handlerResult(request), TypeError, request);
/** The argument a write's idempotency key comes in when the server names no other. */
export const idempotencyKeyArgument = (): string => call(full, 'idempotency-key-argument', (c) => c.server.idempotencyKeyArgument());
export const decide = (toolResult: string): string => call(full, 'decide', (c) => c.agent.decide(toolResult), TypeError, toolResult);
export const answerForRevision = (request: string): string =>
  call(full, 'answer-for-revision', (c) => c.server.answerForRevision(request), TypeError, request);
export const hostStep = (request: string): string => call(full, 'host-step', (c) => c.agent.hostStep(request), TypeError, request);
export const spanAttributes = (toolResult: string): string =>
  call(full, 'span-attributes', (c) => c.agent.spanAttributes(toolResult), TypeError, toolResult);
export const backoff = (request: string): string => call(full, 'backoff', (c) => c.server.backoff(request), TypeError, request);
export const contractLock = (tools: string): string => call(full, 'contract-lock', (c) => c.contract.contractLock(tools), TypeError, tools);
export const contractDiff = (request: string): string =>
  call(full, 'contract-diff', (c) => c.contract.contractDiff(request), TypeError, request);

// The repeat ledger's and the idempotency store's pure steps: the state is
// the caller's (ledger.ts, idempotency.ts), so a reset instance loses nothing.
export const ledgerKey = (request: string): string => call(full, 'ledger-key', (c) => c.server.ledgerKey(request), TypeError, request);
export const ledgerFailure = (request: string): string =>
  call(full, 'ledger-failure', (c) => c.server.ledgerFailure(request), TypeError, request);
export const ledgerObserve = (request: string): string =>
  call(full, 'ledger-observe', (c) => c.server.ledgerObserve(request), TypeError, request);
export const idempotencyKey = (request: string): string =>
  call(full, 'idempotency-key', (c) => c.server.idempotencyKey(request), TypeError, request);
export const compareAndSetScript = (): string => call(full, 'compare-and-set-script', (c) => c.server.compareAndSetScript());
export const idempotencyBegin = (request: string): string =>
  call(full, 'idempotency-begin', (c) => c.server.idempotencyBegin(request), TypeError, request);
export const idempotencyFinish = (request: string): string =>
  call(full, 'idempotency-finish', (c) => c.server.idempotencyFinish(request), TypeError, request);
