// The only module that talks to the component: jco's generated bindings
// (generated/envelope.js, `--instantiation sync`: no fetch, no fs, no
// top-level await), given the core module by `#core-module` (package.json
// "imports"): read from the .wasm file in Node, imported as a module in
// Cloudflare Workers, decoded from an embedded copy elsewhere. It turns the
// component's refusals into the wrapper's error classes, nothing more.

import { coreModule } from '#core-module';
import { instantiate } from '../generated/envelope.js';
import type { Format, ProtocolErrorKind } from './types.js';

type Api = ReturnType<typeof instantiate>['api'];
let providedModule: WebAssembly.Module | undefined;
let api: Api | undefined;

/** Uses an already compiled core module (for runtimes that forbid compiling wasm from bytes). */
export function useCoreModule(module: WebAssembly.Module): void {
  if (!(module instanceof WebAssembly.Module)) {
    throw new TypeError("useCoreModule expects a WebAssembly.Module (import the package's core.wasm)");
  }
  providedModule = module;
  api = undefined;
}

function instantiateApi(module: WebAssembly.Module): Api {
  // The component imports nothing: its one core module is all there is to instantiate.
  const instantiateCore = (core: WebAssembly.Module, imports?: Record<string, unknown>) =>
    new WebAssembly.Instance(core, imports as WebAssembly.Imports);
  return instantiate(() => module, {}, instantiateCore).api;
}

function current(): Api {
  if (api === undefined) api = instantiateApi(providedModule ?? coreModule());
  return api;
}

type Refusal = new (message: string) => Error;

/** Where the log line of a trap goes: one line, written by the core. */
let trapLog: (line: string) => void = (line) => console.error(`[mcp-envelope] ${line}`);

/** Sends the log line of each trap (written by the core's `after-trap`) to `log` instead of `console.error`. */
export function onTrapLog(log: (line: string) => void): void {
  if (typeof log !== 'function') throw new TypeError('onTrapLog expects a function taking one log line');
  trapLog = log;
}

/**
 * Host randomness as hex for a fresh correlation id (the core has no
 * randomness of its own): as many bytes as the core's id takes
 * (`CORRELATION_ID_RANDOM_BYTES`, 6), in every host.
 */
export function randomHex(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The members of a call's request that `after-trap` reads: the call's own
 * `format` argument, else the request's top-level `format`, `locale`, `tool`
 * and `key` when they are strings of at most 256 characters (a longer one
 * may be what trapped). The same rule in every host.
 */
function trapContext(request: string | undefined, format: Format | undefined): Record<string, string> {
  const context: Record<string, string> = {};
  let members: unknown;
  try {
    members = request === undefined ? undefined : JSON.parse(request);
  } catch {
    members = undefined;
  }
  if (members !== null && typeof members === 'object' && !Array.isArray(members)) {
    for (const name of ['format', 'locale', 'tool', 'key']) {
      const value = (members as Record<string, unknown>)[name];
      if (typeof value === 'string' && value.length <= 256) context[name] = value;
    }
  }
  if (format !== undefined) context.format = format;
  return context;
}

/** The component's refusal (the words of its `err`, which jco throws as `payload`); undefined for a trap. */
function refusalOf(error: unknown): string | undefined {
  const payload = (error as { payload?: unknown } | null)?.payload;
  return typeof payload === 'string' ? payload : undefined;
}

/**
 * Runs the export `name` on the current instance. The component's refusal
 * (its `err`) is thrown as `Refusal` with the component's own words, the same
 * in every host. Anything else is a trap: the instance is dropped (it held
 * nothing), and a fresh one's `after-trap` decides what the call answers
 * (docs/state.md, "After a trap"): an answer in the call's own shape, or the
 * call made once more.
 */
function call<T>(name: string, run: (api: Api) => T, Refusal: Refusal = TypeError, request?: string, format?: Format): T {
  const target = current();
  try {
    return run(target);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal !== undefined) throw new Refusal(refusal);
    if (api === target) api = undefined;
    return answerAfterTrap(name, run, Refusal, String(error), trapContext(request, format));
  }
}

function answerAfterTrap<T>(name: string, run: (api: Api) => T, Refusal: Refusal, trap: string, context: Record<string, string>): T {
  const fresh = current();
  let answer: { then: 'answer' | 'call-again'; answer?: string; again?: string; log: string };
  try {
    answer = JSON.parse(fresh.afterTrap(JSON.stringify({ call: name, trap, random: randomHex(), ...context })));
  } catch (error) {
    const refusal = refusalOf(error);
    if (api === fresh && refusal === undefined) api = undefined;
    throw new Error(`mcp-envelope: ${name} trapped (${trap}) and no answer could be made for it: ${refusal ?? String(error)}`);
  }
  try {
    trapLog(answer.log);
  } catch {
    // A failing log must not turn into a different answer.
  }
  if (answer.then === 'answer') return answer.answer as T;
  try {
    return run(fresh);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal !== undefined) throw new Refusal(refusal);
    if (api === fresh) api = undefined;
    throw new Error(answer.again);
  }
}

