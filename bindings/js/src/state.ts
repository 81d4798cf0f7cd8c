// The repeat ledger's and the idempotency store's pure steps, for a host that
// keeps their records in a store of its own (docs/state.md): each step takes
// the record the store holds and answers what to send and what to store. The
// JSON requests and answers are the WIT's (`ledger-failure`, ...), unchanged.

import * as component from './component.js';
import * as full from './full-component.js';

/** The store key of `tool`'s streak in the conversation `scope` (a session id, or what the host calls a conversation). */
export const ledgerStoreKey = (scope: string, tool: string): string =>
  full.ledgerKey(JSON.stringify({ scope: String(scope), tool: String(tool) }));
/** The store key of `tool`'s idempotency key `key`. */
export const idempotencyStoreKey = (tool: string, key: string): string =>
  full.idempotencyKey(JSON.stringify({ tool: String(tool), key: String(key) }));

/** `ledger-key`: `{"scope", "tool"}` to the store key (plain text). */
export const ledgerKeyJson = (request: string): string => full.ledgerKey(String(request));
/** `ledger-failure`: `{"spec", "streak"?, "arguments"?, "stopAfter"?, "format"?}` to `{"result", "streak"?}`. */
export const ledgerFailureJson = (request: string): string => full.ledgerFailure(String(request));
/** `ledger-observe`: `{"result", "streak"?, "arguments"?, "stopAfter"?}` to `{"result"?, "streak"?}`. */
export const ledgerObserveJson = (request: string): string => full.ledgerObserve(String(request));
/** `idempotency-key`: `{"tool", "key"}` to the store key (plain text). */
export const idempotencyKeyJson = (request: string): string => full.idempotencyKey(String(request));
/** `idempotency-begin`: `{"tool", "key", "arguments", "nowMs", "stored"?, ...}` to `{"outcome", "record"?, "ttlMs"?, "result"?}`. */
export const idempotencyBeginJson = (request: string): string => full.idempotencyBegin(String(request));
/** `idempotency-finish`: `{"tool", "key", "claim", "result", "nowMs", "ttlSeconds"?}` to `{"finished", "record"?, "ttlMs"?}`. */
export const idempotencyFinishJson = (request: string): string => full.idempotencyFinish(String(request));
/** `handler-result`: `{"tool", "outcome", "format"?, "locale"?, "correlationId"?, "random"?, "arguments"?, "thrownMessages"?}` to `{"result", "ledger", "correlationId"?, "log"?}`: what a handler's outcome becomes (docs/handler-outcomes.md). */
export const handlerResultJson = (request: string): string => full.handlerResult(String(request));
/** The argument a write's idempotency key comes in when the server names no other: `idempotency_key` in every language. */
export const idempotencyKeyArgument = (): string => full.idempotencyKeyArgument();
/** `after-trap`: `{"call", "trap", "random", "format"?, "locale"?, "tool"?, "key"?}` to `{"then", "answer"?, "again"?, "log"}`: what a call that trapped answers (docs/state.md). */
export const afterTrapJson = (request: string): string => component.afterTrap(String(request));
