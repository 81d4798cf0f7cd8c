// Node worker_threads under load: four workers, each with its own instance
// of the component, answer every rendering spec of the shared vectors (and a
// refused one) many times over, all at once, and give exactly what the main
// thread gives, every round.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { outputs } from './threads/outputs.mjs';

const WORKERS = 4;
const ROUNDS = 50;
const vectors = new URL('../../../vectors/', import.meta.url);

/** The specs of the vectors' render and refusal cases, as written (no `$repeat` expansion: small ones only). */
function vectorSpecs() {
  const specs = [];
  for (const name of readdirSync(vectors)
    .filter((n) => n.endsWith('.json') && n !== 'schema.json')
    .sort()) {
    for (const group of JSON.parse(readFileSync(new URL(name, vectors), 'utf8'))) {
      for (const c of group.cases) {
        if ('spec' in c && !('call' in c) && !/"\$(repeat|concat)"/.test(JSON.stringify(c.spec))) specs.push(c.spec);
      }
    }
  }
  return specs;
}

test(`${WORKERS} worker threads under load answer exactly what one thread answers`, async () => {
  const specs = [...vectorSpecs(), { code: '', message: 'refused' }];
  assert.ok(specs.length > 150, `only ${specs.length} specs found`);
  const running = Array.from(
    { length: WORKERS },
    () =>
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL('./threads/worker.mjs', import.meta.url), { workerData: { specs, rounds: ROUNDS } });
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`a worker exited (${code}) before answering`)));
      }),
  );
  const main = outputs(specs, 1);
  const results = await Promise.all(running);
  assert.equal(new Set(results.map((r) => r.threadId)).size, WORKERS);
  assert.ok(
    main.answers.some((a) => a.length === 1 && a[0].startsWith('TypeError: ')),
    'the refused spec was not refused',
  );
  for (const { threadId, answers, differing } of results) {
    assert.equal(differing, 0, `worker ${threadId}: ${differing} answers differed from its first round`);
    answers.forEach((answer, index) => {
      assert.deepEqual(answer, main.answers[index], `worker ${threadId}, spec ${index}: ${JSON.stringify(specs[index]).slice(0, 200)}`);
    });
  }
});
