// wasm-bindgen beside jco: the same core built with
// wasm-bindgen (scripts/measure-wasm-bindgen, under build/wasm-bindgen) and
// the package's jco bindings, measured side by side in one run:
//   four builds: the package (jco), the control (the package built from the
//     component's core module linked as a dependency, as wasm-bindgen links
//     it: see the script), and wasm-bindgen with the three calls and with the
//     whole API;
//   sizes: the core module and the generated JS glue, raw and gzip -9, as
//     emitted and minified;
//   per call: render, validation and readBack on benches/inputs.json (the
//     work every host's bench times), each at the string boundary a
//     wasm-bindgen package would swap (the package's dist/component.js for
//     jco), every wasm-bindgen call first checked to give the jco call's
//     bytes (and refusals the same words); bench.mjs's timing: batches of
//     about 20 ms, median of 11 interleaved rounds;
//   cold start: a fresh `node -e` importing the glue and rendering once,
//     beside a bare `node -e 0`, interleaved, median of 11 runs;
//   Workers: a worker rendering the same spec, bundled as wrangler bundles it
//     (test/measure.mjs) and served once by the pinned workerd.
// Prints a Markdown table and writes it (and the figures as JSON) to the
// build folder. Run by scripts/measure-wasm-bindgen, or after it:
//   node bench/wasm-bindgen.mjs [../../build/wasm-bindgen]
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { render, renderValidation, toValidationIssues } from 'mcp-envelope';
import * as jco from '../dist/component.js';
import { bundleWorker, pkg, serveWorker, sizeOf, wasmCopies } from '../test/measure.mjs';

const dir = resolve(process.argv[2] ?? join(pkg, '..', '..', 'build', 'wasm-bindgen'));
const inputs = JSON.parse(readFileSync(join(pkg, '..', '..', 'benches', 'inputs.json'), 'utf8'));
const controlPkg = join(dir, 'control', 'root', 'bindings', 'js');
const files = {
  jcoWasm: join(pkg, 'generated', 'envelope.core.wasm'),
  jcoGlue: join(pkg, 'generated', 'envelope.js'),
  jcoBoundary: join(pkg, 'dist', 'component.js'),
  controlWasm: join(controlPkg, 'generated', 'envelope.core.wasm'),
  controlGlue: join(controlPkg, 'generated', 'envelope.js'),
  controlBoundary: join(controlPkg, 'dist', 'component.js'),
  wasm: (v, target = 'nodejs') => join(dir, v, target, 'envelope_bg.wasm'),
  glue: (v, target = 'nodejs') => join(dir, v, target, 'envelope.js'),
};
for (const path of [files.jcoWasm, files.controlBoundary, files.glue('three'), files.glue('full', 'web')]) {
  if (!existsSync(path)) throw new Error(`${path} is missing: run scripts/measure-wasm-bindgen (and the package's npm run build)`);
}

// ---- the three calls, at the string boundary -----------------------------------
const VARIANTS = ['three', 'full'];
const LABEL = {
  jco: 'jco (the package)',
  control: 'jco, core linked as a dependency',
  three: 'wasm-bindgen, the 3 calls',
  full: 'wasm-bindgen, whole API',
};
const require = createRequire(import.meta.url);
// As dist/component.js does for jco: a refusal (here the thrown string) becomes the package's error class.
function boundaryOf(module) {
  const call = (run, Refusal = TypeError) => {
    try {
      return run();
    } catch (error) {
      if (typeof error === 'string') throw new Refusal(error);
      throw error;
    }
  };
  return {
    render: (spec, format) => call(() => module.render(spec, format)),
    renderValidation: (spec) => call(() => module.renderValidation(spec)),
    readEnvelope: (text) => call(() => module.readEnvelope(text), SyntaxError),
  };
}
const control = await import(pathToFileURL(files.controlBoundary).href);
const impls = { jco, control, ...Object.fromEntries(VARIANTS.map((v) => [v, boundaryOf(require(files.glue(v)))])) };

// The strings the package's public API hands its boundary for these inputs.
const renderSpec = JSON.stringify(inputs.render);
const { action, issues } = inputs.validation;
const validationSpec = JSON.stringify({ action, issues: toValidationIssues(issues) });
assert.equal(jco.render(renderSpec, 'xml'), render(inputs.render), 'the render spec is not the one the package sends');
assert.equal(
  jco.renderValidation(validationSpec),
  renderValidation(action, issues),
  'the validation spec is not the one the package sends',
);

