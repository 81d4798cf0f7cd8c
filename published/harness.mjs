#!/usr/bin/env node
// Runs each published server of servers.mjs twice, plain and with
// mcp-envelope's one line (the copy wrap.mjs made), through the MCP SDK's own
// Client over stdio, and holds the wrapped one to "never worse than without
// us": it fails when tools/list differs, a success differs, a failure the
// plain server tells the model is not told in an envelope (or is told as
// INTERNAL_ERROR), an argument error is not a <validation_error> naming the
// field, an unknown tool is not the JSON-RPC error -32602, or any answer holds
// a stack trace or a secret the server was given. The plain answers are
// pinned exactly in servers.mjs, so a new version of a server that words
// things otherwise is noticed too.
//
// Prints, per server, a row per call and then what the model reads from each
// side, one above the other; writes build/published/summary.json; exits 1 on
// any problem.
//
//   node published/harness.mjs [--only NAME]...
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { SERVERS } from './servers.mjs';
import { envelopedPath, pythonOf } from './wrap.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const out = join(root, 'build/published');

const only = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 1) {
  if (argv[i] === '--only' && argv[i + 1] !== undefined) only.push(argv[++i]);
  else {
    console.error('usage: node published/harness.mjs [--only NAME]...');
    process.exit(2);
  }
}
for (const name of only) {
  if (!SERVERS.some((s) => s.name === name)) {
    console.error(`harness: no server is named ${name} (servers.mjs has ${SERVERS.map((s) => s.name).join(', ')})`);
    process.exit(2);
  }
}
const chosen = SERVERS.filter((s) => only.length === 0 || only.includes(s.name));

/** What a stack trace looks like in each language's answers. */
const STACK_TRACES = [
  [/(^|\n) {4}at \S/, '"    at " (a JavaScript stack frame)'],
  [/Traceback \(most recent call last\)/, 'a Python traceback'],
  [/\.[cm]?js:\d+/, 'a ".js:NN" source position'],
  [/File "[^"]+", line \d+/, 'a Python "File ..., line N" frame'],
];

/**
 * The command that runs another with no network at all: a user namespace's own network namespace, holding
 * only a loopback that is down. Null where the kernel refuses unprivileged namespaces; an `offline` server
 * then runs on the machine's own network (the run says so), where its pinned answers hold only offline.
 */
const NO_NETWORK = (() => {
  const unshare = ['unshare', '--user', '--map-root-user', '--net'];
  try {
    execFileSync(unshare[0], [...unshare.slice(1), 'true'], { stdio: 'ignore' });
    return unshare;
  } catch {
    return null;
  }
})();

/** An SDK's words for a failure that names nothing of what failed: not counted as told. */
const GENERIC = [/^$/, /^Error executing tool \S+$/, /^Internal error$/i, /^An error occurred/i];

/** Every string inside a JSON value (texts, messages, data), to look for stack traces in. */
function strings(value, found = []) {
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, found);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, found);
  return found;
}

/** `${dir}` replaced by the run's folder, in every string of a value. */
function placed(value, dir) {
  return JSON.parse(JSON.stringify(value).replaceAll('${dir}', dir.replaceAll('\\', '\\\\').replaceAll('"', '\\"')));
}

function masked(text, mask = []) {
  return mask.reduce((t, [pattern, mark]) => t.replace(pattern, mark), text);
}

/** The answer to one request as the model reads it: the channel, isError, the texts, and the raw result or error. */
function answerOf(response) {
  if (response === null) return { channel: 'none', text: '' };
  if (response.error !== undefined) {
    const { code, message, data } = response.error;
    const dataText = data === undefined ? '' : typeof data === 'string' ? data : JSON.stringify(data);
    return { channel: 'jsonrpc-error', code, text: message, dataText, error: response.error };
  }
  const { result } = response;
  const text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { channel: 'result', isError: result.isError === true, text, result };
}

