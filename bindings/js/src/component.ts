// With full-component.ts, the only modules that talk to the components:
// jco's generated bindings (generated/envelope.js and generated/full.js,
// `--instantiation sync`: no fetch, no fs, no top-level await), each given
// its core module by the runtime's loader (package.json "imports":
// `#core-module` for the envelope component, `#full-core-module` for the full
// one): read from the .wasm file in Node, imported as a module in Cloudflare
// Workers, decoded from an embedded copy elsewhere. The functions of the WIT
// interface `envelope` (the main entry's) run on the envelope component,
// here; those of `server`, `agent` and `contract` on the full component
// (full-component.ts), instantiated on the first call of one of them. The
// main entry imports only this module, so its user never loads, nor even
// parses, the full component's bindings. They turn the components' refusals
// into the wrapper's error classes, nothing more.

import { coreModule as envelopeCoreModule } from '#core-module';
import { instantiate as instantiateEnvelope } from '../generated/envelope.js';
import type { Format, ProtocolErrorKind } from './types.js';

type EnvelopeApi = ReturnType<typeof instantiateEnvelope>['envelope'];

// The components import nothing: a core module is all there is to instantiate.
export const instantiateCore = (core: WebAssembly.Module, imports?: Record<string, unknown>) =>
  new WebAssembly.Instance(core, imports as WebAssembly.Imports);

/** The core modules handed over by `useCoreModule`, by component. */
export const provided: { envelope?: WebAssembly.Module; full?: WebAssembly.Module } = {};
/**
 * How many times `useCoreModule` handed over a module each component uses:
 * an instance made before the last one is made again.
 */
const handovers = { envelope: 0, full: 0 };

/**
 * One component's instance, made on first use and dropped after a trap (it
 * held nothing) or when `useCoreModule` hands over a module it uses;
 * `afterTrap` is its own export of `after-trap`, which both components have.
 */
export class Component<Api> {
  private instance: Api | undefined;
  private madeAfter = 0;
  constructor(
    private readonly which: 'envelope' | 'full',
    private readonly make: () => Api,
    readonly afterTrap: (api: Api, request: string) => string,
  ) {}
  current(): Api {
    if (this.instance === undefined || this.madeAfter !== handovers[this.which]) {
      this.madeAfter = handovers[this.which];
      this.instance = this.make();
    }
    return this.instance;
  }
  /** Drops `instance` if it is still the current one. */
  drop(instance: Api): void {
    if (this.instance === instance) this.instance = undefined;
  }
}

// The full core module exports the envelope interface under the same names,
// so a full module handed over serves the envelope functions too unless an
// envelope module was handed over as well.
const envelope = /* @__PURE__ */ new Component<EnvelopeApi>(
  'envelope',
  () => instantiateEnvelope(() => provided.envelope ?? provided.full ?? envelopeCoreModule(), {}, instantiateCore).envelope,
  (api, request) => api.afterTrap(request),
);

/** Which component a core module belongs to, by its exports; undefined for any other module. */
function componentOf(module: WebAssembly.Module): 'envelope' | 'full' | undefined {
  const names = WebAssembly.Module.exports(module).map((e) => e.name);
  if (names.some((name) => name.startsWith('mcp:envelope/server@'))) return 'full';
  if (names.some((name) => name.startsWith('mcp:envelope/envelope@'))) return 'envelope';
  return undefined;
}

/**
 * Uses an already compiled core module (for runtimes that forbid compiling
 * wasm from bytes): the package's `core.wasm` (the envelope component) or
 * `full.core.wasm` (the full one, which serves the envelope functions too
 * when no `core.wasm` is handed over).
 */
