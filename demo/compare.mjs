#!/usr/bin/env node
// Reads `mcp-envelope audit --json` reports of the same billing server written
// in several languages (and of a third-party server) and prints, for a
// person, what each answer was, whether the servers agree byte for byte, and
// what a rule-based client does with it; exits 1 when the servers disagree,
// a secret or stack trace reaches the model, a branch is wrong, or a
// <tool_error> is longer than its cap. Every reading, rendering and decision
// is the mcp-envelope package's (the core's), installed as demo/ts has it.
//
//   node demo/compare.mjs --plan demo/plan.json typescript=TS.json python=PY.json [rust=RS.json]
//        [--third-party filesystem=FS.json --third-party-plan demo/filesystem/plan.json]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// The package as the TypeScript server gets it (demo/ts/node_modules).
const requireFromTs = createRequire(new URL('./ts/package.json', import.meta.url));
const { decide, limitsInForce, parseEnvelope, partialLimitsInForce, render } =
  await import(pathToFileURL(requireFromTs.resolve('mcp-envelope')).href);

function usage(why) {
  console.error(`compare: ${why}`);
  console.error('usage: node demo/compare.mjs --plan PLAN NAME=REPORT... [--third-party NAME=REPORT --third-party-plan PLAN]');
  process.exit(2);
}

const args = process.argv.slice(2);
const servers = [];
let planFile;
let thirdParty;
let thirdPartyPlanFile;
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i];
  if (arg === '--plan') planFile = args[++i];
  else if (arg === '--third-party-plan') thirdPartyPlanFile = args[++i];
  else if (arg === '--third-party') thirdParty = named(args[++i]);
  else servers.push(named(arg));
}
if (planFile === undefined) usage('--plan is required');
if (servers.length < 2) usage('give at least two reports to compare');
if (thirdParty !== undefined && thirdPartyPlanFile === undefined) usage('--third-party needs --third-party-plan');

function named(arg) {
  const at = arg?.indexOf('=') ?? -1;
  if (at < 1) usage(`expected NAME=REPORT, not ${JSON.stringify(arg)}`);
  const file = arg.slice(at + 1);
  return { name: arg.slice(0, at), file, report: readJson(file) };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return usage(`cannot read ${file}: ${e.message}`);
  }
}

const planCount = (file) => readJson(file).calls.length;
/** A report's rows split into the audit's own probes and the plan's calls (the plan's come last, in its order). */
function split(report, file) {
  const n = planCount(file);
  return { probes: report.calls.slice(0, report.calls.length - n), plan: report.calls.slice(report.calls.length - n) };
}

/** The envelope the core reads in a text (null for none, or for a broken one). */
function reading(text) {
  try {
    return parseEnvelope(text);
  } catch {
    return null;
  }
}

/** A row's text with its correlation id (random per call) replaced by a fixed mark. */
function masked(row) {
  const r = reading(row.text);
  const id = r?.error?.correlationId ?? r?.partial?.correlationId;
  return typeof id === 'string' && id !== '' ? row.text.replaceAll(id, '<correlation-id>') : row.text;
}

/** What must be the same in every language: the channel, isError and the masked text. */
const answer = (row) => JSON.stringify([row.channel, row.isError, masked(row)]);

const failures = [];
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const chars = (text) => [...text].length;

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(chars(h), ...rows.map((r) => chars(String(r[i])))));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i] + String(c).length - chars(String(c)))).join('  ').trimEnd();
  console.log(line(head));
  for (const row of rows) console.log(line(row));
}

/** One value if every server gives it, else each server's. */
function one(values) {
  return new Set(values).size === 1 ? String(values[0]) : servers.map((s, i) => `${s.name}: ${values[i]}`).join(' / ');
}

