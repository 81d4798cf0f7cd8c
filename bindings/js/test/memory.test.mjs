// A million calls leak nothing: test/memory/million-calls.mjs makes them in
// a process of its own (with --expose-gc) and reports, at checkpoints, each
// component's linear memory and the JS heap after a full collection.
// Measured (Node 20): 1,179,648 bytes of the envelope component's linear
// memory (18 pages) and 1,245,184 of the full one's (19) from the first
// checkpoint on, and a heap of about 4 MB throughout.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const LINEAR_MEMORY_BOUND = 2 * 1024 * 1024; // bytes; the core starts at 19 pages
const PAGE = 64 * 1024;
const HEAP_DRIFT_BOUND = 2 * 1024 * 1024; // bytes, between the 100,000th call and the millionth

test('over a million calls, linear memory stays under its bound and the JS heap stays flat', { timeout: 180_000 }, async () => {
  const script = fileURLToPath(new URL('./memory/million-calls.mjs', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', script], { timeout: 170_000 });
  const report = JSON.parse(stdout);
  const at = (calls) => report.checkpoints.find((c) => c.calls === calls);
  const summary = JSON.stringify(report);
  assert.deepEqual(report.instances, { envelope: 1, full: 1 }, `a component was reset during the run: ${summary}`);
  assert.equal(report.refusals, 199_000, summary);
  for (const { calls, linearMemoryBytes } of report.checkpoints) {
    for (const [component, bytes] of Object.entries(linearMemoryBytes)) {
      const what = `the ${component} component's linear memory`;
      assert.ok(bytes <= LINEAR_MEMORY_BOUND, `${what}: ${bytes} bytes after ${calls} calls: ${summary}`);
      assert.ok(bytes <= at(10_000).linearMemoryBytes[component] + PAGE, `${what} grew after ${calls} calls: ${summary}`);
    }
  }
  const drift = at(1_000_000).heapUsedBytes - at(100_000).heapUsedBytes;
  assert.ok(drift <= HEAP_DRIFT_BOUND, `the JS heap grew by ${drift} bytes between the 100,000th and the millionth call: ${summary}`);
});