const cases = [
  { name: 'render', run: (api) => api.render(renderSpec, 'xml') },
  { name: 'validation', run: (api) => api.renderValidation(validationSpec) },
  { name: 'readBack', run: (api) => api.readEnvelope(inputs.readBack) },
];
// Same bytes first, and the same refusals.
const refusals = [
  (api) => api.render('{"code":"NOT_FOUND","message":5}', 'xml'),
  (api) => api.render('{"code":', 'json'),
  (api) => api.renderValidation('{"action":"x"}'),
  (api) => api.readEnvelope('<tool_error code="NOT_FOUND" severity="error">\n  <message>cut'),
];
const refusalOf = (fn) => {
  try {
    fn();
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
  return 'no refusal';
};
for (const v of ['control', ...VARIANTS]) {
  for (const c of cases) assert.equal(c.run(impls[v]), c.run(jco), `${LABEL[v]}: ${c.name} gives other bytes than jco`);
  for (const r of refusals)
    assert.equal(
      refusalOf(() => r(impls[v])),
      refusalOf(() => r(jco)),
      `${LABEL[v]}: another refusal than jco's`,
    );
}
assert.ok(
  refusals.every((r) => refusalOf(() => r(jco)) !== 'no refusal'),
  'a refusal case is not refused',
);

// ---- per call (bench.mjs's timing) ----------------------------------------------
let sink = 0;
function perCall(fn, calls) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += fn().length;
  return Number(process.hrtime.bigint() - start) / calls / 1000; // µs
}
function batchSize(fn) {
  perCall(fn, 2000);
  const start = process.hrtime.bigint();
  let calls = 0;
  while (Number(process.hrtime.bigint() - start) < 20e6) calls += ((sink += fn().length), 1);
  return calls;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ROUNDS = 11;
const NAMES = ['jco', 'control', ...VARIANTS];
const rotated = (round) => NAMES.map((_, i) => NAMES[(i + round) % NAMES.length]);
const figures = { perCall: {}, cold: {}, size: {}, workers: {} };
for (const c of cases) {
  const fns = Object.fromEntries(NAMES.map((n) => [n, () => c.run(impls[n])]));
  const sizes = Object.fromEntries(NAMES.map((n) => [n, batchSize(fns[n])]));
  const times = Object.fromEntries(NAMES.map((n) => [n, []]));
  // Rotating which goes first cancels drift (GC, tiering, other load) between them.
  for (let round = 0; round < ROUNDS; round++) for (const n of rotated(round)) times[n].push(perCall(fns[n], sizes[n]));
  figures.perCall[c.name] = Object.fromEntries(NAMES.map((n) => [n, median(times[n])]));
}
if (sink === 0) throw new Error('nothing ran');

// ---- cold start ------------------------------------------------------------------
// import() for each, as an ESM package would load its glue; the wasm-bindgen
// nodejs glue is CommonJS, which import() loads too. Each probe also prints
// how long its import and first render took inside the process.
const timed = (load, fn) =>
  `const t0 = performance.now(); ${load}.then((m) => { ${fn}; process.stdout.write(String(performance.now() - t0)); })`;
const probe = (path, fn) => timed(`import(${JSON.stringify(pathToFileURL(path).href)})`, fn);
const probes = {
  bare: ['-e', 'process.stdout.write("0")'],
  package: ['-e', timed("import('mcp-envelope')", `m.render(${JSON.stringify(inputs.render)})`)],
  jco: ['-e', probe(files.jcoBoundary, `m.render(${JSON.stringify(renderSpec)}, 'xml')`)],
  control: ['-e', probe(files.controlBoundary, `m.render(${JSON.stringify(renderSpec)}, 'xml')`)],
  ...Object.fromEntries(
    VARIANTS.map((v) => [v, ['-e', probe(files.glue(v), `(m.render ?? m.default.render)(${JSON.stringify(renderSpec)}, 'xml')`)]]),
  ),
};
function coldRun(args) {
  const start = process.hrtime.bigint();
  const inside = Number(execFileSync(process.execPath, args, { cwd: pkg, encoding: 'utf8' }));
  return { wall: Number(process.hrtime.bigint() - start) / 1e6, inside };
}
const COLD_RUNS = 21;
const coldTimes = Object.fromEntries(Object.keys(probes).map((k) => [k, { wall: [], inside: [] }]));
for (let run = 0; run < COLD_RUNS; run++) {
  const keys = Object.keys(probes);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[(i + run) % keys.length];
    const { wall, inside } = coldRun(probes[k]);
    coldTimes[k].wall.push(wall);
    coldTimes[k].inside.push(inside);
  }
}
for (const k of Object.keys(probes)) figures.cold[k] = { wall: median(coldTimes[k].wall), inside: median(coldTimes[k].inside) };

