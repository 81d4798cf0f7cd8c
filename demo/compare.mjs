#!/usr/bin/env node
// Reads `mcp-envelope audit --json` reports of the same billing server written
// in several languages (and of a third-party server) and prints, for a
// person, what each answer was, whether the servers agree byte for byte, and
// what a rule-based client does with it; exits 1 when the servers disagree,
// a secret or stack trace reaches the model, a branch is wrong, or a
// <tool_error> is longer than its cap, or an answer is not the one the MCP
// revision the audit graded by asks for. Every reading, rendering and
// decision is the mcp-envelope package's (the core's), installed as demo/ts
// has it.
//
// Each server answers an unknown tool as the specification says by default
// (a JSON-RPC error, compared across the servers like any answer); it is then
// started once more with BILLING_UNKNOWN_TOOL=tool-result and audited on that
// one call (`mcp-envelope audit`, the command its report names), to compare
// SEP-2145's result, the option, too.
//
// Reports of servers audited as replicas (`audit --url A --url B`, the calls
// round-robin, each naming the replica that answered) get one more section:
// the calls the plan repeats (the same failure again and again, a refund's
// key sent again), which replica answered each, and whether the repeat
// streak and the replay crossed replicas. `--books NAME=FILE` gives what the
// replicas' books in Redis held after that server's audit (lines `KEY VALUE`,
// the keys of demo/books.lua), checked against the refunds the answers
// report: a replay that wrote again would show one refund too many. Such a
// report names no command, so `--command NAME='CMD ARGS'` (split at spaces)
// says how to start that server over stdio for the option's audit.
//
// `--revision NAME=REPORT` gives the same server audited under the other
// revision in force (`audit --spec 2026-07-28`): a server whose SDK speaks
// it (the report's negotiated protocol says so) must answer every call there
// as it did under 2025-11-25, byte for byte (correlation ids masked), as
// every other such server does, with the right branch, no leak, and the
// answer that revision asks for; one whose SDK speaks only 2025-11-25 is
// named as such. docs/revisions.md says what may differ on the wire.
//
// `--third-party NAME=REPORT --third-party-plan PLAN` gives a published
// server nobody here wrote, audited as it is; `--third-party-wrapped REPORT`
// the same server with mcp-envelope's one line added (the copy
// published/wrap.mjs makes), audited alike. The two are shown side by side,
// per call the branch a client takes on each and whether it is the plan's;
// the plain server is shown, not held to our rules, but the wrapped one fails
// the comparison where it is worse: a branch wrong that plain gets right, a
// leak, an answer that is not the graded revision's, another tool count.
//
// `--agent NAME=REPORT` gives a scripted agent's run of the plan
// (demo/ts/agent.mjs, demo/python/agent.py, demo/rust/src/bin/agent.rs): each fault played by the model
// alone and through the host loop, scored here by one rule (the recovery
// table, below).
//
//   node demo/compare.mjs --plan demo/plan.json typescript=TS.json python=PY.json [rust=RS.json]
//        [--revision NAME=REPORT]... [--agent NAME=REPORT]... [--command NAME='CMD ARGS']... [--books NAME=FILE]...
//        [--third-party filesystem=FS.json [--third-party-wrapped FS-WRAPPED.json] --third-party-plan demo/filesystem/plan.json]
//        [--cli PATH]
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The package as the TypeScript server gets it (demo/ts/node_modules).
const requireFromTs = createRequire(new URL('./ts/package.json', import.meta.url));
const { limitsInForce, parseEnvelope, partialLimitsInForce, render } =
  await import(pathToFileURL(requireFromTs.resolve('mcp-envelope')).href);
const { decide } = await import(pathToFileURL(requireFromTs.resolve('mcp-envelope/agent')).href);

function usage(why) {
  console.error(`compare: ${why}`);
  console.error("usage: node demo/compare.mjs --plan PLAN NAME=REPORT... [--command NAME='CMD ARGS']... [--books NAME=FILE]... " +
    '[--third-party NAME=REPORT [--third-party-wrapped REPORT] --third-party-plan PLAN] [--cli PATH]');
  process.exit(2);
}

