// Every shared vector through the package's public API, compared byte for byte.
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as main from 'mcp-envelope';
import * as agent from 'mcp-envelope/agent';
import * as contract from 'mcp-envelope/contract';
import * as raw from 'mcp-envelope/raw';
import * as server from 'mcp-envelope/server';
import { vectorCases } from './vector-runner.mjs';

const folder = new URL('../../../vectors/', import.meta.url);
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, groups: JSON.parse(readFileSync(new URL(name, folder), 'utf8')) }));
const cases = vectorCases(files);
// The runner calls every export by name, whichever entry point holds it.
const api = { ...main, ...server, ...agent, ...contract, ...raw };

test('the vector files hold cases', () => {
  if (cases.length < 160) throw new Error(`only ${cases.length} cases found in ${folder.pathname}`);
});

for (const { name, run } of cases) {
  test(name, () => run(api));
}