// Checked before the call, so a bad value is the caller's TypeError, not a
// component failure. Formats are checked once, by render.ts's `formatOf`,
// which every caller goes through.
const KINDS: readonly string[] = ['parse-error', 'invalid-request', 'method-not-found', 'invalid-params', 'internal-error'];

export const canonicalCodes = (): string[] => call('canonical-codes', (c) => c.canonicalCodes());
/** `{"category","retryable","recovery"}` of a canonical code for `{"code","locale"?}`, or `null`. */
export const codeDefaults = (request: string): string => call('code-defaults', (c) => c.codeDefaults(request), TypeError, request);
/** The full limits object in force for a partial one (`null`: the defaults), or the refusal a spec with them gets. */
export const limits = (request: string): string => call('limits', (c) => c.limits(request), TypeError, request);
export const render = (spec: string, format: Format): string => call('render', (c) => c.render(spec, format), TypeError, spec, format);
export const callToolResult = (spec: string, format: Format): string =>
  call('call-tool-result', (c) => c.callToolResult(spec, format), TypeError, spec, format);
export function protocolError(kind: ProtocolErrorKind, message: string, data: string | undefined): string {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  return call('protocol-error', (c) => c.protocolError(kind, message, data));
}
export const exceptionResult = (input: string): string => call('exception-result', (c) => c.exceptionResult(input), TypeError, input);
export const upstreamError = (input: string): string => call('upstream-error', (c) => c.upstreamError(input), TypeError, input);
export const accessError = (input: string): string => call('access-error', (c) => c.accessError(input), TypeError, input);
export const emptyResult = (input: string): string => call('empty-result', (c) => c.emptyResult(input), TypeError, input);
export const unknownTool = (input: string): string => call('unknown-tool', (c) => c.unknownTool(input), TypeError, input);
export const userError = (input: string): string => call('user-error', (c) => c.userError(input), TypeError, input);
/** The result to send for what a tool handler produced (docs/handler-outcomes.md), as JSON text. */
export const handlerResult = (request: string): string => call('handler-result', (c) => c.handlerResult(request), TypeError, request);
/** The argument a write's idempotency key comes in when the server names no other. */
export const idempotencyKeyArgument = (): string => call('idempotency-key-argument', (c) => c.idempotencyKeyArgument());
export const renderPartial = (spec: string): string => call('render-partial', (c) => c.renderPartial(spec), TypeError, spec);
export const partialResult = (spec: string): string => call('partial-result', (c) => c.partialResult(spec), TypeError, spec);
export const partialLimits = (request: string): string => call('partial-limits', (c) => c.partialLimits(request), TypeError, request);
export const renderValidation = (spec: string): string => call('render-validation', (c) => c.renderValidation(spec), TypeError, spec);
export const validationResult = (spec: string): string => call('validation-result', (c) => c.validationResult(spec), TypeError, spec);
/** The reading as JSON text; a broken envelope is refused with a SyntaxError. */
export const readEnvelope = (text: string): string => call('read-envelope', (c) => c.readEnvelope(text), SyntaxError, text);
/** The client-side outcome as JSON text; undefined when the result is not an error. */
export const errorOfResult = (toolResult: string): string | undefined =>
  call('error-of-result', (c) => c.errorOfResult(toolResult), TypeError, toolResult);
export const decide = (toolResult: string): string => call('decide', (c) => c.decide(toolResult), TypeError, toolResult);
export const answerForRevision = (request: string): string =>
  call('answer-for-revision', (c) => c.answerForRevision(request), TypeError, request);
export const hostStep = (request: string): string => call('host-step', (c) => c.hostStep(request), TypeError, request);
export const spanAttributes = (toolResult: string): string =>
  call('span-attributes', (c) => c.spanAttributes(toolResult), TypeError, toolResult);
export const backoff = (request: string): string => call('backoff', (c) => c.backoff(request), TypeError, request);
export const contractLock = (tools: string): string => call('contract-lock', (c) => c.contractLock(tools), TypeError, tools);
export const contractDiff = (request: string): string => call('contract-diff', (c) => c.contractDiff(request), TypeError, request);

// The repeat ledger's and the idempotency store's pure steps: the state is
// the caller's (ledger.ts, idempotency.ts), so a reset instance loses nothing.
export const ledgerKey = (request: string): string => call('ledger-key', (c) => c.ledgerKey(request), TypeError, request);
export const ledgerFailure = (request: string): string => call('ledger-failure', (c) => c.ledgerFailure(request), TypeError, request);
export const ledgerObserve = (request: string): string => call('ledger-observe', (c) => c.ledgerObserve(request), TypeError, request);
export const idempotencyKey = (request: string): string => call('idempotency-key', (c) => c.idempotencyKey(request), TypeError, request);
export const compareAndSetScript = (): string => call('compare-and-set-script', (c) => c.compareAndSetScript());
export const idempotencyBegin = (request: string): string =>
  call('idempotency-begin', (c) => c.idempotencyBegin(request), TypeError, request);
export const idempotencyFinish = (request: string): string =>
  call('idempotency-finish', (c) => c.idempotencyFinish(request), TypeError, request);
/** What a call that trapped answers (docs/state.md, "After a trap"): the core's decision, as JSON text. */
export const afterTrap = (request: string): string => call('after-trap', (c) => c.afterTrap(request));
