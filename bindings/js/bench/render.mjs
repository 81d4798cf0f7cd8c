// Measures the package: its size (JS and wasm, raw and gzip) and the per-call
// time of `render` against a hand-written pure-JS renderer of the same bytes,
// the two measured side by side in one run (interleaved rounds, best round
// of each). Run after `npm run build`: node bench/render.mjs
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseEnvelope, render, renderJson, renderValidation, toolError } from 'mcp-envelope';

const pkg = fileURLToPath(new URL('..', import.meta.url));

// ---- sizes -----------------------------------------------------------------
function files(dir, keep) {
  return readdirSync(dir, { recursive: true }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile() && keep(f));
}
function measure(paths) {
  const bytes = Buffer.concat(paths.map((p) => readFileSync(p)));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}
const isJs = (f) => f.endsWith('.js');
const sizes = {
  'hand-written API (dist/*.js)': measure(files(join(pkg, 'dist'), isJs)),
  'jco bindings (generated/envelope.js)': measure([join(pkg, 'generated', 'envelope.js')]),
  'embedded core module (generated/core-wasm.js, base64)': measure([join(pkg, 'generated', 'core-wasm.js')]),
  'core module (generated/envelope.core.wasm)': measure([join(pkg, 'generated', 'envelope.core.wasm')]),
};
sizes['what an import loads (all JS above)'] = measure([...files(join(pkg, 'dist'), isJs), join(pkg, 'generated', 'envelope.js'), join(pkg, 'generated', 'core-wasm.js')]);
sizes['edge build: JS without the base64 + the .wasm'] = {
  raw: sizes['hand-written API (dist/*.js)'].raw + sizes['jco bindings (generated/envelope.js)'].raw + sizes['core module (generated/envelope.core.wasm)'].raw,
  gzip: sizes['hand-written API (dist/*.js)'].gzip + sizes['jco bindings (generated/envelope.js)'].gzip + sizes['core module (generated/envelope.core.wasm)'].gzip,
};
console.log('size                                                     raw      gzip -9');
for (const [what, { raw, gzip }] of Object.entries(sizes)) {
  console.log(`${what.padEnd(52)} ${String(raw).padStart(8)}  ${String(gzip).padStart(8)}`);
}

// ---- a hand-written renderer of the same bytes -----------------------------
// Enough of the format for the seed example: sections in order, content
// escaping of & and <, attribute escaping of & < " tab LF CR.
const text = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/]]>/g, ']]&gt;').replace(/\r/g, '&#13;');
const attr = (s) => text(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
function renderByHand(spec) {
  let out = `<tool_error code="${attr(spec.code)}" severity="${spec.severity ?? 'error'}">\n  <message>${text(spec.message)}</message>\n`;
  out += `  <recovery>${text(spec.suggestion)}</recovery>\n`;
  if (spec.availableActions?.length) {
    out += '  <available_actions>\n';
    for (const a of spec.availableActions) out += `    <action>${text(a)}</action>\n`;
    out += '  </available_actions>\n';
  }
  const details = Object.entries(spec.details ?? {});
  if (details.length) {
    out += '  <details>\n';
    for (const [k, v] of details) out += `    <detail key="${attr(k)}">${text(String(v))}</detail>\n`;
    out += '  </details>\n';
  }
  if (spec.retryAfter !== undefined) out += `  <retry_after>${spec.retryAfter} ${spec.retryAfter === 1 ? 'second' : 'seconds'}</retry_after>\n`;
  return `${out}</tool_error>`;
}

const seed = {
  code: 'NOT_FOUND', message: 'No invoice with that ID', suggestion: 'List invoices first, then retry with a real ID',
  availableActions: ['billing.list_invoices'], details: { requestedId: 'inv_2026_9999' }, retryAfter: 30,
};
if (renderByHand(seed) !== render(seed)) throw new Error('the hand-written renderer does not give the same bytes');
const seedJson = JSON.stringify(seed);
const seedXml = render(seed);

const emailIssue = [{ path: ['id'], code: 'invalid_format', format: 'email', input: 'not-an-email' }];

// ---- timing ----------------------------------------------------------------
const candidates = {
  'pure JS, hand-written': () => renderByHand(seed),
  'render(spec)': () => render(seed),
  'renderJson(specText)': () => renderJson(seedJson),
  "toolError(code, options)": () => toolError('NOT_FOUND', seed),
  'parseEnvelope(xml)': () => parseEnvelope(seedXml),
  'renderValidation(one neutral issue)': () => renderValidation('billing.get_invoice', emailIssue),
};
const CALLS = 20_000;
const ROUNDS = 7;
const best = Object.fromEntries(Object.keys(candidates).map((k) => [k, Infinity]));
let sink = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(candidates)) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) sink += fn() ? 1 : 0;
    const perCall = Number(process.hrtime.bigint() - start) / CALLS;
    if (round > 0) best[name] = Math.min(best[name], perCall); // round 0 warms up
  }
}
if (sink === 0) throw new Error('nothing ran');
const baseline = best['pure JS, hand-written'];
console.log(`\nper call (best of ${ROUNDS - 1} rounds of ${CALLS}, Node ${process.version})   ns/call   × pure JS`);
for (const [name, ns] of Object.entries(best)) {
  console.log(`${name.padEnd(52)} ${ns.toFixed(0).padStart(8)}  ${(ns / baseline).toFixed(1).padStart(8)}`);
}

// ---- cold start: import and first call in a fresh process ------------------
const probe = `const t0 = performance.now(); const m = await import('mcp-envelope'); const t1 = performance.now();
m.render({ code: 'NOT_FOUND', message: 'x' }); const t2 = performance.now();
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1]));`;
const starts = Array.from({ length: 5 }, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: pkg, encoding: 'utf8' })));
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\ncold start (median of 5 fresh processes): import ${median(starts.map((s) => s[0])).toFixed(1)} ms, ` +
  `first render (base64 decode, compile, instantiate) ${median(starts.map((s) => s[1])).toFixed(1)} ms`);