// ---- sizes -------------------------------------------------------------------------
async function minified(path) {
  const { code } = await transform(readFileSync(path, 'utf8'), { minify: true, loader: 'js' });
  return { raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
}
figures.size.wasm = {
  jco: sizeOf(files.jcoWasm),
  control: sizeOf(files.controlWasm),
  ...Object.fromEntries(VARIANTS.map((v) => [v, sizeOf(files.wasm(v))])),
};
figures.size.glue = {
  jco: sizeOf(files.jcoGlue),
  control: sizeOf(files.controlGlue),
  ...Object.fromEntries(VARIANTS.map((v) => [v, sizeOf(files.glue(v))])),
};
figures.size.glueMin = {
  jco: await minified(files.jcoGlue),
  control: await minified(files.controlGlue),
  ...Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, await minified(files.glue(v))]))),
};
for (const v of VARIANTS) {
  assert.equal(sizeOf(files.wasm(v, 'web')).raw, figures.size.wasm[v].raw, `${v}: the web and nodejs wasm differ in size`);
}

// ---- Workers bundles, served by workerd ---------------------------------------------
const expected = jco.render(renderSpec, 'xml');
const respond = (expr) => `new Response(${expr}, { headers: { 'content-type': 'text/plain; charset=utf-8' } })`;
const workers = {
  // The package as users bundle it: its whole render path (test/measure.mjs's worker, this spec).
  package: () => `import { render } from 'mcp-envelope';
const spec = ${JSON.stringify(inputs.render)};
export default { fetch: () => ${respond('render(spec)')} };
`,
  // The boundary alone: dist/component.js, its Workers loader and jco's bindings.
  jco: () => `import { render } from ${JSON.stringify(files.jcoBoundary)};
const spec = ${JSON.stringify(renderSpec)};
export default { fetch: () => ${respond("render(spec, 'xml')")} };
`,
  control: () => `import { render } from ${JSON.stringify(files.controlBoundary)};
const spec = ${JSON.stringify(renderSpec)};
export default { fetch: () => ${respond("render(spec, 'xml')")} };
`,
  // wasm-bindgen's web glue, given the module wrangler imports (Workers cannot compile bytes).
  ...Object.fromEntries(
    VARIANTS.map((v) => [
      v,
      (work) => `import module from ${JSON.stringify(relative(work, files.wasm(v, 'web')))};
import { initSync, render } from ${JSON.stringify(files.glue(v, 'web'))};
const spec = ${JSON.stringify(renderSpec)};
let ready = false;
export default {
  fetch() {
    if (!ready) { initSync({ module }); ready = true; }
    return ${respond("render(spec, 'xml')")};
  },
};
`,
    ]),
  ),
};