/** The rows of each server for the same call, matched by position (plan) or by name (probes). */
function compareRows(title, rowsOf) {
  const first = rowsOf(servers[0]);
  const lines = [];
  const differing = [];
  let identical = 0;
  for (const [index, row] of first.entries()) {
    const each = servers.map((s) => rowsOf(s).find((r, i) => (r.name === row.name && (title === 'probe' || i === index))));
    const missing = servers.filter((s, i) => each[i] === undefined).map((s) => s.name);
    if (missing.length > 0) {
      failures.push(`${title} "${row.name}": no such call in ${missing.join(', ')}`);
      lines.push([row.name, '-', '-', `NO (not made by ${missing.join(', ')})`, '-', row.expected.branch, '-']);
      continue;
    }
    const same = new Set(each.map(answer)).size === 1;
    const odd = servers.filter((s, i) => answer(each[i]) !== answer(each[0])).map((s) => s.name);
    if (same) identical += 1;
    else {
      differing.push({ row, each });
      failures.push(`${title} "${row.name}": the envelopes differ (${odd.join(', ')} against ${servers[0].name})`);
    }
    const wrong = servers.filter((s, i) => !each[i].right).map((s) => s.name);
    if (wrong.length > 0) failures.push(`${title} "${row.name}": branch wrong for ${wrong.join(', ')}`);
    for (const [i, r] of each.entries()) {
      if (r.leaks.length > 0) failures.push(`${title} "${row.name}": ${servers[i].name} leaks ${r.leaks.join(', ')}`);
    }
    lines.push([
      row.name,
      one(each.map((r) => r.code ?? '-')),
      one(each.map((r) => r.isError ?? '-')),
      same ? 'yes' : `NO (${odd.join(', ')})`,
      one(each.map((r) => r.branch)),
      row.expected.branch + (row.expected.code ? ` ${row.expected.code}` : ''),
      wrong.length === 0 ? 'yes' : `NO (${wrong.join(', ')})`,
    ]);
  }
  table(['call', 'code', 'isError', 'identical', 'branch', 'expected', 'right'], lines);
  console.log(`${identical} of ${first.length} answers identical in ${servers.map((s) => s.name).join(', ')} (correlation ids masked)`);
  for (const { row, each } of differing) {
    console.log(`\n  "${row.name}" differs:`);
    for (const [i, r] of each.entries()) {
      console.log(`  ${servers[i].name} (isError ${r.isError}):`);
      console.log(masked(r).split('\n').map((l) => `    ${l}`).join('\n'));
    }
  }
}

const names = servers.map((s) => s.name).join(', ');
console.log(bold(`The billing server of demo/billing.md in ${servers.length} languages: ${names}`));
console.log('Correlation ids are random per call: every text is compared with its correlation id replaced by <correlation-id>.');
for (const s of servers) {
  const { server, tools, score } = s.report;
  console.log(`  ${s.name}: ${server.name} ${server.version}, ${tools} tools, audit score ${score.points}/${score.max} (${score.percent}%) [${s.report.command.join(' ')}]`);
}
for (const s of servers) Object.assign(s, split(s.report, planFile));

console.log(`\n${bold(`The fault plan (${planFile}), one row a call`)}`);
compareRows('plan', (s) => s.plan);

console.log(`\n${bold('The probes (the audit\'s own calls: an unknown tool, and arguments broken from each tool\'s inputSchema)')}`);
compareRows('probe', (s) => s.probes);

// What a rule-based client gets right on our envelopes, and on the same
// faults in MCP Fusion's plain form: each <tool_error> read back and rendered
// again by the core without its category and retryable keys (the seed's
// form, which leaves them to the code's defaults), then decided on.
console.log(`\n${bold('A rule-based client (decide) on our envelopes and on the same faults in plain MCP Fusion form')}`);
console.log('Plain form: each <tool_error> read back (parseEnvelope), rendered again (render) without category and retryable,');
console.log('sent with the same isError, then decided on; answers without a <tool_error> are left as they are.');
const right = (branch, code, expected) => branch === expected.branch && (expected.code === undefined || code === expected.code);
for (const s of servers) {
  const rows = [...s.probes, ...s.plan];
  let ours = 0;
  let plain = 0;
  const changed = [];
  for (const row of rows) {
    const r = reading(row.text);
    let plainText = row.text;
    if (r?.kind === 'tool_error') {
      const { category: _category, retryable: _retryable, ...seed } = r.error;
      plainText = render(seed);
    }
    const result = (text) => ({ content: [{ type: 'text', text }], isError: row.isError === true });
    const oursBranch = row.channel === 'result' ? decide(result(row.text)).branch : 'stop-and-tell';
    if (oursBranch !== row.branch) failures.push(`${s.name} "${row.name}": the package decides ${oursBranch}, the audit ${row.branch}`);
    const plainBranch = row.channel === 'result' ? decide(result(plainText)).branch : 'stop-and-tell';
    if (right(oursBranch, row.code ?? undefined, row.expected)) ours += 1;
    if (right(plainBranch, row.code ?? undefined, row.expected)) plain += 1;
    if (plainBranch !== oursBranch) changed.push([row.name, row.code ?? '-', oursBranch, plainBranch, row.expected.branch]);
  }
  console.log(`  ${s.name}: ${ours} of ${rows.length} right on our envelopes, ${plain} of ${rows.length} in plain form`);
  if (s === servers[0] && changed.length > 0) {
    console.log(`  where the plain form leads elsewhere (${s.name}'s rows):`);
    table(['    call', 'code', 'ours', 'plain', 'expected'], changed.map(([n, ...rest]) => [`    ${n}`, ...rest]));
  }
}