const args = process.argv.slice(2);
const servers = [];
let planFile;
let thirdParty;
let thirdPartyWrapped;
let thirdPartyPlanFile;
/** The stdio command of each server whose report was made over --url, by name. */
const commands = new Map();
/** What each replicated server's books in Redis held after its audit, by name: key to value. */
const books = new Map();
/** Each server's report under the other revision (`--revision`), by name. */
const underRevision = new Map();
/** The scripted agents' runs of the plan (`--agent`), in the order given. */
const agents = [];
let cli = fileURLToPath(new URL('../target/debug/mcp-envelope', import.meta.url));
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i];
  if (arg === '--plan') planFile = args[++i];
  else if (arg === '--cli') cli = args[++i];
  else if (arg === '--third-party-plan') thirdPartyPlanFile = args[++i];
  else if (arg === '--third-party') thirdParty = named(args[++i]);
  else if (arg === '--third-party-wrapped') {
    const file = args[++i];
    if (file === undefined) usage('--third-party-wrapped needs a REPORT');
    thirdPartyWrapped = { file, report: readJson(file) };
  }
  else if (arg === '--agent') agents.push(named(args[++i]));
  else if (arg === '--revision') {
    const given = named(args[++i]);
    underRevision.set(given.name, given.report);
  }
  else if (arg === '--command') {
    const [name, command] = pair(arg, args[++i]);
    commands.set(name, command.trim().split(/ +/));
  } else if (arg === '--books') {
    const [name, file] = pair(arg, args[++i]);
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      usage(`cannot read ${file}: ${e.message}`);
    }
    books.set(name, new Map(text.split('\n').filter((l) => l !== '').map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)])));
  }
  else servers.push(named(arg));
}
if (planFile === undefined) usage('--plan is required');
if (servers.length < 2) usage('give at least two reports to compare');
if (thirdParty !== undefined && thirdPartyPlanFile === undefined) usage('--third-party needs --third-party-plan');
if (thirdPartyWrapped !== undefined && thirdParty === undefined) usage('--third-party-wrapped needs --third-party');
for (const [flag, given] of [['--command', commands], ['--books', books], ['--revision', underRevision]]) {
  for (const name of given.keys()) {
    if (!servers.some((s) => s.name === name)) usage(`${flag} ${name}: no report is named ${name}`);
  }
}

/** `NAME=VALUE` of a flag, both non-empty. */
function pair(flag, given = '') {
  const at = given.indexOf('=');
  if (at < 1 || given.slice(at + 1).trim() === '') usage(`${flag}: expected NAME=VALUE, not ${JSON.stringify(given)}`);
  return [given.slice(0, at), given.slice(at + 1)];
}

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

/** What must be the same in every language: the channel, isError, the masked text and a JSON-RPC error whole. */
const answer = (row) => JSON.stringify([row.channel, row.isError, masked(row), row.error ?? null]);

/** `yes`, `NO`, or `NO (the option it is)`: whether the answer is the one the graded revision asks for. */
const follows = (row) => (row.spec.follows ? 'yes' : row.spec.option ? `NO (${row.spec.option})` : 'NO');

/** The branch the package's decide takes on an answer: a result, or a JSON-RPC error object. */
function decided(row, text) {
  if (row.channel === 'result') return decide({ content: [{ type: 'text', text }], isError: row.isError === true }).branch;
  if (row.channel !== 'jsonrpc-error') return 'stop-and-tell';
  try {
    return decide(row.error).branch;
  } catch {
    return 'stop-and-tell';
  }
}

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
      lines.push([row.name, '-', '-', `NO (not made by ${missing.join(', ')})`, '-', row.expected.branch, '-', '-']);
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
    const departing = servers.filter((s, i) => !each[i].spec.follows).map((s) => s.name);
    if (departing.length > 0) {
      failures.push(`${title} "${row.name}": not MCP ${each[0].spec.revision ?? ''}'s answer in ${departing.join(', ')}: ${each.find((r) => !r.spec.follows).spec.why}`);
    }
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
      one(each.map(follows)),
    ]);
  }
  table(['call', 'code', 'isError', 'identical', 'branch', 'expected', 'right', 'spec'], lines);
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
const revision = servers[0].report.spec;
for (const s of servers) {
  if (s.report.spec !== revision) usage(`${s.name} was graded by MCP ${s.report.spec}, ${servers[0].name} by ${revision}`);
  for (const row of s.report.calls) row.spec.revision = s.report.spec;
}
console.log(bold(`The billing server of demo/billing.md in ${servers.length} languages: ${names}`));
console.log(`Each answer graded by MCP ${revision} (the spec column: whether it is the answer that revision asks for).`);
console.log('Correlation ids are random per call: every text is compared with its correlation id replaced by <correlation-id>.');
/** Where the audit reached a server: its command, or its URL(s). */
function reached(report) {
  if (report.command !== undefined) return report.command.join(' ');
  if (report.urls !== undefined) return `${report.urls.length} replicas, calls round-robin: ${report.urls.map((u, i) => `${i} ${u}`).join(', ')}`;
  return report.url;
}
for (const s of servers) {
  const { server, tools, score } = s.report;
  console.log(`  ${s.name}: ${server.name} ${server.version}, protocol ${server.protocolVersion}, ${tools} tools, audit score ${score.points}/${score.max} (${score.percent}%) [${reached(s.report)}]`);
}
for (const s of servers) Object.assign(s, split(s.report, planFile));