/** Starts one side of a server on a fresh folder, lists its tools, makes the plan's calls, stops it. */
async function runSide(server, side) {
  const dir = join(out, 'work', server.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const setup = server.setup(dir);
  let command;
  let args;
  const env = { ...getDefaultEnvironment(), ...(setup.env ?? {}) };
  if (server.language === 'js') {
    const entry = join(here, server.entry);
    command = process.execPath;
    args = [side === 'wrapped' ? envelopedPath(entry) : entry, ...setup.args];
  } else {
    // The console script the distribution installs, as its users start it (its venv's interpreter runs
    // it), or the module `python -m` runs.
    command = server.script === undefined ? pythonOf(server) : join(dirname(pythonOf(server)), server.script);
    args = server.script === undefined ? ['-m', server.run ?? server.module, ...setup.args] : [...setup.args];
    // The wrapped copy of the package shadows the installed one; nothing else of the environment changes.
    if (side === 'wrapped') env.PYTHONPATH = join(out, 'wrapped/python');
    env.PYTHONDONTWRITEBYTECODE = '1';
  }
  if (server.offline && NO_NETWORK !== null) [command, args] = [NO_NETWORK[0], [...NO_NETWORK.slice(1), command, ...args]];
  mkdirSync(join(out, 'logs'), { recursive: true });
  const log = join(out, 'logs', `${server.name}.${side}.stderr`);
  const stderr = createWriteStream(log);
  const transport = new StdioClientTransport({ command, args, env, cwd: dir, stderr: 'pipe' });
  transport.stderr?.pipe(stderr);
  const client = new Client({ name: 'mcp-envelope-published', version: '0.0.0' });
  // The raw responses, as the server sent them: the SDK's Client reads results through its schemas,
  // and tools/list is compared as sent. The handler the Client gives the transport is wrapped as it is
  // set, so the answer to initialize is seen too: the protocol revision the server's own SDK speaks.
  let last = null;
  const run = { side, command: [command, ...args], dir, log, calls: [] };
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    get: () => handler,
    set: (onmessage) => {
      handler = (message, extra) => {
        if (message.id !== undefined && (message.result !== undefined || message.error !== undefined)) last = message;
        onmessage?.(message, extra);
      };
    },
  });
  try {
    await client.connect(transport);
    run.protocolVersion = last?.result?.protocolVersion;
    const request = async (method, params) => {
      last = null;
      try {
        await client.request({ method, params }, z.looseObject({}), { timeout: 30_000 });
      } catch (e) {
        if (!(e instanceof McpError) || last === null) throw e;
      }
      return last;
    };
    const listed = await request('tools/list', {});
    run.server = client.getServerVersion();
    run.toolsList = JSON.stringify(listed.result);
    run.listed = listed;
    for (const call of server.calls) {
      // A call with no `arguments` sends none, as a client may.
      const params = call.arguments === undefined ? { name: call.tool } : { name: call.tool, arguments: placed(call.arguments, dir) };
      const response = await request('tools/call', params);
      run.calls.push(answerOf(response));
    }
  } catch (e) {
    run.failure = `${e.message}`;
  } finally {
    await client.close().catch(() => {});
    await new Promise((resolve) => stderr.end(resolve));
  }
  return run;
}

/** The envelope a wrapped text is: its kind and, for a <tool_error>, its code; null for none. */
function envelopeOf(text) {
  const toolError = /^<tool_error code="([^"]*)"/.exec(text);
  if (toolError !== null) return { kind: 'tool_error', code: toolError[1] };
  if (/^<validation_error[ >]/.test(text)) return { kind: 'validation_error' };
  return null;
}

/** Whether a failure's answer tells the model what failed: for the plain side, any specific text. */
function toldPlain(a, kind) {
  if (kind === 'answered') return a.channel === 'result' && !a.isError && a.text.trim() !== '';
  if (a.channel === 'jsonrpc-error') return !GENERIC.some((g) => g.test(a.text));
  return a.channel === 'result' && a.isError && !GENERIC.some((g) => g.test(a.text.trim()));
}

/**
 * For the wrapped side: an envelope whose code is not INTERNAL_ERROR, or a JSON-RPC error naming what failed;
 * a failure the server answers as a success is told when the wrapped answer is the plain one (`same`).
 */
function toldWrapped(a, kind, same) {
  if (kind === 'answered') return same;
  if (a.channel === 'jsonrpc-error') return a.code !== -32603 && !GENERIC.some((g) => g.test(a.text));
  const envelope = a.channel === 'result' && a.isError ? envelopeOf(a.text) : null;
  return envelope !== null && envelope.code !== 'INTERNAL_ERROR';
}

/** The plain answer against its pin in servers.mjs. */
function plainProblems(call, a, dir) {
  if (call.plain === null || call.plain === undefined) return [`plain answer not pinned in servers.mjs: ${JSON.stringify(pinOf(call, a, dir))}`];
  const want = placed(call.plain, dir);
  const got = pinOf(call, a, dir, false);
  const same = JSON.stringify(maskedPin(want, call.mask)) === JSON.stringify(maskedPin(got, call.mask));
  return same ? [] : [`plain answer is not the pinned one: got ${JSON.stringify(got)}`];
}

