// A stand-in for the package's dist/component.js over the wasm-bindgen build
// of the core (scripts/measure-wasm-bindgen, the `full` variant, --target
// nodejs), with the same exports and the same refusal classes, so that the
// package's own wrapper (dist/*.js) and the shared vectors can run on it
// (vectors.mjs). For the measurement only: the package never loads it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.MCP_ENVELOPE_WBG_DIR;
if (!dir) throw new Error('MCP_ENVELOPE_WBG_DIR must name build/wasm-bindgen');
const wbg = createRequire(import.meta.url)(join(dir, 'full', 'nodejs', 'envelope.js'));
/** How many calls went to the wasm-bindgen build (vectors.mjs checks it is not zero). */
export const counter = { calls: 0 };

// A refusal comes as the thrown string (Result<_, String>'s Err); anything else is a trap.
function call(run, Refusal = TypeError) {
  counter.calls++;
  try {
    return run();
  } catch (error) {
    if (typeof error === 'string') throw new Refusal(error);
    throw new Error(`mcp-envelope: the component failed (${String(error)}); it has been reset`);
  }
}

const KINDS = ['parse-error', 'invalid-request', 'method-not-found', 'invalid-params', 'internal-error'];

export function useCoreModule() {
  throw new Error('useCoreModule: not part of the wasm-bindgen measurement');
}
export const canonicalCodes = () => call(() => wbg.canonicalCodes());
export const codeDefaults = (request) => call(() => wbg.codeDefaults(request));
export const limits = (request) => call(() => wbg.limits(request));
export const render = (spec, format) => call(() => wbg.render(spec, format));
export const callToolResult = (spec, format) => call(() => wbg.callToolResult(spec, format));
export function protocolError(kind, message, data) {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown protocol error kind ${JSON.stringify(String(kind))}`);
  return call(() => wbg.protocolError(kind, message, data));
}
export const exceptionResult = (input) => call(() => wbg.exceptionResult(input));
export const upstreamError = (input) => call(() => wbg.upstreamError(input));
export const accessError = (input) => call(() => wbg.accessError(input));
export const emptyResult = (input) => call(() => wbg.emptyResult(input));
export const renderPartial = (spec) => call(() => wbg.renderPartial(spec));
export const partialResult = (spec) => call(() => wbg.partialResult(spec));
export const partialLimits = (request) => call(() => wbg.partialLimits(request));
export const renderValidation = (spec) => call(() => wbg.renderValidation(spec));
export const validationResult = (spec) => call(() => wbg.validationResult(spec));
export const readEnvelope = (text) => call(() => wbg.readEnvelope(text), SyntaxError);
export const errorOfResult = (toolResult) => call(() => wbg.errorOfResult(toolResult));

export class LedgerHandle {
  #ledger;
  constructor(stopAfter) {
    this.#ledger = call(() => new wbg.Ledger(stopAfter));
  }
  #live() {
    if (this.#ledger === undefined) throw new Error('mcp-envelope: this Ledger was disposed; make a new one');
    return this.#ledger;
  }
  failure(tool, spec, args, format) {
    const ledger = this.#live();
    return call(() => ledger.failure(tool, spec, args, format));
  }
  observe(tool, result, args) {
    const ledger = this.#live();
    return call(() => ledger.observe(tool, result, args));
  }
  success(tool) {
    const ledger = this.#live();
    call(() => ledger.success(tool));
  }
  dispose() {
    const ledger = this.#ledger;
    this.#ledger = undefined;
    ledger?.free();
  }
}