console.log(`\n${bold(`The fault plan (${planFile}), one row a call`)}`);
compareRows('plan', (s) => s.plan);

const replicated = servers.filter((s) => s.report.urls !== undefined);
if (replicated.length > 0) {
  if (replicated.length < servers.length) {
    failures.push(`only ${replicated.map((s) => s.name).join(', ')} ran as replicas: the servers were not audited alike`);
  }
  acrossReplicas();
}

/** A row's code (if any) and branch: `UPSTREAM_UNAVAILABLE (stop-and-tell)`, or `accept`. */
function outcome(row) {
  return row.code ? `${row.code} (${row.branch})` : row.branch;
}

/** An answer in a few words: an envelope's code and message, or the text itself. */
function gist(row) {
  const r = reading(row.text);
  const said = r?.error !== undefined ? `${r.error.code}: ${r.error.message}` : row.text;
  const flat = said.replace(/\n/g, ' ');
  return chars(flat) > 100 ? `${[...flat].slice(0, 99).join('')}…` : flat;
}

/**
 * The calls the plan repeats, as the replicas answered them: runs of the
 * same call without an idempotency key (a failure repeated, which the
 * shared repeat ledger must count across replicas), and the calls sharing an
 * idempotency key (a replay, which must be the first outcome whichever
 * replica answers, the write made once), then the next call of that tool
 * with another key.
 */
function acrossReplicas() {
  console.log(`\n${bold('Across the replicas: the repeated calls, and which replica answered each')}`);
  const plan = servers[0].plan;
  const same = (a, b) => a.tool === b.tool && JSON.stringify(a.arguments) === JSON.stringify(b.arguments);
  const keyOf = (row) => row.arguments?.idempotency_key;
  const shown = new Set();
  const notes = [];
  for (let i = 0; i < plan.length; i += 1) {
    if (shown.has(i) || keyOf(plan[i]) !== undefined || i + 1 >= plan.length || !same(plan[i], plan[i + 1])) continue;
    const run = [i];
    while (run.at(-1) + 1 < plan.length && same(plan[i], plan[run.at(-1) + 1])) run.push(run.at(-1) + 1);
    run.forEach((j) => shown.add(j));
    for (const s of servers) {
      const replicas = run.map((j) => s.plan[j].replica);
      if (replicas.some((r, k) => k > 0 && r === replicas[k - 1])) {
        failures.push(`${s.name}: "${plan[run[0]].name}" and its repeats were not answered by alternating replicas (${replicas.join(', ')})`);
      }
    }
    const last = plan[run.at(-1)];
    notes.push(`${plan[i].tool} ${JSON.stringify(plan[i].arguments)}: ${run.length} identical calls in a row on replicas ` +
      `${one(servers.map((s) => run.map((j) => s.plan[j].replica).join(', ')))}, counted as one streak across them: ` +
      `the last answered ${outcome(last)}`);
  }
  for (let i = 0; i < plan.length; i += 1) {
    const key = keyOf(plan[i]);
    if (shown.has(i) || key === undefined) continue;
    const uses = plan.map((row, j) => j).filter((j) => j >= i && plan[j].tool === plan[i].tool && keyOf(plan[j]) === key);
    if (uses.length < 2) continue;
    uses.forEach((j) => shown.add(j));
    const next = plan.findIndex((row, j) => j > uses.at(-1) && row.tool === plan[i].tool && keyOf(row) !== undefined && keyOf(row) !== key);
    if (next >= 0) shown.add(next);
    const replays = uses.slice(1).filter((j) => same(plan[j], plan[i]));
    for (const s of servers) {
      for (const j of replays) {
        if (s.plan[j].replica === s.plan[i].replica) {
          failures.push(`${s.name}: "${plan[j].name}" was answered by the replica that made the first call (${s.plan[j].replica}): the replay did not cross replicas`);
        }
        if (s.plan[j].text !== s.plan[i].text) {
          failures.push(`${s.name}: "${plan[j].name}" (replica ${s.plan[j].replica}) is not the first outcome (replica ${s.plan[i].replica}) byte for byte`);
        }
      }
    }
    const first = one(servers.map((s) => s.plan[i].replica));
    const again = replays.map((j) => `"${plan[j].name}" on replica ${one(servers.map((s) => s.plan[j].replica))}`).join(', ');
    let note = `${plan[i].tool} key ${key}: written once, on replica ${first}; ${again || 'never replayed'}: the first outcome byte for byte`;
    if (next >= 0) {
      note += `; the next write, with a new key ("${plan[next].name}", replica ${one(servers.map((s) => s.plan[next].replica))}), ` +
        `answered ${outcome(plan[next])}, as the plan expects: ${gist(plan[next])}`;
    }
    notes.push(note);
  }
  if (books.size > 0) {
    notes.push(`the books in Redis after the audit: ${one(servers.map((s) => (books.has(s.name) ? booksAgainstAnswers(s) : 'not given')))}`);
  }
  if (shown.size === 0) console.log('The plan repeats no call.');
  else {
    const rows = [...shown].sort((a, b) => a - b).map((j) => [plan[j].name, one(servers.map((s) => s.plan[j].replica)), gist(plan[j])]);
    table(['call', 'replica', `answer (${servers[0].name}'s; every server's is the same, above)`], rows);
  }
  for (const note of notes) console.log(`  - ${note}`);
}