for (const [name, source] of Object.entries(workers)) {
  const work = mkdtempSync(join(tmpdir(), 'mcp-envelope-wbg-'));
  try {
    const bundle = await bundleWorker(work, source(work));
    const wasm = bundle.filter((f) => f.file.endsWith('.wasm'));
    const js = bundle.filter((f) => !f.file.endsWith('.wasm'));
    const core = readFileSync({ package: files.jcoWasm, jco: files.jcoWasm, control: files.controlWasm }[name] ?? files.wasm(name, 'web'));
    assert.equal(wasm.length, 1, `${name}: the bundle has ${wasm.length} .wasm modules`);
    assert.equal(wasmCopies(bundle, core), 1, `${name}: the bundle does not hold the wasm exactly once`);
    const { status, body, log } = await serveWorker(join(work, 'out'), bundle);
    if (status !== 200) throw new Error(`workerd answered ${status}: ${body}\n${log}`);
    assert.equal(body, expected, `${name}: workerd answered other bytes than the package renders`);
    const sum = (key) => bundle.reduce((total, f) => total + f[key], 0);
    figures.workers[name] = {
      js: { raw: js[0].raw, gzip: js[0].gzip },
      wasm: { raw: wasm[0].raw, gzip: wasm[0].gzip },
      total: { raw: sum('raw'), gzip: sum('gzip') },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- the table ---------------------------------------------------------------------------
const n = (x) => Math.round(x).toLocaleString('en-US');
const us = (x) => x.toFixed(2);
const ms = (x) => x.toFixed(1);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const lines = [];
const row = (label, values, format) => {
  const cells = [format(values.jco)];
  for (const v of ['control', ...VARIANTS]) cells.push(format(values[v]), ratio(values[v], values.jco));
  cells.push(ratio(values.full, values.control));
  lines.push(`| ${label} | ${cells.join(' | ')} |`);
};
const pick = (object, key) => Object.fromEntries(Object.entries(object).map(([k, value]) => [k, value[key]]));
lines.push(
  `| | ${LABEL.jco} | ${LABEL.control} | ÷ jco | ${LABEL.three} | ÷ jco | ${LABEL.full} | ÷ jco | whole API ÷ control |`,
  '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
);
row('core module, raw (bytes)', pick(figures.size.wasm, 'raw'), n);
row('core module, gzip -9', pick(figures.size.wasm, 'gzip'), n);
row('generated JS glue as emitted, raw', pick(figures.size.glue, 'raw'), n);
row('generated JS glue as emitted, gzip -9', pick(figures.size.glue, 'gzip'), n);
row('generated JS glue minified (esbuild), gzip -9', pick(figures.size.glueMin, 'gzip'), n);
for (const c of cases) row(`per call: ${c.name} (µs)`, figures.perCall[c.name], us);
const coldMinusBare = Object.fromEntries(NAMES.map((k) => [k, figures.cold[k].wall - figures.cold.bare.wall]));
row('Node cold start: fresh process, import + first render (ms)', pick(figures.cold, 'wall'), ms);
row(`Node cold start: the same less a bare node (${ms(figures.cold.bare.wall)} ms)`, coldMinusBare, ms);
row('Node cold start: import + first render inside the process (ms)', pick(figures.cold, 'inside'), ms);
row('Workers bundle: worker.js, gzip -9', pick(pick(figures.workers, 'js'), 'gzip'), n);
row('Workers bundle: .wasm module, gzip -9', pick(pick(figures.workers, 'wasm'), 'gzip'), n);
row('Workers bundle: total, raw', pick(pick(figures.workers, 'total'), 'raw'), n);
row('Workers bundle: total, gzip -9', pick(pick(figures.workers, 'total'), 'gzip'), n);
const context = [
  '',
  "The jco columns time and bundle the package's boundary (dist/component.js, its loader and jco's bindings); the wasm-bindgen columns, " +
    "its glue behind the same error mapping. The control is the package built, unchanged, from the component's core module linked from a " +
    'crate that depends on the core (as wasm-bindgen links it), so "whole API ÷ control" is what wasm-bindgen itself changes.',
  '',
  `The whole package (jco), as users import it: ` +
    `Node cold start ${ms(figures.cold.package.wall)} ms (${ms(figures.cold.package.wall - figures.cold.bare.wall)} ms over bare node, ` +
    `${ms(figures.cold.package.inside)} ms inside the process), ` +
    `Workers bundle ${n(figures.workers.package.total.raw)} bytes, ${n(figures.workers.package.total.gzip)} gzip -9.`,
];
const header =
  `Node ${process.version}, wasm-bindgen ${execFileSync('wasm-bindgen', ['--version'], { encoding: 'utf8' }).trim().split(' ').pop()}; ` +
  `per call: median of ${ROUNDS} interleaved rounds; cold start: median of ${COLD_RUNS} runs; ` +
  "every control and wasm-bindgen call checked first to give the jco call's bytes and refusals; every Workers bundle served once by workerd with those bytes.";
const table = `${header}\n\n${lines.join('\n')}\n${context.join('\n')}\n`;
writeFileSync(join(dir, 'figures.md'), table);
writeFileSync(join(dir, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
console.log(table);
console.log(`written to ${join(dir, 'figures.md')} and figures.json`);