export function useCoreModule(module: WebAssembly.Module): void {
  const which = module instanceof WebAssembly.Module ? componentOf(module) : undefined;
  if (which === undefined) {
    throw new TypeError("useCoreModule expects a WebAssembly.Module (import the package's core.wasm or full.core.wasm)");
  }
  provided[which] = module;
  handovers.envelope++;
  if (which === 'full') handovers.full++;
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
 * Runs the export `name` on the current instance of `component`. The
 * component's refusal (its `err`) is thrown as `Refusal` with the component's
 * own words, the same in every host. Anything else is a trap: the instance is
 * dropped (it held nothing), and a fresh one's `after-trap` decides what the
 * call answers (docs/state.md, "After a trap"): an answer in the call's own
 * shape, or the call made once more.
 */
export function call<Api, T>(
  component: Component<Api>,
  name: string,
  run: (api: Api) => T,
  Refusal: Refusal = TypeError,
  request?: string,
  format?: Format,
): T {
  const target = component.current();
  try {
    return run(target);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal !== undefined) throw new Refusal(refusal);
    component.drop(target);
    return answerAfterTrap(component, name, run, Refusal, String(error), trapContext(request, format));
  }
}

function answerAfterTrap<Api, T>(
  component: Component<Api>,
  name: string,
  run: (api: Api) => T,
  Refusal: Refusal,
  trap: string,
  context: Record<string, string>,
): T {
  const fresh = component.current();
  let answer: { then: 'answer' | 'call-again'; answer?: string; again?: string; log: string };
  try {
    answer = JSON.parse(component.afterTrap(fresh, JSON.stringify({ call: name, trap, random: randomHex(), ...context })));
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === undefined) component.drop(fresh);
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
    component.drop(fresh);
    throw new Error(answer.again);
  }
}

// Checked before the call, so a bad value is the caller's TypeError, not a
// component failure. Formats are checked once, by render.ts's `formatOf`,
// which every caller goes through.
const KINDS: readonly string[] = ['parse-error', 'invalid-request', 'method-not-found', 'invalid-params', 'internal-error'];

export const canonicalCodes = (): string[] => call(envelope, 'canonical-codes', (c) => c.canonicalCodes());
/** `{"category","retryable","recovery"}` of a canonical code for `{"code","locale"?}`, or `null`. */
export const codeDefaults = (request: string): string =>
  call(envelope, 'code-defaults', (c) => c.codeDefaults(request), TypeError, request);
/** The full limits object in force for a partial one (`null`: the defaults), or the refusal a spec with them gets. */
export const limits = (request: string): string => call(envelope, 'limits', (c) => c.limits(request), TypeError, request);
export const render = (spec: string, format: Format): string =>
  call(envelope, 'render', (c) => c.render(spec, format), TypeError, spec, format);
export const callToolResult = (spec: string, format: Format): string =>
  call(envelope, 'call-tool-result', (c) => c.callToolResult(spec, format), TypeError, spec, format);
export function protocolError(kind: ProtocolErrorKind, message: string, data: string | undefined): string {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  return call(envelope, 'protocol-error', (c) => c.protocolError(kind, message, data));
}
export const renderPartial = (spec: string): string => call(envelope, 'render-partial', (c) => c.renderPartial(spec), TypeError, spec);
export const partialResult = (spec: string): string => call(envelope, 'partial-result', (c) => c.partialResult(spec), TypeError, spec);
export const partialLimits = (request: string): string =>
  call(envelope, 'partial-limits', (c) => c.partialLimits(request), TypeError, request);
export const renderValidation = (spec: string): string =>
  call(envelope, 'render-validation', (c) => c.renderValidation(spec), TypeError, spec);
export const validationResult = (spec: string): string =>
  call(envelope, 'validation-result', (c) => c.validationResult(spec), TypeError, spec);
/** The reading as JSON text; a broken envelope is refused with a SyntaxError. */
export const readEnvelope = (text: string): string => call(envelope, 'read-envelope', (c) => c.readEnvelope(text), SyntaxError, text);
/** The client-side outcome as JSON text; undefined when the result is not an error. */
export const errorOfResult = (toolResult: string): string | undefined =>
  call(envelope, 'error-of-result', (c) => c.errorOfResult(toolResult), TypeError, toolResult);
/** What a call that trapped answers (docs/state.md, "After a trap"): the core's decision, as JSON text. */
export const afterTrap = (request: string): string => call(envelope, 'after-trap', (c) => c.afterTrap(request));
