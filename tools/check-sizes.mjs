// The component's size budget, checked by scripts/test (sizes only, never
// timings): growth fails the tests. The budget is today's size with a little
// headroom. The goal beyond it (150 KB raw, 60 KB gzip) needs the core to
// shed more of what it pulls in: core::fmt, the allocator, panic strings.
//   node tools/check-sizes.mjs [build/mcp-envelope.wasm] [--rows OUT.json]
// With --rows it also writes the sizes as rows for BENCHMARKS.md (scripts/bench).
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET = { raw: 285_000, gzip: 125_000 };
const args = process.argv.slice(2);
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
if (over.length > 0) {
  console.error(`check-sizes: ${path} is over its budget (${over.join(', ')}); cut what the core pulls in, or raise the budget with a reason`);
  process.exit(1);
}