/** An answer in the form servers.mjs pins it (`${dir}` put back when asked). */
function pinOf(call, a, dir, generalize = true) {
  const back = (t) => (generalize ? t.replaceAll(dir, '${dir}') : t);
  if (a.channel === 'jsonrpc-error') return { error: { code: a.code, message: back(a.text) } };
  if (a.channel !== 'result') return { none: true };
  return a.isError ? { isError: true, text: back(a.text) } : { text: back(a.text) };
}

function maskedPin(pin, mask) {
  if (pin.text !== undefined) return { ...pin, text: masked(pin.text, mask) };
  if (pin.error !== undefined) return { error: { ...pin.error, message: masked(pin.error.message, mask) } };
  return pin;
}

/** Whether the two sides' results are the same, byte for byte as JSON (after the call's mask). */
function sameResult(call, plain, wrapped) {
  return masked(JSON.stringify(plain.result ?? null), call.mask) === masked(JSON.stringify(wrapped.result ?? null), call.mask);
}

/** The secrets of a server that an answer holds, named by where they start, for a problem's text. */
function secretsIn(value, secrets = []) {
  const text = JSON.stringify(value ?? null);
  return secrets.filter((secret) => text.includes(secret)).map((secret) => `${secret.slice(0, 4)}…`);
}

/** The problems of one call, its plain and wrapped answers side by side (wrapped null when its run broke off). */
function callProblems(server, call, plain, wrapped, dir) {
  const problems = [];
  problems.push(...plainProblems(call, plain, dir));
  for (const [side, a] of [['plain', plain], ['wrapped', wrapped]]) {
    if (a === null) continue;
    for (const secret of secretsIn(a.result ?? a.error, server.secrets)) problems.push(`${side} answer holds the secret ${secret}`);
    // A stack trace the plain server sends is pinned: the wrapped side alone must send none.
    if (side === 'plain' && call.plainStackTrace) continue;
    for (const s of [...strings(a.result ?? a.error ?? {}), a.text]) {
      for (const [pattern, what] of STACK_TRACES) {
        if (pattern.test(s)) problems.push(`${side} answer holds a stack trace: ${what}`);
      }
    }
  }
  if (wrapped === null) return [...new Set([...problems, 'no wrapped answer: its run broke off'])];
  const kind = call.kind;
  if (kind === 'success' || kind === 'answered') {
    if (plain.channel !== 'result' || plain.isError) problems.push('plain did not answer with a successful result');
    if (!sameResult(call, plain, wrapped)) problems.push('the wrapped result differs from the plain one');
  } else if (kind === 'unknown') {
    if (wrapped.channel !== 'jsonrpc-error' || wrapped.code !== -32602) problems.push('an unknown tool is not the JSON-RPC error -32602 wrapped');
  } else {
    const envelope = wrapped.channel === 'result' && wrapped.isError ? envelopeOf(wrapped.text) : null;
    if (toldPlain(plain) && envelope === null) problems.push('plain tells this failure; wrapped, it is not inside an envelope');
    const expected = kind === 'failure' ? call.code : '<validation_error>';
    if (envelope?.code === 'INTERNAL_ERROR') problems.push(`wrapped, it is INTERNAL_ERROR (expected ${expected}): the model is told less than plain`);
    else if (kind === 'arguments') {
      if (envelope?.kind !== 'validation_error') problems.push('an argument error is not a <validation_error>');
      else if (!wrapped.text.includes(`<field name="${call.field}">`)) problems.push(`the <validation_error> names no field ${call.field}`);
    } else if (kind === 'failure' && envelope !== null && envelope.code !== call.code) {
      problems.push(`wrapped ${envelope.code === undefined ? `a <${envelope.kind}>` : `code ${envelope.code}`}, expected ${call.code}`);
    }
    for (const text of call.mentions ?? []) {
      if (envelope !== null && !wrapped.text.includes(text)) problems.push(`wrapped, the envelope does not name ${JSON.stringify(text)}`);
    }
  }
  return [...new Set(problems)];
}