/**
 * What a server's books in Redis held after its audit, against the refunds
 * its answers report (each successful refund_order answer once, a replay
 * being the same text): as many refunds, and on each invoice the sum of
 * their amounts. A replay that wrote again, or replicas keeping books of
 * their own, would not match.
 */
function booksAgainstAnswers(s) {
  const held = books.get(s.name);
  const answered = new Map();
  for (const row of [...s.probes, ...s.plan]) {
    if (row.tool === 'refund_order' && row.isError === false && !answered.has(row.text)) answered.set(row.text, row.arguments);
  }
  const want = new Map();
  for (const { invoice_id: id, amount } of answered.values()) want.set(id, (want.get(id) ?? 0) + Math.round(amount * 100));
  const refunds = Number(held.get('{billing-demo}:refunds') ?? 0);
  const euros = (cents) => (cents / 100).toFixed(2);
  const each = [...want].map(([id, cents]) => `${euros(Number(held.get(`{billing-demo}:refunded:${id}`) ?? 0))} EUR refunded on ${id}`);
  const before = failures.length;
  if (refunds !== answered.size) {
    failures.push(`${s.name}: the books in Redis hold ${refunds} refunds, the answers report ${answered.size}`);
  }
  for (const [id, cents] of want) {
    const recorded = Number(held.get(`{billing-demo}:refunded:${id}`) ?? 0);
    if (recorded !== cents) failures.push(`${s.name}: the books in Redis hold ${euros(recorded)} EUR refunded on ${id}, the answers report ${euros(cents)}`);
  }
  return `${refunds} refunds, ${each.join(', ')}; the answers report ${answered.size} refunds ` +
    `(${[...answered.values()].map((a) => `${euros(Math.round(a.amount * 100))} on ${a.invoice_id}`).join(', ')})` +
    (failures.length === before ? ': no second write' : ': NOT the same');
}

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
    const oursBranch = decided(row, row.text);
    if (oursBranch !== row.branch) failures.push(`${s.name} "${row.name}": the package decides ${oursBranch}, the audit ${row.branch}`);
    const plainBranch = decided(row, plainText);
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

