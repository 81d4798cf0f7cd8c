// Compares what the official conformance suite recorded for each server run
// plain and wrapped, prints one row per server (checks passed of those that
// pass or fail, plain and wrapped; how many passing plain fail wrapped) and
// then each problem by name, and exits non-zero when a
// check that passes plain fails wrapped, or when a server fails a check plain
// in a scenario its <name>.expected-failures file does not list.
//
// usage: node conformance/report.mjs RESULTS_DIR SERVERS_DIR
//   RESULTS_DIR/<server>/<mode>/ (mode: plain, wrapped) holds the suite's
//   output (one server-<scenario>-<timestamp>/checks.json per scenario) and
//   `run-error` when the run itself failed (the server never said listening,
//   the suite timed out).
// An expected-failures file is the suite's own --expected-failures YAML
// (`server:` then a list of scenario names).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const MODES = ['plain', 'wrapped'];

/**
 * Reads one run's checks that pass or fail (the suite's own denominator: INFO
 * and WARNING checks count for neither), keyed `scenario/check-id`.
 */
function readRun(dir) {
  const run = { error: undefined, checks: new Map() };
  if (!existsSync(dir)) {
    run.error = 'not run';
    return run;
  }
  if (existsSync(join(dir, 'run-error'))) run.error = readFileSync(join(dir, 'run-error'), 'utf8').trim();
  for (const entry of readdirSync(dir).sort()) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    const file = join(dir, entry, 'checks.json');
    if (scenario === undefined || !existsSync(file)) continue;
    for (const check of JSON.parse(readFileSync(file, 'utf8'))) {
      if (check.status !== 'SUCCESS' && check.status !== 'FAILURE') continue;
      // Most scenarios hold one check named after themselves: its key is the scenario's name alone.
      const id = check.id ?? check.name;
      let key = id === scenario ? scenario : `${scenario}/${id}`;
      for (let n = 2; run.checks.has(key); n++) key = `${id === scenario ? scenario : `${scenario}/${id}`}#${n}`;
      run.checks.set(key, { scenario, passed: check.status === 'SUCCESS', message: check.errorMessage });
    }
  }
  return run;
}

function readExpectedFailures(file) {
  if (!existsSync(file)) return new Set();
  const parsed = parseYaml(readFileSync(file, 'utf8')) ?? {};
  if (typeof parsed !== 'object' || (parsed.server !== undefined && !Array.isArray(parsed.server))) {
    throw new Error(`${file}: expected \`server:\` followed by a list of scenario names`);
  }
  return new Set((parsed.server ?? []).map(String));
}

const count = (run) => {
  const checks = [...run.checks.values()];
  return `${checks.filter((c) => c.passed).length}/${checks.length}`;
};

const [resultsDir, serversDir] = process.argv.slice(2);
if (resultsDir === undefined || serversDir === undefined) {
  console.error('usage: node conformance/report.mjs RESULTS_DIR SERVERS_DIR');
  process.exit(2);
}

let runsPassed = 0;
let runsFailed = 0;
const rows = [];
const problems = [];

for (const server of readdirSync(resultsDir).sort()) {
  const [plain, wrapped] = MODES.map((mode) => readRun(join(resultsDir, server, mode)));
  const expected = readExpectedFailures(join(serversDir, `${server}.expected-failures`));

  // Plain: every failing check must be in a scenario listed as expected, and every listed scenario must still fail.
  const plainProblems = [];
  if (plain.error) plainProblems.push(`plain run failed: ${plain.error}`);
  const failingPlain = [...plain.checks].filter(([, c]) => !c.passed);
  for (const [key, check] of failingPlain) {
    if (!expected.has(check.scenario)) plainProblems.push(`fails plain, not in ${server}.expected-failures: ${key}${check.message ? ` (${check.message})` : ''}`);
  }
  for (const scenario of expected) {
    if (!failingPlain.some(([, c]) => c.scenario === scenario)) {
      plainProblems.push(`${server}.expected-failures lists ${scenario}, which no longer fails plain: remove it`);
    }
  }

  // Wrapped: every check that passes plain must pass wrapped.
  const wrappedProblems = [];
  if (wrapped.error) wrappedProblems.push(`wrapped run failed: ${wrapped.error}`);
  const lost = [...plain.checks].filter(([key, c]) => c.passed && !wrapped.checks.get(key)?.passed).map(([key]) => key);
  if (wrapped.checks.size === 0 && lost.length > 0) {
    wrappedProblems.push(`lost wrapped: all ${lost.length} checks that pass plain (no results wrapped)`);
  } else {
    for (const key of lost) {
      const message = wrapped.checks.get(key)?.message ?? 'not reported';
      wrappedProblems.push(`lost wrapped: ${key} (${message})`);
    }
  }

  for (const runProblems of [plainProblems, wrappedProblems]) {
    if (runProblems.length === 0) runsPassed++;
    else runsFailed++;
  }
  problems.push(...[...plainProblems, ...wrappedProblems].map((p) => `${server}: ${p}`));
  rows.push([server, count(plain), count(wrapped), String(lost.length)]);
}

const header = ['server', 'plain', 'wrapped', 'lost wrapped'];
const widths = header.slice(0, 3).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell)).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
for (const problem of problems) console.log(`  ${problem}`);
console.log(`conformance: ${runsPassed} passed, ${runsFailed} failed`);
process.exit(runsFailed === 0 && rows.length > 0 ? 0 : 1);
