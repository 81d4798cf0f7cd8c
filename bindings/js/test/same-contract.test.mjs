// vectors/same-contract.json holds what real validators say about the same
// mistakes: this test makes the mistakes again through today's Zod and ajv
// and checks the vectors still hold their output (every runner then renders
// the vectors and finds one envelope per mistake, whichever validator found it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderValidationJson } from 'mcp-envelope/raw';
import { SPECS, VECTORS } from './same-contract.mjs';

const groups = JSON.parse(readFileSync(VECTORS, 'utf8'));

for (const group of groups) {
  test(`${group.description}: Zod 4 and ajv still say what the vectors hold`, () => {
    let made = 0;
    for (const c of group.cases) {
      const spec = SPECS[c.description];
      if (!spec) continue;
      const live = JSON.parse(JSON.stringify(spec(c.validation.action, c.validation.arguments)));
      assert.deepEqual(live, c.validation, `${c.description}: run \`node test/same-contract.mjs --write\` after an upgrade`);
      assert.equal(renderValidationJson(JSON.stringify(live)), c.expected);
      made += 1;
    }
    assert.equal(made, 2);
    assert.equal(new Set(group.cases.map((c) => c.expected)).size, 1, 'one envelope per mistake');
  });
}
