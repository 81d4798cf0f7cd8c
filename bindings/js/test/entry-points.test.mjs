// The entry points and exactly the values each one exports, sorted: the main
// entry stays a small front, and a name that moves or appears shows up here.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const entries = {
  'mcp-envelope': [
    'EnvelopeError',
    'ErrorBuilder',
    'canonicalCodes',
    'codeDefaults',
    'error',
    'limitsInForce',
    'parseEnvelope',
    'partialLimitsInForce',
    'partialResult',
    'protocolError',
    'render',
    'renderPartial',
    'renderValidation',
    'throwIfError',
    'toValidationIssues',
    'toolError',
    'validationError',
  ],
  'mcp-envelope/server': [
    'Idempotency',
    'Ledger',
    'MemoryStore',
    'SharedIdempotency',
    'SharedLedger',
    'StoreUnavailable',
    'accessError',
    'answerForRevision',
    'authRequired',
    'backoff',
    'emptyResult',
    'exceptionResult',
    'forbidden',
    'idempotencyKeyArgument',
    'retryWithin',
    'unknownTool',
    'upstreamError',
    'userError',
    'withIdempotency',
  ],
  'mcp-envelope/agent': ['callToolWithRecovery', 'decide', 'hostStep', 'spanAttributes'],
  'mcp-envelope/contract': ['LockedContract', 'contractDiff', 'contractLock'],
  'mcp-envelope/raw': [
    'accessErrorJson',
    'afterTrapJson',
    'answerForRevisionJson',
    'backoffJson',
    'callToolResultJson',
    'codeDefaultsJson',
    'contractDiffJson',
    'contractLockJson',
    'decideJson',
    'emptyResultJson',
    'exceptionResultJson',
    'handlerResultJson',
    'hostStepJson',
    'idempotencyBeginJson',
    'idempotencyFinishJson',
    'idempotencyKeyJson',
    'idempotencyStoreKey',
    'isErrorBuilder',
    'ledgerFailureJson',
    'ledgerKeyJson',
    'ledgerObserveJson',
    'ledgerStoreKey',
    'limitsInForceJson',
    'onTrapLog',
    'partialLimitsInForceJson',
    'partialResultJson',
    'protocolErrorJson',
    'renderJson',
    'renderPartialJson',
    'renderValidationJson',
    'spanAttributesJson',
    'unknownToolJson',
    'upstreamErrorJson',
    'useCoreModule',
    'userErrorJson',
    'validationResultJson',
  ],
};

for (const [entry, names] of Object.entries(entries)) {
  test(`${entry} exports exactly its ${names.length} values`, async () => {
    assert.deepEqual(Object.keys(await import(entry)).sort(), names);
  });
}

test('no value is exported by two of these entry points', () => {
  const all = Object.values(entries).flat();
  assert.deepEqual(
    all.filter((name, i) => all.indexOf(name) !== i),
    [],
  );
});
