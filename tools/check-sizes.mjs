// The components' size budgets, checked by scripts/test (sizes only, never
// timings): growth fails the tests, and a budget rises only with a reason
// written here. The envelope component holds what every host loads first;
// the full one adds the server's, the agent host's and the contract's sides.
//
// Where the bytes go, as measured when each part was added (raw):
// - serde, serde_json and quick-xml read and write everything; the build is
//   opt-level "z" with LTO (docs/component-api.md, "Optimization level");
// - the recovery helpers: the upstream mapping with its HTTP-date reader
//   (httpdate, 6 KB) and body sanitizer, the exception, access and
//   empty-result helpers (about 40 KB before wasm-opt), the partial result's
//   three forms and readers (30 KB), the caps (12 KB), the pt-BR catalog;
// - the contract diff: the lockfile (canonical JSON, sha2's SHA-256: 4 KB)
//   and the schema walk with its wording (about 44 KB);
// - the client's side: `decide` with the protocol's rules (12.5 KB),
//   `answer-for-revision` (7.9 KB), `host-step` with its attempts and
//   escalation record (16.9 KB), `span-attributes` (1.9 KB);
// - the state the host holds (the ledger's and the idempotency store's steps,
//   the store keys), `after-trap` (4.4 KB), `handler-result` and
//   `idempotency-key-argument` (5.5 KB); thrown errors classified by
//   structure and the scrubbing rule (about 10 KB raw, 4 KB gzip).
// What keeps it small: JSON read member by member or written by hand where a
// derived struct costs more (the schema keywords, the decision, the
// idempotency store, `handler-result`'s request), small lists rather than
// BTreeSets, one std sort over positions (one per element type cost 8 KB),
// one JSON Schema navigator (3.8 KB less than three walks), panic locations
// without the builder's cargo home (1.1 KB), and a `SpecError` one pointer
// wide, its kind and message boxed (4.3 KB less than the two side by side),
// the small inputs (`user-error`, `code-defaults`, `answer-for-revision`, the
// store keys, `after-trap`, `exception-result`) read by one member reader
// rather than derived structs (7.5 KB less), the scrubbing rule as one
// scan (2.4 KB less than a pass per rule), numbers compared by their digits
// rather than parsed as floats (core's float parser and its tables: 15 KB
// gzip), and a refusal's path found by walking the text once rather than
// tracked on every read (serde_path_to_error: 13 KB gzip).
// Today (raw / gzip -9): the envelope component 326,894 / 141,671 bytes,
// the full one 502,664 / 216,378. Each budget is its size with a little
// headroom.
//   node tools/check-sizes.mjs [COMPONENT.wasm] [--rows OUT.json] [--no-budget]
// Without a file it checks both build/envelope.wasm and build/full.wasm; a
// file's budget is its component's (its name starts with envelope or full).
// With --rows it also writes the sizes as rows for BENCHMARKS.md (scripts/bench).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGETS = {
  envelope: { raw: 330_000, gzip: 143_000 },
  full: { raw: 505_000, gzip: 218_000 },
};
const args = process.argv.slice(2);
// --no-budget: report only (the opt-level variants scripts/bench measures).
const noBudget = args.includes('--no-budget');
if (noBudget) args.splice(args.indexOf('--no-budget'), 1);
const rowsAt = args.indexOf('--rows');
const rowsOut = rowsAt >= 0 ? args.splice(rowsAt, 2)[1] : undefined;
const paths = args.length > 0 ? args : ['build/envelope.wasm', 'build/full.wasm'];
let failed = false;
const rows = [];
for (const path of paths) {
  const name = basename(path).startsWith('envelope') ? 'envelope' : 'full';
  const budget = BUDGETS[name];
  const bytes = readFileSync(path);
  const sizes = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  for (const k of Object.keys(budget)) console.log(`${path} ${k}: ${sizes[k]} bytes (budget ${budget[k]})`);
  rows.push({ table: 'size', case: `the ${name} component (${path})`, value: sizes.raw, unit: 'bytes', gzip: sizes.gzip });
  const over = Object.keys(budget).filter((k) => sizes[k] > budget[k]);
  if (over.length > 0 && !noBudget) {
    console.error(`check-sizes: ${path} is over the ${name} component's budget (${over.join(', ')}); cut what it pulls in`);
    failed = true;
  }
}
if (rowsOut !== undefined) writeFileSync(rowsOut, JSON.stringify({ host: 'component', rows }, null, 2) + '\n');
if (failed) process.exit(1);
