// The JS package's benchmark, every figure next to its reference in one run:
//   per call: render (the seed spec, XML), validation (a 20-field spec) and
//     readBack (parseEnvelope of the seed envelope), inputs from
//     benches/inputs.json (the same work every host's bench times), each
//     against a hand-written pure-JS reference checked to give the same bytes
//     or object first; median of interleaved rounds;
//   cold start: a fresh `node -e` that imports the package and renders once,
//     against a bare `node -e 0`, interleaved, median of 11 runs;
//   sizes: each file the default Node entry loads and the files of a
//     Cloudflare Workers bundle (test/measure.mjs), raw and gzip -9.
// Writes {"host":"node","rows":[..]} to its first argument (default
// build/bench/node.json at the repository root), which scripts/bench collects.
// Run after `npm run build`: npm run bench [-- out.json]
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnvelope, render, renderValidation } from 'mcp-envelope';
import { bundleWorker, nodeEntryFiles, pkg, wasmCopies } from '../test/measure.mjs';

const out = process.argv[2] ?? fileURLToPath(new URL('../../../build/bench/node.json', import.meta.url));
const inputs = JSON.parse(readFileSync(new URL('../../../benches/inputs.json', import.meta.url), 'utf8'));

// ---- the pure-JS references: enough of each format for these inputs --------
// Escaping as a correct port must do it for any string (README, "XML"), one
// pass each: content escapes & < CR and the > of ]]>, attributes also " tab
// LF; characters XML 1.0 forbids become U+FFFD.
const ESCAPES = { '&': '&amp;', '<': '&lt;', ']]>': ']]&gt;', '\r': '&#13;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;' };
const escapeOf = (m) => ESCAPES[m] ?? '\ufffd';
const CONTENT = /[&<\r\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|]]>/g;
const ATTRIBUTE = /[&<"\t\n\r\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|]]>/g;
const text = (s) => s.replace(CONTENT, escapeOf);
const attr = (s) => s.replace(ATTRIBUTE, escapeOf);
const UNESCAPES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#9;': '\t', '&#10;': '\n', '&#13;': '\r' };
const unescape = (s) => s.replace(/&(?:amp|lt|gt|quot|#9|#10|#13);/g, (m) => UNESCAPES[m]);

function renderByHand(spec) {
  let xml = `<tool_error code="${attr(spec.code)}" severity="${spec.severity ?? 'error'}">\n  <message>${text(spec.message)}</message>\n`;
  xml += `  <recovery>${text(spec.suggestion)}</recovery>\n  <available_actions>\n`;
  for (const action of spec.availableActions) xml += `    <action>${text(action)}</action>\n`;
  xml += '  </available_actions>\n  <details>\n';
  for (const key in spec.details) xml += `    <detail key="${attr(key)}">${text(String(spec.details[key]))}</detail>\n`;
  return `${xml}  </details>\n  <retry_after>${spec.retryAfter} seconds</retry_after>\n</tool_error>`;
}

function validationByHand(action, issues) {
  let xml = `<validation_error action="${attr(action)}">\n`;
  for (const { path, format, input } of issues) {
    let name = '';
    for (const segment of path) name += typeof segment === 'number' ? `[${segment}]` : name === '' ? segment : `.${segment}`;
    xml += `  <field name="${attr(name)}">Invalid ${format} format. You sent: '${text(input)}'. Expected a valid email address.</field>\n`;
  }
  return `${xml}  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>`;
}

const ROOT = /<tool_error code="([^"]*)" severity="([^"]*)">/;
const MESSAGE = /<message>([^<]*)<\/message>/;
const RECOVERY = /<recovery>([^<]*)<\/recovery>/;
const ACTION = /<action>([^<]*)<\/action>/g;
const DETAIL = /<detail key="([^"]*)">([^<]*)<\/detail>/g;
const RETRY = /<retry_after>(\d+) seconds?<\/retry_after>/;
const DEFAULTS = { NOT_FOUND: { category: 'business', retryable: false } };

function readBackByHand(xml) {
  const [, code, severity] = ROOT.exec(xml);
  const message = unescape(MESSAGE.exec(xml)[1]);
  const recovery = unescape(RECOVERY.exec(xml)[1]);
  const details = {};
  for (const [, key, value] of xml.matchAll(DETAIL)) details[unescape(key)] = unescape(value);
  const error = {
    code,
    message,
    suggestion: recovery,
    availableActions: Array.from(xml.matchAll(ACTION), (m) => unescape(m[1])),
    details,
    retryAfter: Number(RETRY.exec(xml)[1]),
  };
  return { kind: 'tool_error', code, message, severity, ...DEFAULTS[code], recovery, error };
}

const { action, issues } = inputs.validation;
const cases = [
  {
    name: 'render',
    candidate: () => render(inputs.render),
    reference: () => renderByHand(inputs.render),
    referenceName: 'pure-JS renderer',
  },
  {
    name: 'validation',
    candidate: () => renderValidation(action, issues),
    reference: () => validationByHand(action, issues),
    referenceName: 'pure-JS formatter',
  },
  {
    name: 'readBack',
    candidate: () => parseEnvelope(inputs.readBack),
    reference: () => readBackByHand(inputs.readBack),
    referenceName: 'pure-JS regex reader',
  },
];
for (const c of cases) assert.deepStrictEqual(c.reference(), c.candidate(), `the ${c.name} reference does not give what the package gives`);

// ---- per call ----------------------------------------------------------------
let sink = 0;
const consume = (value) => {
  sink += typeof value === 'string' ? value.length : value.code.length;
};
function perCall(fn, calls) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) consume(fn());
  return Number(process.hrtime.bigint() - start) / calls / 1000; // µs
}
/** Calls per batch so that one batch takes about 20 ms, measured after a warm-up. */
function batchSize(fn) {
  perCall(fn, 2000);
  const start = process.hrtime.bigint();
  let calls = 0;
  while (Number(process.hrtime.bigint() - start) < 20e6) calls += (consume(fn()), 1);
  return calls;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ROUNDS = 11;
const rows = [];
for (const c of cases) {
  const sizes = { candidate: batchSize(c.candidate), reference: batchSize(c.reference) };
  const times = { candidate: [], reference: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first cancels drift (GC, tiering, other load) between the two.
    for (const which of round % 2 ? ['reference', 'candidate'] : ['candidate', 'reference'])
      times[which].push(perCall(c[which], sizes[which]));
  }
  rows.push({
    table: 'per-call',
    case: c.name,
    value: round2(median(times.candidate)),
    unit: 'µs',
    reference: round2(median(times.reference)),
    referenceName: c.referenceName,
  });
}
if (sink === 0) throw new Error('nothing ran');

// ---- cold start --------------------------------------------------------------
const probe = `import('mcp-envelope').then((m) => { m.render(${JSON.stringify(inputs.render)}); })`;
function wallMs(args) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { cwd: pkg, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const cold = { probe: [], bare: [] };
for (let run = 0; run < 11; run++) {
  cold.bare.push(wallMs(['-e', '0']));
  cold.probe.push(wallMs(['-e', probe]));
}
rows.push({
  table: 'cold-start',
  case: 'import + first render',
  value: round2(median(cold.probe)),
  unit: 'ms',
  reference: round2(median(cold.bare)),
  referenceName: 'bare node',
});

// ---- sizes -------------------------------------------------------------------
const loaded = nodeEntryFiles();
for (const { file, raw, gzip } of loaded) rows.push({ table: 'size', case: file, value: raw, unit: 'bytes', gzip });
rows.push({ table: 'size', case: 'default Node entry, all files', value: sum(loaded, 'raw'), unit: 'bytes', gzip: sum(loaded, 'gzip') });
const work = mkdtempSync(join(tmpdir(), 'mcp-envelope-bench-'));
try {
  const bundle = await bundleWorker(work);
  for (const { file, raw, gzip } of bundle) rows.push({ table: 'size', case: `Workers bundle: ${file}`, value: raw, unit: 'bytes', gzip });
  rows.push({ table: 'size', case: 'Workers bundle: copies of the wasm', value: wasmCopies(bundle), unit: 'copies' });
} finally {
  rmSync(work, { recursive: true, force: true });
}

function round2(x) {
  return Math.round(x * 100) / 100;
}
function sum(items, key) {
  return items.reduce((total, item) => total + item[key], 0);
}

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ host: 'node', rows }, null, 2)}\n`);
console.log(`Node ${process.version}, ${ROUNDS} interleaved rounds per case; written to ${out}`);
for (const row of rows) {
  const vs =
    row.reference === undefined
      ? row.gzip === undefined
        ? ''
        : `  gzip -9 ${row.gzip}`
      : `  vs ${row.reference} ${row.unit} (${row.referenceName}): ${(row.value / row.reference).toFixed(2)}×`;
  console.log(`${row.table.padEnd(10)} ${row.case.padEnd(44)} ${String(row.value).padStart(9)} ${row.unit}${vs}`);
}
