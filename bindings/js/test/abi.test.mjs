// src/component.ts calls the core module through the canonical ABI by hand
// (jco's bindings cost more per call than the work itself). These tests hold
// it to jco: the interface it implements is the one jco reads from the
// component, and every function gives what jco's own bindings give, value or
// refusal, for every spec, envelope and validation spec in the shared vectors
// plus strings chosen to stress the ABI (non-ASCII, astral, lone surrogates,
// a leading U+FEFF, empty, large, memory growth).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as component from '../dist/component.js';
import { instantiate } from '../generated/jco/envelope.js';

const generated = new URL('../generated/', import.meta.url);
const module = new WebAssembly.Module(readFileSync(new URL('envelope.core.wasm', generated)));
const jco = instantiate(() => module, {}).api;

// What jco reads from the component's WIT; a change here means src/component.ts must change with it.
const SIGNATURES = `export function canonicalCodes(): Array<string>;
export function codeDefaults(code: string): string | undefined;
export function render(spec: string, format: Format): string;
export function callToolResult(spec: string, format: Format): string;
export function protocolError(kind: ProtocolErrorKind, message: string, data: string | undefined): string;
export function internalErrorResult(tool: string, correlationId: string, format: Format): string;
export function renderValidation(spec: string): string;
export function validationResult(spec: string): string;
export function readEnvelope(text: string): string;
export function errorOfResult(toolResult: string): string | undefined;`;

test('src/component.ts implements the interface jco reads from the component', () => {
  const api = readFileSync(new URL('jco/interfaces/mcp-envelope-api.d.ts', generated), 'utf8');
  assert.equal(api.split('\n')[0], `/** @module Interface ${component.INTERFACE} **/`);
  assert.equal(api.split('\n').filter((line) => line.startsWith('export function')).join('\n'), SIGNATURES);
  const camel = (name) => name.replace(/-(.)/g, (_, c) => c.toUpperCase());
  assert.deepEqual(component.FUNCTIONS.map(camel), [...SIGNATURES.matchAll(/function (\w+)/g)].map((m) => m[1]));
  const types = readFileSync(new URL('jco/interfaces/mcp-envelope-types.d.ts', generated), 'utf8');
  assert.match(types, /export type Format = 'xml' \| 'json' \| 'text';/);
  assert.match(types, /export type ProtocolErrorKind = 'parse-error' \| 'invalid-request' \| 'method-not-found' \| 'invalid-params' \| 'internal-error';/);
});

/** Specs, envelopes and validation specs found anywhere in the shared vectors. */
function vectorInputs() {
  const folder = new URL('../../../vectors/', import.meta.url);
  const found = { specs: new Set(), texts: new Set(), validations: new Set() };
  const walk = (value) => {
    if (typeof value === 'string') {
      if (/<(tool|validation)_error|"content"/.test(value)) found.texts.add(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      if (typeof value.code === 'string' && 'message' in value) found.specs.add(JSON.stringify(value));
      if (typeof value.action === 'string' && ('issues' in value || 'jsonSchemaErrors' in value)) found.validations.add(JSON.stringify(value));
      Object.values(value).forEach(walk);
    }
  };
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.json') && n !== 'schema.json')) walk(JSON.parse(readFileSync(new URL(name, folder), 'utf8')));
  return found;
}

const STRINGS = ['', 'plain', 'é', 'naïve café ✓', '😀 astral', '\uFEFFleading BOM', 'lone \ud800 surrogate', 'tail surrogate \udc00',
  'x'.repeat(200_000), 'ü'.repeat(70_000), '<tool_error code="X" severity="error">\n  <message>m</message>\n</tool_error>', '{', 'null'];

/** What a call gives: its value, or the message it was refused with. */
function outcome(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { refused: String(error.payload ?? error.message) };
  }
}

function same(name, ours, theirs) {
  const a = outcome(ours);
  const b = outcome(theirs);
  assert.deepEqual(a, b, `${name} differs from jco`);
}

test('every function gives what jco\'s bindings give', () => {
  const { specs, texts, validations } = vectorInputs();
  assert.ok(specs.size > 20 && texts.size > 20 && validations.size > 10, 'too few inputs found in the vectors');
  const specInputs = [...specs, ...STRINGS.map((s) => JSON.stringify({ code: 'NOT_FOUND', message: s, details: { [s]: s } })), ...STRINGS];
  same('canonical-codes', () => component.canonicalCodes(), () => jco.canonicalCodes());
  for (const code of ['NOT_FOUND', 'RATE_LIMITED', 'CUSTOM', ...STRINGS]) same(`code-defaults ${code.slice(0, 20)}`, () => component.codeDefaults(code), () => jco.codeDefaults(code));
  for (const spec of specInputs) {
    for (const format of ['xml', 'json', 'text']) {
      same(`render ${format}`, () => component.render(spec, format), () => jco.render(spec, format));
      same(`call-tool-result ${format}`, () => component.callToolResult(spec, format), () => jco.callToolResult(spec, format));
    }
    for (const kind of ['parse-error', 'invalid-params', 'internal-error']) {
      same('protocol-error', () => component.protocolError(kind, spec, spec), () => jco.protocolError(kind, spec, spec));
      same('protocol-error without data', () => component.protocolError(kind, spec, undefined), () => jco.protocolError(kind, spec, undefined));
    }
  }
  for (const s of STRINGS) {
    same('internal-error-result', () => component.internalErrorResult(s, s, 'text'), () => jco.internalErrorResult(s, s, 'text'));
  }
  for (const spec of [...validations, ...STRINGS]) {
    same('render-validation', () => component.renderValidation(spec), () => jco.renderValidation(spec));
    same('validation-result', () => component.validationResult(spec), () => jco.validationResult(spec));
  }
  for (const text of [...texts, ...STRINGS, ...[...specs].map((s) => outcome(() => jco.callToolResult(s, 'xml')).value).filter(Boolean)]) {
    same('read-envelope', () => component.readEnvelope(text), () => jco.readEnvelope(text));
    same('error-of-result', () => component.errorOfResult(text), () => jco.errorOfResult(text));
  }
});

test('a refusal keeps the instance; a leading U+FEFF survives the trip', () => {
  assert.throws(() => component.render('{"code":"","message":"m"}', 'xml'), { name: 'TypeError', message: '"code" must not be empty' });
  assert.throws(() => component.readEnvelope('<tool_error code="X" severity="error"><message>'), SyntaxError);
  assert.match(component.render('{"code":"X","message":"\\ufeffm"}', 'json'), /"reason":"\uFEFFm"/);
  // Text that is only a BOM after lifting: jco's TextDecoder would drop it, ours keeps it.
  const reading = JSON.parse(component.readEnvelope('<tool_error code="X" severity="error">\n  <message>\uFEFF</message>\n</tool_error>'));
  assert.equal(reading.message, '\uFEFF');
});
