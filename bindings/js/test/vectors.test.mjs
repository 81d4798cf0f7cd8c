// Every shared vector through the package's public API, compared byte for byte.
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as api from 'mcp-envelope';
import { vectorCases } from './vector-runner.mjs';

const folder = new URL('../../../vectors/', import.meta.url);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, groups: JSON.parse(readFileSync(new URL(name, folder), 'utf8')) }));
const cases = vectorCases(files);

test('the vector files hold cases', () => {
  if (cases.length < 160) throw new Error(`only ${cases.length} cases found in ${folder.pathname}`);
});

for (const { name, run } of cases) {
  test(name, () => run(api));
}