/** A short cell for a table: the answer's channel and the start of what it says. */
function cell(a, width = 46) {
  if (a === null) return 'no answer (run broke off)';
  let said;
  if (a.channel === 'jsonrpc-error') said = `error ${a.code} ${a.text}`;
  else if (a.channel !== 'result') said = 'no answer';
  else {
    const envelope = a.isError ? envelopeOf(a.text) : null;
    if (envelope?.kind === 'tool_error') said = `tool_error ${envelope.code}`;
    else if (envelope?.kind === 'validation_error') said = `validation_error ${(/<field name="([^"]*)"/.exec(a.text) ?? [])[1] ?? ''}`;
    else said = `${a.isError ? 'isError ' : ''}${JSON.stringify(a.text)}`;
  }
  const flat = said.replace(/\s+/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

const indent = (text, by = '      ') => text.split('\n').map((l) => by + l).join('\n');

/** The one line each kind of server gets, as the README words it. */
function theOneLine(server) {
  if (server.language === 'js') return 'envelopeServer(server)';
  if (server.wrap === 'low-level') return 'envelope_server(server)';
  return server.api.startsWith('FastMCP') ? 'middleware=[EnvelopeMiddleware()]' : 'EnvelopeMCPServer for MCPServer';
}

async function check(server) {
  const lines = [];
  const plain = await runSide(server, 'plain');
  const wrapped = await runSide(server, 'wrapped');
  const problems = [];
  const dir = plain.dir;
  for (const run of [plain, wrapped]) {
    if (run.failure !== undefined) {
      const tail = readFileSync(run.log, 'utf8').trim().split('\n').slice(-3).join(' | ');
      problems.push(`${run.side} run failed: ${run.failure} (its stderr, ${run.log}, ends: ${tail || 'nothing'})`);
    }
  }
  for (const run of [plain, wrapped]) {
    for (const secret of secretsIn(run.listed, server.secrets)) problems.push(`${run.side} tools/list holds the secret ${secret}`);
  }
  // The wrapped copy must run on the server's own SDK, as the plain one does: the revision it speaks says so.
  if (wrapped.protocolVersion !== undefined && wrapped.protocolVersion !== plain.protocolVersion) {
    problems.push(`wrapped, the server speaks protocol ${wrapped.protocolVersion}, plain ${plain.protocolVersion}: it runs on another SDK`);
  }
  let toolsListIdentical = null;
  if (plain.toolsList !== undefined && wrapped.toolsList !== undefined) {
    toolsListIdentical = plain.toolsList === wrapped.toolsList;
    if (!toolsListIdentical) problems.push('tools/list differs between plain and wrapped');
  }
  const results = [];
  // A wrapped run that broke off (the line refused the server at start-up) leaves the plain answers to
  // check against their pins; a plain run that broke off leaves nothing to compare.
  if (plain.calls.length === server.calls.length) {
    for (const [i, call] of server.calls.entries()) {
      const p = plain.calls[i];
      const w = wrapped.calls[i] ?? null;
      const callProblemList = callProblems(server, call, p, w, dir);
      results.push({
        name: call.name,
        tool: call.tool,
        kind: call.kind,
        expected: call.kind === 'failure' ? { code: call.code } : call.kind === 'arguments' ? { field: call.field } : undefined,
        plain: { channel: p.channel, isError: p.isError, code: p.code, text: p.text, told: call.kind === 'success' ? undefined : toldPlain(p, call.kind) },
        wrapped: w === null ? null : {
          channel: w.channel, isError: w.isError, code: w.code, envelope: w.channel === 'result' && w.isError ? envelopeOf(w.text) : null,
          text: w.text, told: call.kind === 'success' ? undefined : toldWrapped(w, call.kind, sameResult(call, p, w)),
        },
        problems: callProblemList,
      });
    }
  }
  const failures = results.filter((r) => r.kind !== 'success');
  const summary = {
    name: server.name,
    package: server.package,
    version: server.version,
    api: server.api,
    wrap: theOneLine(server),
    network: server.offline ? (NO_NETWORK === null ? 'the machine\'s own' : 'none (unshare --net)') : 'the machine\'s own',
    server: plain.server,
    protocolVersion: plain.protocolVersion,
    planned: server.calls.length,
    calls: results.length,
    failures: failures.length,
    toldPlain: failures.filter((r) => r.plain.told).length,
    toldWrapped: failures.filter((r) => r.wrapped?.told).length,
    toolsListIdentical,
    problems: [...problems, ...results.flatMap((r) => r.problems.map((p) => `"${r.name}": ${p}`))],
    results,
  };

  lines.push(`== ${server.name}: ${server.package} ${server.version} (${server.api}), wrapped: ${summary.wrap}`);
  lines.push(`   plain:   ${plain.command.join(' ')}`);
  lines.push(`   wrapped: ${wrapped.command.join(' ')}${server.language === 'python' ? ` (PYTHONPATH=${join(out, 'wrapped/python')})` : ''}`);
  if (server.offline && NO_NETWORK === null) lines.push('   network: the machine\'s own (unshare refused a namespace of its own): its pinned answers hold offline only');
  if ((server.secrets ?? []).length > 0) lines.push(`   secrets looked for in every answer: ${server.secrets.length}, found ${problems.concat(results.flatMap((r) => r.problems)).filter((p) => p.includes('the secret')).length}`);
  lines.push(`   protocol revision: plain ${plain.protocolVersion ?? '-'}, wrapped ${wrapped.protocolVersion ?? '-'}`);
  if (toolsListIdentical !== null) lines.push(`   tools/list: ${toolsListIdentical ? 'identical' : 'DIFFERENT'}`);
  const rows = results.map((r, i) => [
    r.name,
    r.kind === 'failure' ? `failure ${r.expected.code}` : r.kind === 'arguments' ? `arguments ${r.expected.field}`
      : r.kind === 'answered' ? 'answered (same)' : r.kind,
    cell(plain.calls[i]),
    cell(wrapped.calls[i] ?? null, 34),
    r.problems.length === 0 ? 'ok' : 'FAIL',
  ]);
  if (rows.length > 0) lines.push(indent(table(['call', 'kind (wrapped must be)', 'plain', 'wrapped', 'check'], rows), '   '));
  lines.push(`   ${summary.calls} calls, ${summary.failures} failures: told by plain ${summary.toldPlain}, told wrapped ${summary.toldWrapped}`);
  lines.push('   what the model reads, plain then wrapped:');
  for (const [i, r] of results.entries()) {
    const sent = server.calls[i].arguments;
    lines.push(`   - ${r.name} (${r.tool} ${sent === undefined ? 'with no arguments' : JSON.stringify(sent)})`);
    for (const [side, a] of [['plain', plain.calls[i]], ['wrapped', wrapped.calls[i] ?? null]]) {
      if (a === null) continue;
      const head = a.channel === 'jsonrpc-error' ? `JSON-RPC error ${a.code}` : `result, isError ${a.isError}`;
      lines.push(`     ${side} (${head}):`);
      lines.push(indent(masked(a.text, server.calls[i].mask).replaceAll(dir, '${dir}') || '(no text)', '       '));
      if (a.dataText) lines.push(indent(`data: ${a.dataText}`, '       '));
    }
    for (const p of r.problems) lines.push(`     PROBLEM: ${p}`);
  }
  for (const p of problems) lines.push(`   PROBLEM: ${p}`);
  return { summary, text: lines.join('\n') };
}

const started = Date.now();
// The servers run side by side (each its plain run, then its wrapped one): they share nothing.
const checked = await Promise.all(chosen.map(check));
for (const { text } of checked) console.log(`${text}\n`);

const servers = checked.map((c) => c.summary);
console.log('Published servers, plain and with the one line (failures told: the model reads what failed, not INTERNAL_ERROR):');
console.log(table(
  ['server', 'version', 'built on', 'the one line', 'calls', 'failures', 'told plain', 'told wrapped', 'tools/list', 'problems'],
  servers.map((s) => [s.name, s.version, s.api, s.wrap, s.calls, s.failures, s.toldPlain, s.toldWrapped,
    s.toolsListIdentical === null ? '-' : s.toolsListIdentical ? 'identical' : 'DIFFERENT', s.problems.length]),
));
mkdirSync(out, { recursive: true });
const total = servers.reduce((n, s) => n + s.problems.length, 0);
writeFileSync(join(out, 'summary.json'), `${JSON.stringify({ seconds: Math.round((Date.now() - started) / 100) / 10, problems: total, servers }, null, 2)}\n`);
console.log(`summary: ${join('build/published', 'summary.json')}`);
// A server whose run broke off counts every call of its plan as failed.
const callsChecked = servers.reduce((n, s) => n + (s.results.length > 0 ? s.results.length : s.planned), 0);
const callsFailed = servers.reduce((n, s) => n + (s.results.length > 0 ? s.results.filter((r) => r.problems.length > 0).length
  : s.problems.length > 0 ? s.planned : 0), 0);
if (total > 0) {
  console.log(`\nFAILED: ${total} problem${total === 1 ? '' : 's'}`);
  for (const s of servers) for (const p of s.problems) console.log(`  - ${s.name} ${p}`);
}
console.log(`published: ${callsChecked - callsFailed} passed, ${callsFailed} failed`);
process.exit(total > 0 ? 1 : 0);
