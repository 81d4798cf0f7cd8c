// The component's size budget, checked by scripts/test (sizes only, never
// timings): growth fails the tests, and the budget rises only with a reason
// written here. It is today's size with a little headroom.
//
// Where the bytes go, as measured when each part was added (raw):
// - serde, serde_json (with serde_path_to_error, to name a refused key) and
//   quick-xml read and write everything; the build is opt-level "z" with the
//   LTO `cargo rustc --crate-type cdylib` gives (docs/component-api.md,
//   "Optimization level");
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
// rather than derived structs (7.5 KB less), and the scrubbing rule as one
// scan (2.4 KB less than a pass per rule).
// Today: 533,914 / 234,624 bytes. The budget is 535 KB / 235 KB.
//   node tools/check-sizes.mjs [build/mcp-envelope.wasm] [--rows OUT.json] [--no-budget]
// With --rows it also writes the sizes as rows for BENCHMARKS.md (scripts/bench).
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET = { raw: 535_000, gzip: 235_000 };
const args = process.argv.slice(2);
// --no-budget: report only (the opt-level variants scripts/bench measures).
const noBudget = args.includes('--no-budget');
if (noBudget) args.splice(args.indexOf('--no-budget'), 1);
const rowsAt = args.indexOf('--rows');
const rowsOut = rowsAt >= 0 ? args.splice(rowsAt, 2)[1] : undefined;
const path = args[0] ?? 'build/mcp-envelope.wasm';
const bytes = readFileSync(path);
const sizes = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
const over = Object.keys(BUDGET).filter((k) => sizes[k] > BUDGET[k]);
for (const k of Object.keys(BUDGET)) console.log(`${path} ${k}: ${sizes[k]} bytes (budget ${BUDGET[k]})`);
if (rowsOut !== undefined) {
  const rows = [{ table: 'size', case: `the component (${path})`, value: sizes.raw, unit: 'bytes', gzip: sizes.gzip }];
  writeFileSync(rowsOut, JSON.stringify({ host: 'component', rows }, null, 2) + '\n');
}
if (over.length > 0 && !noBudget) {
  console.error(`check-sizes: ${path} is over its budget (${over.join(', ')}); cut what the core pulls in, or raise the budget with a reason`);
  process.exit(1);
}
