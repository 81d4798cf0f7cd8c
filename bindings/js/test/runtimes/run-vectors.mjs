// Every shared vector through the package `api` a user's module imported
// (test/runtimes.test.mjs writes that module in a project of its own and runs
// it in Deno and Bun), the `envelope` cases again on the full component
// (`fullCore`, its compiled core module); the verdict is one line of JSON on
// stdout. Only node:fs, which every runtime here has.
import { readdirSync, readFileSync } from 'node:fs';
import { componentRuns, vectorCases } from '../vector-runner.mjs';

export function runVectors(api, fullCore) {
  const folder = new URL('../../../../vectors/', import.meta.url);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, groups: JSON.parse(readFileSync(new URL(name, folder), 'utf8')) }));
  const runs = componentRuns(vectorCases(files), () => api.useCoreModule(fullCore));
  const failures = [];
  for (const { name, run } of runs) {
    try {
      run(api);
    } catch (error) {
      failures.push({ name, error: String(error?.message ?? error).slice(0, 2000) });
    }
  }
  const runtime =
    typeof Deno !== 'undefined'
      ? `deno ${Deno.version.deno}`
      : typeof Bun !== 'undefined'
        ? `bun ${Bun.version}`
        : `node ${process.versions.node}`;
  process.stdout.write(
    `${JSON.stringify({
      runtime,
      // Which loader package.json's "imports" gave this runtime for the core module.
      coreModule: import.meta.resolve('#core-module'),
      total: runs.length,
      passed: runs.length - failures.length,
      failures,
    })}\n`,
  );
}
