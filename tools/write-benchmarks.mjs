// Writes BENCHMARKS.md from the rows each host's benchmark wrote into
// build/bench/*.json (`{"host", "rows": [{"table", "case", "value", "unit",
// "reference"?, "referenceName"?, "gzip"?}]}`): one table per kind, the
// ratio to the reference measured in the same run beside each figure.
//   node tools/write-benchmarks.mjs build/bench BENCHMARKS.md
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import os from 'node:os';

const [dir = 'build/bench', out = 'BENCHMARKS.md'] = process.argv.slice(2);
const HOSTS = {
  component: 'every host',
  rust: 'Rust (native, wasmtime)',
  node: 'JS package in Node',
  python: 'Python package',
  go: 'Go package (wazero)',
  java: 'Java package (Chicory)',
};
const reports = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
if (reports.length === 0) throw new Error(`no benchmark reports in ${dir}`);

const figure = (value, unit) => `${Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })} ${unit === 'bytes' ? 'B' : unit}`;
const ratio = (row) => (typeof row.reference === 'number' && row.reference > 0 ? `${(row.value / row.reference).toFixed(1)}×` : '');

function table(kind, header, line) {
  const rows = reports.flatMap((r) => r.rows.filter((row) => row.table === kind).map((row) => ({ host: r.host, ...row })));
  if (rows.length === 0) return '';
  return [header, header.replace(/[^|]+/g, '---'), ...rows.map(line)].join('\n') + '\n';
}

let commit = 'unknown';
try { commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch {}
const text = `# Benchmarks

Written by \`scripts/bench\` (commit ${commit}, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}). Each figure is a median of several rounds; each ratio compares two figures measured side by side in the same run, on the same inputs (\`benches/inputs.json\`), after checking that both give the same bytes. The machines are shared and noisy: read the ratios, not the absolute times.

## Per call

${table('per-call', '| host | call | time | reference | ratio |',
  (r) => `| ${HOSTS[r.host] ?? r.host} | ${r.case} | ${figure(r.value, r.unit)} | ${r.referenceName ?? ''} ${r.reference !== undefined ? figure(r.reference, r.unit) : ''} | ${ratio(r)} |`)}
## Cold start

${table('cold-start', '| host | what | time | reference | over the reference |',
  (r) => `| ${HOSTS[r.host] ?? r.host} | ${r.case} | ${figure(r.value, r.unit)} | ${r.referenceName ?? ''} ${r.reference !== undefined ? figure(r.reference, r.unit) : ''} | ${typeof r.reference === 'number' ? figure(r.value - r.reference, r.unit) : ''} |`)}
## State stores

An idempotent write's bookkeeping per call (\`begin\`, then \`finish\` with a success, a new key each call, the write itself empty), by \`bindings/js/bench/stores.mjs\` (docs/state.md): through \`SharedIdempotency\` over the in-memory store and over Redis on loopback (Debian's redis-server), with one replica and two (two clients with a connection each, calling at once from one process, so per call is the wall time over all their calls), against the in-memory \`Idempotency\`.

${table('stores', '| store | replicas | per call | calls per second | over the in-memory Idempotency |',
  (r) => `| ${r.case} | ${r.replicas} | ${figure(r.value, r.unit)} | ${Math.round(r.callsPerSecond).toLocaleString('en-US')} | ${typeof r.reference === 'number' ? figure(r.value - r.reference, r.unit) : ''} |`)}
## Sizes

${table('size', '| host | file | raw | gzip -9 |',
  (r) => `| ${HOSTS[r.host] ?? r.host} | ${r.case} | ${figure(r.value, r.unit)} | ${r.gzip !== undefined ? figure(r.gzip, 'bytes') : ''} |`)}`;
writeFileSync(out, text);
console.log(`wrote ${out} from ${reports.map((r) => r.host).join(', ')}`);