// The option: each server started again with BILLING_UNKNOWN_TOOL=tool-result,
// audited on the unknown-tool call alone (all at once, to keep it short).
const probe = servers[0].probes.find((r) => r.name === 'unknown tool');
if (probe !== undefined) {
  console.log(`\n${bold('The unknown tool under the option: BILLING_UNKNOWN_TOOL=tool-result (SEP-2145\'s isError result)')}`);
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-envelope-compare-'));
  const optionPlan = join(scratch, 'unknown-tool.json');
  writeFileSync(optionPlan, JSON.stringify({ calls: [{ name: 'unknown tool', tool: probe.tool, arguments: probe.arguments, expect: { branch: 'fix-and-retry' } }] }));
  const audited = await Promise.all(servers.map((s) => new Promise((resolve) => {
    const command = s.report.command ?? commands.get(s.name);
    if (command === undefined) {
      resolve({ server: s, failure: `its report names no command (it was audited over --url): give --command ${s.name}='CMD ARGS'` });
      return;
    }
    const args = ['audit', '--json', '--spec', revision, '--no-probes', '--plan', optionPlan, '--', ...command];
    execFile(cli, args, { env: { ...process.env, BILLING_UNKNOWN_TOOL: 'tool-result' }, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      try {
        resolve({ server: s, row: JSON.parse(stdout).calls[0] });
      } catch {
        resolve({ server: s, failure: (stderr || error?.message || 'no report').trim() });
      }
    });
  })));
  rmSync(scratch, { recursive: true, force: true });
  const got = audited.filter((a) => a.row !== undefined);
  for (const a of audited.filter((x) => x.row === undefined)) failures.push(`option "unknown tool": ${a.server.name} was not audited: ${a.failure}`);
  for (const { server, row } of got) {
    if (!row.right) failures.push(`option "unknown tool": branch wrong for ${server.name} (${row.branch})`);
    if (row.spec.option !== 'SEP-2145') failures.push(`option "unknown tool": ${server.name} did not answer with SEP-2145's result: ${row.text.slice(0, 80)}`);
  }
  if (got.length > 0) {
    const odd = got.filter((a) => answer(a.row) !== answer(got[0].row)).map((a) => a.server.name);
    if (odd.length > 0) failures.push(`option "unknown tool": the answers differ (${odd.join(', ')} against ${got[0].server.name})`);
    const each = (f) => (new Set(got.map((a) => f(a.row))).size === 1 ? String(f(got[0].row)) : got.map((a) => `${a.server.name}: ${f(a.row)}`).join(' / '));
    table(['call', 'channel', 'code', 'isError', 'identical', 'branch', 'right', 'spec'], [[
      'unknown tool', each((r) => r.channel), each((r) => r.code ?? '-'), each((r) => r.isError ?? '-'),
      odd.length === 0 ? 'yes' : `NO (${odd.join(', ')})`, each((r) => r.branch), got.every((a) => a.row.right) ? 'yes' : 'NO', each(follows),
    ]]);
    console.log(`${got.length - odd.length} of ${servers.length} answers identical; the default answer (above, "unknown tool") is ${follows(probe) === 'yes' ? `MCP ${revision}'s` : 'NOT the revision\'s'}:`);
    console.log(`  default: ${probe.text}`);
    console.log(`  option:  ${got[0].row.text.split('\n')[0]} …`);
  }
}

if (underRevision.size > 0) acrossRevisions();

/**
 * Every call under the other revision, beside its answer under the first:
 * one column per revision, each saying whether the servers that speak it
 * answered alike; a server that speaks both must answer alike under both.
 */
function acrossRevisions() {
  const other = [...underRevision.values()][0].spec;
  console.log(`\n${bold(`Both revisions: the same calls under MCP ${revision} and under MCP ${other}`)}`);
  const both = [];
  for (const s of servers) {
    const report = underRevision.get(s.name);
    if (report === undefined) {
      failures.push(`${s.name}: not audited under MCP ${other}`);
      continue;
    }
    if (report.spec !== other) usage(`--revision ${s.name} was graded by MCP ${report.spec}, not ${other}`);
    const negotiated = report.server.protocolVersion;
    console.log(`  ${s.name}: asked for ${other}, negotiated ${negotiated}` +
      (negotiated === other ? `: speaks both; audit score ${report.score.points}/${report.score.max} (${report.score.percent}%)`
        : `: its SDK speaks ${negotiated} and earlier only, so it is compared under ${revision} alone`));
    if (negotiated === other) both.push({ name: s.name, first: s.report.calls, calls: report.calls });
  }
  if (both.length === 0) {
    failures.push(`no server speaks MCP ${other}: nothing was compared under it`);
    return;
  }
  for (const row of both.flatMap((b) => b.calls)) row.spec.revision = other;
  const lines = [];
  let alike = 0;
  for (const [index, row] of servers[0].report.calls.entries()) {
    const each = both.map((b) => b.calls[index]);
    const missing = both.filter((b, i) => each[i]?.name !== row.name).map((b) => b.name);
    if (missing.length > 0) {
      failures.push(`${other} "${row.name}": not the same call in ${missing.join(', ')}`);
      continue;
    }
    // Under the first revision every server answered alike (checked above); under the other, each
    // server that speaks it must give that same answer.
    const changed = both.filter((b, i) => answer(each[i]) !== answer(b.first[index])).map((b) => b.name);
    const wrong = both.filter((b, i) => !each[i].right).map((b) => b.name);
    const departing = both.filter((b, i) => !each[i].spec.follows).map((b) => b.name);
    for (const [i, r] of each.entries()) {
      if (r.leaks.length > 0) failures.push(`${other} "${row.name}": ${both[i].name} leaks ${r.leaks.join(', ')}`);
    }
    if (changed.length > 0) failures.push(`${other} "${row.name}": ${changed.join(', ')} answered otherwise than under ${revision}`);
    if (wrong.length > 0) failures.push(`${other} "${row.name}": branch wrong for ${wrong.join(', ')}`);
    if (departing.length > 0) failures.push(`${other} "${row.name}": not MCP ${other}'s answer in ${departing.join(', ')}`);
    if (changed.length === 0) alike += 1;
    const firstSame = new Set(servers.map((s) => answer(s.report.calls[index]))).size === 1;
    const otherSame = new Set(each.map(answer)).size === 1;
    lines.push([
      row.name,
      row.code ?? '-',
      `${firstSame ? 'alike' : 'NO'} (${servers.length})`,
      `${otherSame ? 'alike' : 'NO'} (${both.length})`,
      changed.length === 0 ? 'yes' : `NO (${changed.join(', ')})`,
      one(each.map((r) => r.branch)),
      wrong.length === 0 ? 'yes' : `NO (${wrong.join(', ')})`,
      departing.length === 0 ? 'yes' : `NO (${departing.join(', ')})`,
    ]);
  }
  table(['call', 'code', revision, other, 'same under both', `branch (${other})`, 'right', 'spec'], lines);
  console.log(`${alike} of ${lines.length} calls answered alike under both revisions by ${both.map((b) => b.name).join(', ')} ` +
    '(probes and plan; correlation ids masked)');
}

