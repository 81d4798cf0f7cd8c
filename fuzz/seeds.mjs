// Writes the fuzz targets' seed corpus (fuzz/corpus/<target>/) from the
// shared vectors, so the fuzzer starts from every case a host is tested on:
//   read_back      every text a vector reads back, and every envelope one renders
//   roundtrip      every spec a render case renders (the target reads `{` as a spec)
//   validation     every validation spec given as an object
//   contract_diff  every contract-diff input, and each contract-lock input diffed with itself
// Seeds over 4 KB are left out (libFuzzer's default -max_len, and the
// vectors' megabyte cases prove the caps, not the readers' branches). Each
// file is named by the SHA-1 of its bytes, as libFuzzer names its own, so a
// seed written twice is one file. Run it after changing the vectors:
//   node fuzz/seeds.mjs
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const MAX_BYTES = 4096;

// The vectors' expansions (vectors/README.md, "Expansions").
function expand(value) {
  if (Array.isArray(value)) return value.map(expand);
  if (value === null || typeof value !== 'object') return value;
  if ('$repeat' in value) {
    const x = expand(value.$repeat);
    return Array.isArray(x) ? Array.from({ length: value.count }, () => x).flat() : x.repeat(value.count);
  }
  if ('$concat' in value) return value.$concat.map(expand).join('');
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
}

const seeds = { read_back: new Set(), roundtrip: new Set(), validation: new Set(), contract_diff: new Set() };
const text = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const add = (target, value) => {
  if (value === undefined || value === null) return;
  seeds[target].add(text(value));
};

const files = readdirSync(join(root, 'vectors')).filter((f) => f.endsWith('.json') && f !== 'schema.json').sort();
for (const file of files) {
  for (const group of JSON.parse(readFileSync(join(root, 'vectors', file), 'utf8'))) {
    for (const raw of group.cases) {
      // A large case is skipped before it is expanded: some are megabytes.
      if (JSON.stringify(raw).length > 4 * MAX_BYTES) continue;
      const c = expand(raw);
      for (const key of ['input', 'read', 'parseValidation', 'errorOfResult']) {
        if (c.call === undefined) add('read_back', c[key]);
      }
      for (const out of Object.values(c.expected ?? {})) if (typeof out === 'string') add('read_back', out);
      if (typeof c.expected === 'string') add('read_back', c.expected);
      for (const out of Object.values(c.result ?? {})) add('read_back', out);
      if (c.spec !== undefined && c.expected !== undefined) add('roundtrip', c.spec);
      if (c.validation !== null && typeof c.validation === 'object') add('validation', c.validation);
      if (c.call === 'contract-diff') add('contract_diff', c.input);
      if (c.call === 'contract-lock') add('contract_diff', { lock: c.input, tools: c.input });
      if (c.call === 'render-partial' || c.call === 'partial-result') add('read_back', c.output);
    }
  }
}

for (const [target, texts] of Object.entries(seeds)) {
  const dir = join(root, 'fuzz', 'corpus', target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const t of texts) {
    const bytes = Buffer.from(t, 'utf8');
    if (bytes.length === 0 || bytes.length > MAX_BYTES) continue;
    writeFileSync(join(dir, createHash('sha1').update(bytes).digest('hex')), bytes);
    written += 1;
  }
  console.log(`fuzz/corpus/${target}: ${written} seeds`);
}
