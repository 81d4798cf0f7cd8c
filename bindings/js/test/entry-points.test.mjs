// The entry points and exactly the values each one exports, sorted: the main
// entry stays a small front (the lists: entries.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entries } from './entries.mjs';

for (const [entry, names] of Object.entries(entries)) {
  test(`${entry} exports exactly its ${names.length} values`, async () => {
    assert.deepEqual(Object.keys(await import(entry)).sort(), names);
  });
}

test('no value is exported by two of these entry points', () => {
  const all = Object.values(entries).flat();
  assert.deepEqual(
    all.filter((name, i) => all.indexOf(name) !== i),
    [],
  );
});