if (agents.length > 0) recoveryTables();

/**
 * How a run of one fault ended: `answered` (a success reached the model),
 * `escalated` (the host stopped and sent up its record), or `gave up` (the
 * model sent the failed call again until its turns ran out).
 */
function endState(turns) {
  const last = turns.at(-1).then;
  return last === 'done' ? 'answered' : last === 'escalate' ? 'escalated' : 'gave up';
}

/**
 * Whether a run reached the right end state for what the plan expects: a
 * success answered; a failure that sending the same call again cannot fix
 * (stop-and-tell, and the plan's lasting wait-and-retry faults) told to the
 * user after one model turn, not sent again; a failure only the model can
 * fix (fix-and-retry) in front of the model at its first turn.
 */
function rightEnd(expected, turns) {
  if (expected === 'accept') return endState(turns) === 'answered';
  if (expected === 'fix-and-retry') return ['failed', 'to-model'].includes(turns[0].then);
  return turns.length === 1 && endState(turns) !== 'answered';
}

/** The recovery table of each scripted agent: per fault the end state and model turns, alone and with the host loop. */
function recoveryTables() {
  console.log(`\n${bold('Recovery on the host side: a scripted agent (not a language model) plays the plan, alone and with the host loop')}`);
  console.log('Alone, the model sends a failed call again as it was, up to 3 turns. With the host loop (callToolWithRecovery, ' +
    'call_tool_with_recovery, rmcp::call_tool_with_recovery: the core\'s host-step) the host waits out what is transient within its budget and escalates ' +
    'what it cannot resolve; only what the model must fix reaches it, and it sends that again as it was, up to 3 turns.');
  for (const agent of agents) {
    const { alone, hostLoop, command } = agent.report;
    console.log(`\n  the ${agent.report.agent} host loop, against [${command.join(' ')}]`);
    const lines = [];
    const totals = { alone: { right: 0, turns: 0 }, host: { right: 0, turns: 0 } };
    for (const [i, run] of alone.entries()) {
      const hosted = hostLoop[i];
      const aloneRight = rightEnd(run.expected, run.turns);
      const hostRight = rightEnd(hosted.expected, hosted.turns);
      totals.alone.right += aloneRight ? 1 : 0;
      totals.alone.turns += run.turns.length;
      totals.host.right += hostRight ? 1 : 0;
      totals.host.turns += hosted.turns.length;
      if (!hostRight) failures.push(`recovery (${agent.name}): "${run.name}" did not reach the right end state with the host loop`);
      const calls = hosted.turns.reduce((n, t) => n + t.calls, 0);
      lines.push([run.name, run.expected, endState(run.turns), run.turns.length, aloneRight ? 'yes' : 'NO',
        endState(hosted.turns), hosted.turns.length, calls, hostRight ? 'yes' : 'NO']);
    }
    table(['fault', 'expected', 'alone: end', 'turns', 'right', 'host loop: end', 'turns', 'calls', 'right'], lines);
    console.log(`  right end state: ${totals.alone.right} of ${alone.length} alone, ${totals.host.right} of ${hostLoop.length} with the host loop; ` +
      `model turns: ${totals.alone.turns} alone, ${totals.host.turns} with the host loop`);
    if (totals.host.turns >= totals.alone.turns) failures.push(`recovery (${agent.name}): the host loop spent no fewer model turns (${totals.host.turns} against ${totals.alone.turns})`);
  }
  console.log('  To play the plan with your own model instead, give it the tools of a billing server and the plan\'s calls as tasks; ' +
    'demo/README.md says how.');
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

if (thirdParty !== undefined && thirdPartyWrapped === undefined) thirdPartyAsItIs();
if (thirdPartyWrapped !== undefined) thirdPartyBothWays();

/** A text made one line and cut at `width` characters, the cut marked. */
function short(text, width = 70) {
  const flat = text.replace(/\n/g, '\\n');
  return chars(flat) > width ? `${[...flat].slice(0, width - 1).join('')}…` : flat;
}

/** The probes grouped by how they were answered (most fail alike): one row a group, `line` of its first. */
function grouped(probes, keyOf, line) {
  const groups = new Map();
  for (const p of probes) {
    const key = keyOf(p);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(p);
  }
  return [...groups.values()].map((group) => {
    const row = line(group[0]);
    return group.length === 1 ? row : [`${group.length} probes (${row[0]}, …)`, ...row.slice(1)];
  });
}

/** The third-party server alone, as it is. */
function thirdPartyAsItIs() {
  const { report } = thirdParty;
  const rows = split(report, thirdPartyPlanFile);
  console.log(`\n${bold(`A third-party server as it is: ${thirdParty.name} (${report.server.name} ${report.server.version}, ${report.tools} tools)`)}`);
  console.log(`[${report.command.join(' ')}], plan ${thirdPartyPlanFile}; its answers are shown, not held to ours.`);
  const line = (r) => [r.name, r.channel, r.isError ?? '-', r.envelope ?? '-', r.branch, r.expected.branch, r.right ? 'yes' : 'NO', follows(r), short(r.text)];
  const head = ['call', 'channel', 'isError', 'envelope', 'branch', 'expected', 'right', 'spec', 'what the model reads'];
  const key = (r) => JSON.stringify([r.channel, r.isError, r.envelope, r.branch, r.expected.branch, r.right, follows(r),
    r.text.replaceAll(r.tool, 'TOOL').slice(0, 60)]);
  table(head, [...grouped(rows.probes, key, line), ...rows.plan.map(line)]);
  const rightCount = report.calls.filter((r) => r.right).length;
  console.log(`${rightCount} of ${report.calls.length} branches right; audit score ${report.score.points}/${report.score.max} (${report.score.percent}%)`);
}

/**
 * The third-party server as it is and with the one line, call by call: the
 * answer, the branch a client takes on it and whether it is the plan's. The
 * wrapped side must never be worse: a branch wrong that plain gets right, a
 * leak, or an answer that is not the graded revision's fails the comparison.
 */
function thirdPartyBothWays() {
  const plain = thirdParty.report;
  const wrapped = thirdPartyWrapped.report;
  console.log(`\n${bold(`A third-party server, as it is and with the one line: ${thirdParty.name} (${plain.server.name} ${plain.server.version})`)}`);
  console.log(`plain:   [${plain.command.join(' ')}]`);
  console.log(`wrapped: [${wrapped.command.join(' ')}] (published/wrap.mjs: the entry file with envelopeServer(server) added)`);
  console.log(`plan ${thirdPartyPlanFile}; the plain answers are shown, not held to ours; the wrapped ones must be no worse.`);
  if (wrapped.tools !== plain.tools) failures.push(`${thirdParty.name} with the one line lists ${wrapped.tools} tools, plain ${plain.tools}`);
  const p = split(plain, thirdPartyPlanFile);
  const w = split(wrapped, thirdPartyPlanFile);
  const pairs = [
    ...p.probes.map((r) => ({ kind: 'probe', plain: r, wrapped: w.probes.find((x) => x.name === r.name) })),
    ...p.plan.map((r, i) => ({ kind: 'plan', plain: r, wrapped: w.plan[i] })),
  ];
  const said = (r) => (r.channel === 'jsonrpc-error' ? `error ${r.error?.code ?? ''} ${r.code ?? ''}`.trim()
    : r.envelope !== null && r.envelope !== undefined ? `${r.envelope === 'validation_error' ? 'validation_error' : r.code}`
      : `${r.isError ? 'isError ' : ''}"${short(r.text, 28)}"`);
  for (const pair of pairs) {
    const { plain: a, wrapped: b } = pair;
    if (b === undefined || b.name !== a.name) {
      failures.push(`${thirdParty.name} "${a.name}": not made with the one line`);
      continue;
    }
    if (a.right && !b.right) failures.push(`${thirdParty.name} "${a.name}": with the one line the branch is wrong (${b.branch}), plain it is right (${a.branch})`);
    if (b.leaks.length > 0) failures.push(`${thirdParty.name} "${a.name}": with the one line it leaks ${b.leaks.join(', ')}`);
    if (!b.spec.follows) failures.push(`${thirdParty.name} "${a.name}": with the one line, not MCP ${wrapped.spec}'s answer: ${b.spec.why}`);
  }
  const line = ({ plain: a, wrapped: b }) => [a.name, a.expected.branch, said(a), a.branch, a.right ? 'yes' : 'NO',
    b === undefined ? '-' : said(b), b?.branch ?? '-', b === undefined ? '-' : b.right ? 'yes' : 'NO'];
  const key = ({ plain: a, wrapped: b }) => JSON.stringify([line({ plain: a, wrapped: b }).slice(1).map((c) => String(c).replaceAll(a.tool, 'TOOL')),
    a.text.replaceAll(a.tool, 'TOOL').slice(0, 40)]);
  table(['call', 'expected', 'plain', 'branch', 'right', 'with the one line', 'branch', 'right'],
    [...grouped(pairs.filter((x) => x.kind === 'probe'), key, line), ...pairs.filter((x) => x.kind === 'plan').map(line)]);
  const count = (report) => report.calls.filter((r) => r.right).length;
  console.log(`branches right: ${count(plain)} of ${plain.calls.length} plain, ${count(wrapped)} of ${wrapped.calls.length} with the one line; ` +
    `audit score ${plain.score.points}/${plain.score.max} (${plain.score.percent}%) plain, ${wrapped.score.points}/${wrapped.score.max} (${wrapped.score.percent}%) with it`);
  console.log('what the model reads on the plan\'s failures:');
  for (const { plain: a, wrapped: b } of pairs.filter((x) => x.kind === 'plan' && x.plain.isError !== false)) {
    console.log(`  ${a.name} (expected ${a.expected.branch}):`);
    console.log(`    plain:             ${gist(a)}`);
    if (b !== undefined) console.log(`    with the one line: ${gist(b)}`);
  }
}

console.log();
if (failures.length > 0) {
  console.log(bold(`FAILED: ${failures.length} problem${failures.length === 1 ? '' : 's'}`));
  for (const f of failures) console.log(`  - ${f}`);
  process.exit(1);
}
const revisions = underRevision.size > 0 ? ` (and under MCP ${[...underRevision.values()][0].spec}, each server that speaks it)` : '';
const recovered = agents.length > 0 ? ` The host loop (${agents.map((a) => a.name).join(', ')}) reached the right end state on every fault with fewer model turns.` : '';
console.log(bold(`OK: ${names} answer every call alike, as MCP ${revision} asks${revisions}, with the right branch, no leak, within the caps.${recovered}`));