const toolCap = limitsInForce().envelopeChars;
const partialCap = partialLimitsInForce().envelopeChars;
console.log(`\n${bold('Size caps')}`);
console.log(`Each <tool_error> against limitsInForce().envelopeChars (${toolCap}), each <partial_result> against ` +
  `partialLimitsInForce().envelopeChars (${partialCap}), in characters:`);
for (const s of servers) {
  let largest = { size: 0, name: '-' };
  let count = 0;
  for (const row of [...s.probes, ...s.plan]) {
    const kind = reading(row.text)?.kind;
    if (kind !== 'tool_error' && kind !== 'partial_result') continue;
    count += 1;
    const size = chars(row.text);
    const cap = kind === 'tool_error' ? toolCap : partialCap;
    if (size > cap) failures.push(`${s.name} "${row.name}": a ${kind} of ${size} characters, over its cap of ${cap}`);
    if (kind === 'tool_error' && size > largest.size) largest = { size, name: row.name };
  }
  const over = failures.some((f) => f.startsWith(`${s.name} `) && f.includes('over its cap'));
  console.log(`  ${s.name}: ${count} envelopes, ${over ? 'NOT all' : 'all'} within their caps; the largest <tool_error> ` +
    `${largest.size} characters ("${largest.name}")`);
}

if (thirdParty !== undefined) {
  const { report } = thirdParty;
  const rows = split(report, thirdPartyPlanFile);
  console.log(`\n${bold(`A third-party server as it is: ${thirdParty.name} (${report.server.name} ${report.server.version}, ${report.tools} tools)`)}`);
  console.log(`[${report.command.join(' ')}], plan ${thirdPartyPlanFile}; its answers are shown, not held to ours.`);
  const short = (text) => {
    const flat = text.replace(/\n/g, '\\n');
    return chars(flat) > 70 ? `${[...flat].slice(0, 69).join('')}…` : flat;
  };
  const line = (r) => [r.name, r.channel, r.isError ?? '-', r.envelope ?? '-', r.branch, r.expected.branch, r.right ? 'yes' : 'NO', short(r.text)];
  const head = ['call', 'channel', 'isError', 'envelope', 'branch', 'expected', 'right', 'what the model reads'];
  // Its probes mostly fail alike: one row for each way they were answered.
  const groups = new Map();
  for (const r of rows.probes) {
    const key = JSON.stringify([r.channel, r.isError, r.envelope, r.branch, r.expected.branch, r.right,
      r.text.replaceAll(r.tool, 'TOOL').slice(0, 60)]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  const probeLines = [...groups.values()].map((group) => {
    const [first] = group;
    return group.length === 1 ? line(first) : [`${group.length} probes (${first.name}, …)`, ...line(first).slice(1)];
  });
  table(head, [...probeLines, ...rows.plan.map(line)]);
  const rightCount = report.calls.filter((r) => r.right).length;
  console.log(`${rightCount} of ${report.calls.length} branches right; audit score ${report.score.points}/${report.score.max} (${report.score.percent}%)`);
}

console.log();
if (failures.length > 0) {
  console.log(bold(`FAILED: ${failures.length} problem${failures.length === 1 ? '' : 's'}`));
  for (const f of failures) console.log(`  - ${f}`);
  process.exit(1);
}
console.log(bold(`OK: ${names} answer every call alike, with the right branch, no leak, within the caps.`));
