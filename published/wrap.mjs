#!/usr/bin/env node
// Makes the wrapped copy of each published server mechanically: the
// installed server's own entry file, copied, with the one line mcp-envelope's
// README asks of its author inserted, and nothing else changed. A server whose
// code no longer has the shape the line goes into (a new version that moved
// things), or is built on another API than servers.mjs says, fails here,
// loudly, rather than being run plain under a wrapped name.
//
//   TypeScript SDK (`McpServer`, or the low-level `Server`): `import {
//     envelopeServer } from 'mcp-envelope/mcp';` after the import of that
//     class, and `envelopeServer(NAME);` right after the statement `const NAME
//     = new McpServer(...)` (or `new Server(...)`), whatever NAME is. The copy
//     is written next to the entry file (`dist/index.enveloped.js`) so its
//     relative imports and its node_modules (the server's own SDK copy among
//     them) resolve as the original's do.
//   FastMCP (the `fastmcp` package): `from mcp_envelope.fastmcp import
//     EnvelopeMiddleware` after the import of FastMCP, and
//     `middleware=[EnvelopeMiddleware()]` added to the one `NAME = FastMCP(...)`
//     (a server that already passes middleware is refused: ours must go first,
//     which is for its author to place). Copied as the SDK's servers are, below.
//   Python SDK (`MCPServer`): the line importing MCPServer from
//     mcp.server.mcpserver (or 1.x's FastMCP from mcp.server.fastmcp) becomes
//     `from mcp_envelope.mcp_server import EnvelopeMCPServer as MCPServer`, so
//     every other line stays as written.
//   Python SDK, low-level (`mcp.server.lowlevel.Server`): `from
//     mcp_envelope.lowlevel import envelope_server` after the import of Server,
//     and `NAME = envelope_server(NAME)` right after the statement `NAME =
//     Server(...)`, at its indentation.
//   A Python package's whole folder is copied to build/published/wrapped/python/,
//   which the harness puts first on PYTHONPATH; the installed distribution's
//   metadata stays where it is.
//
//   node published/wrap.mjs                    every server of servers.mjs (after
//                                              scripts/test-published's installs)
//   node published/wrap.mjs --ts-entry FILE    one TypeScript SDK server's entry
//                                              file (scripts/demo's filesystem server)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVERS } from './servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const wrappedPython = join(root, 'build/published/wrapped/python');

class PatternMissing extends Error {}

/** Where the wrapped copy of a TypeScript server's entry file goes: beside it, `NAME.enveloped.js`. */
export function envelopedPath(entry) {
  return entry.replace(/(\.[cm]?js)?$/, '.enveloped$1');
}

/** Writes the wrapped copy of a TypeScript server's entry file beside it; returns its path. */
function wrapTypeScriptEntry(entry) {
  const wrapped = envelopedPath(entry);
  writeFileSync(wrapped, wrapTypeScript(readFileSync(entry, 'utf8')));
  return wrapped;
}

/**
 * The index just past the `)` matching the `(` at `open`, skipping strings,
 * template literals and comments (`#` ones too for Python, `python` true).
 */
function closingParen(source, open, python = false) {
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    const c = source[i];
    if (c === '"' || c === "'" || c === '`') {
      // A string or template literal: skip to its unescaped end (a template's ${...} holds no parentheses
      // that could unbalance a constructor's options, and none of the servers nests one there).
      for (i += 1; i < source.length && source[i] !== c; i += 1) if (source[i] === '\\') i += 1;
    } else if ((c === '/' && source[i + 1] === '/' && !python) || (c === '#' && python)) {
      i = source.indexOf('\n', i);
      if (i < 0) break;
    } else if (c === '/' && source[i + 1] === '*' && !python) {
      i = source.indexOf('*/', i) + 1;
      if (i <= 0) break;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  throw new PatternMissing(`no ")" closes the "(" at offset ${open}`);
}

/** The TypeScript SDK's packages a server imports its server class from: 1.x's module and 2.x's package. */
const TS_SDK = String.raw`["'](?:@modelcontextprotocol\/sdk\/server\/(?:mcp|index)\.js|@modelcontextprotocol\/server)["']`;

/** The imports of `sdkClass` (`McpServer` or the low-level `Server`) from the SDK in an entry file's text. */
function typeScriptImports(source, sdkClass) {
  return [...source.matchAll(new RegExp(String.raw`^import\s*\{[^}]*\b${sdkClass}\b[^}]*\}\s*from\s*${TS_SDK};?[ \t]*$`, 'gm'))];
}

/** What a TypeScript entry file is built on: `high-level` (McpServer), `low-level` (Server) or `unknown`. */
export function typeScriptApi(source) {
  const high = typeScriptImports(source, 'McpServer').length > 0;
  const low = typeScriptImports(source, 'Server').length > 0;
  if (high === low) return 'unknown';
  return high ? 'high-level' : 'low-level';
}

/**
 * The entry file's text with the TypeScript one line inserted after `new McpServer(...)`, or after the
 * low-level `new Server(...)` when it is built on that; throws PatternMissing when the shape is not there.
 */
export function wrapTypeScript(source) {
  const api = typeScriptApi(source);
  if (api === 'unknown') throw new PatternMissing('expected an import of McpServer or of the low-level Server from the SDK, not both or neither');
  const sdkClass = api === 'high-level' ? 'McpServer' : 'Server';
  const imports = typeScriptImports(source, sdkClass);
  if (imports.length !== 1) throw new PatternMissing(`expected one import of ${sdkClass} from the SDK, found ${imports.length}`);
  const made = [...source.matchAll(new RegExp(String.raw`^([ \t]*)(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*new\s+${sdkClass}\s*\(`, 'gm'))];
  if (made.length !== 1) throw new PatternMissing(`expected one statement \`const NAME = new ${sdkClass}(...)\`, found ${made.length}`);
  const [statement, indent, name] = made[0];
  let end = closingParen(source, made[0].index + statement.length - 1);
  if (source[end] === ';') end += 1;
  const importEnd = imports[0].index + imports[0][0].length;
  return (
    source.slice(0, importEnd) +
    "\nimport { envelopeServer } from 'mcp-envelope/mcp';" +
    source.slice(importEnd, end) +
    `\n${indent}envelopeServer(${name});` +
    source.slice(end)
  );
}

/** The module's text with the Python one line in place; throws PatternMissing when there is no such import. */
export function wrapPython(source) {
  const lines = source.split('\n');
  const at = [];
  for (const [i, line] of lines.entries()) {
    const m = /^from (mcp\.server\.mcpserver|mcp\.server\.fastmcp) import (.+)$/.exec(line);
    if (m === null) continue;
    const names = m[2].replace(/[()]/g, '').split(',').map((n) => n.trim()).filter(Boolean);
    const sdkClass = m[1] === 'mcp.server.mcpserver' ? 'MCPServer' : 'FastMCP';
    if (!names.includes(sdkClass)) continue;
    at.push({ i, module: m[1], names, sdkClass });
  }
  if (at.length !== 1) throw new PatternMissing(`expected one line importing MCPServer (or 1.x's FastMCP) from the SDK, found ${at.length}`);
  const { i, module, names, sdkClass } = at[0];
  const others = names.filter((n) => n !== sdkClass);
  const ours = `from mcp_envelope.mcp_server import EnvelopeMCPServer as ${sdkClass}`;
  lines.splice(i, 1, ...(others.length > 0 ? [`from ${module} import ${others.join(', ')}`, ours] : [ours]));
  return lines.join('\n');
}

/**
 * The module's text with the low-level Server's one line in place: the import after the one importing
 * Server (from mcp.server, mcp.server.lowlevel or mcp.server.lowlevel.server), and `NAME =
 * envelope_server(NAME)` after the one statement `NAME = Server(...)`; throws PatternMissing when the shape
 * is not there.
 */
export function wrapLowLevelPython(source) {
  const imports = [...source.matchAll(/^from mcp\.server(?:\.lowlevel(?:\.server)?)? import (\([^)]*\)|.*)$/gm)]
    .filter((m) => m[1].replace(/[()]/g, '').split(',').map((n) => n.trim()).includes('Server'));
  if (imports.length !== 1) throw new PatternMissing(`expected one line importing the low-level Server from the SDK, found ${imports.length}`);
  const made = [...source.matchAll(/^([ \t]*)([A-Za-z_]\w*)\s*=\s*Server\s*\(/gm)];
  if (made.length !== 1) throw new PatternMissing(`expected one statement \`NAME = Server(...)\`, found ${made.length}`);
  const [statement, indent, name] = made[0];
  const close = closingParen(source, made[0].index + statement.length - 1, true);
  // The line goes after the statement's line, so a comment closing it stays where it was.
  const lineEnd = source.indexOf('\n', close);
  const end = lineEnd < 0 ? source.length : lineEnd;
  const importEnd = imports[0].index + imports[0][0].length;
  return (
    source.slice(0, importEnd) +
    '\nfrom mcp_envelope.lowlevel import envelope_server' +
    source.slice(importEnd, end) +
    `\n${indent}${name} = envelope_server(${name})` +
    source.slice(end)
  );
}

/** The module's text with FastMCP's one line in place; throws PatternMissing when the shape is not there. */
export function wrapFastMCP(source) {
  const imports = [...source.matchAll(/^from fastmcp import (?:.*[ ,])?FastMCP\b.*$/gm)];
  if (imports.length !== 1) throw new PatternMissing(`expected one line importing FastMCP from fastmcp, found ${imports.length}`);
  const made = [...source.matchAll(/^[ \t]*([A-Za-z_]\w*)\s*=\s*FastMCP\s*\(/gm)];
  if (made.length !== 1) throw new PatternMissing(`expected one statement \`NAME = FastMCP(...)\`, found ${made.length}`);
  const open = made[0].index + made[0][0].length - 1;
  const close = closingParen(source, open, true) - 1;
  const args = source.slice(open + 1, close);
  if (/\bmiddleware\s*=/.test(args)) throw new PatternMissing('its FastMCP(...) already passes middleware: EnvelopeMiddleware must go first, by hand');
  const ours = /^\s*$/.test(args) ? 'middleware=[EnvelopeMiddleware()]' : `${args.trimEnd().endsWith(',') ? ' ' : ', '}middleware=[EnvelopeMiddleware()]`;
  const importEnd = imports[0].index + imports[0][0].length;
  return (
    source.slice(0, importEnd) +
    '\nfrom mcp_envelope.fastmcp import EnvelopeMiddleware' +
    source.slice(importEnd, open + 1) +
    args.trimEnd() +
    ours +
    args.slice(args.trimEnd().length) +
    source.slice(close)
  );
}

/**
 * What a Python package is built on: `high-level` (the mcp SDK's MCPServer, 1.x's FastMCP), `fastmcp` (the
 * fastmcp package's FastMCP) or `low-level` (mcp.server.lowlevel.Server).
 */
export function pythonApi(files) {
  const all = files.map((f) => f.text).join('\n');
  if (/^from mcp\.server\.(mcpserver|fastmcp) import .*\b(MCPServer|FastMCP)\b/m.test(all)) return 'high-level';
  if (/^from fastmcp import (?:.*[ ,])?FastMCP\b/m.test(all)) return 'fastmcp';
  if (/^from mcp\.server(\.lowlevel)? import .*\bServer\b|^from mcp\.server\.lowlevel\.server import/m.test(all)) return 'low-level';
  return 'unknown';
}

function pythonFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === '__pycache__') continue;
    if (statSync(path).isDirectory()) found.push(...pythonFiles(path));
    else if (entry.endsWith('.py')) found.push({ path, text: readFileSync(path, 'utf8') });
  }
  return found;
}

/** The installed package folder of a Python module, as the published venv's interpreter finds it. */
function installedPackage(python, module) {
  return execFileSync(python, ['-c', `import os, ${module}; print(os.path.dirname(${module}.__file__))`], { encoding: 'utf8' }).trim();
}

/** The venv a Python server of servers.mjs runs in: its own `venv`, or `.venv`. */
export function pythonOf(server) {
  return join(here, server.venv ?? '.venv', 'bin/python');
}

/** Refuses a server built on another API than servers.mjs lists it as (`wrap`: `one-line` or `low-level`). */
function checkListed(server, api) {
  const lowLevel = api === 'low-level';
  if (lowLevel !== (server.wrap === 'low-level') || api === 'unknown') {
    throw new PatternMissing(`listed as ${server.wrap}, but it is built on the ${api} API`);
  }
}

function wrapOne(server) {
  if (server.language === 'js') {
    const entry = join(here, server.entry);
    checkListed(server, typeScriptApi(readFileSync(entry, 'utf8')));
    const wrapped = wrapTypeScriptEntry(entry);
    return `${relative(root, wrapped)} (envelopeServer after new ${server.wrap === 'low-level' ? 'Server' : 'McpServer'})`;
  }
  const installed = installedPackage(pythonOf(server), server.module);
  const files = pythonFiles(installed);
  const api = pythonApi(files);
  checkListed(server, api);
  const wrap = { 'high-level': wrapPython, fastmcp: wrapFastMCP, 'low-level': wrapLowLevelPython }[api];
  const target = join(wrappedPython, server.module);
  rmSync(target, { recursive: true, force: true });
  cpSync(installed, target, { recursive: true, filter: (src) => !src.includes('__pycache__') });
  let changed = 0;
  for (const file of files) {
    let text;
    try {
      text = wrap(file.text);
    } catch (e) {
      if (e instanceof PatternMissing) continue;
      throw e;
    }
    writeFileSync(join(target, relative(installed, file.path)), text);
    changed += 1;
  }
  if (changed !== 1) throw new PatternMissing(`expected one module to take the one line, found ${changed}`);
  const line = { 'high-level': 'EnvelopeMCPServer for MCPServer', fastmcp: 'EnvelopeMiddleware in FastMCP(...)', 'low-level': 'envelope_server after Server(...)' }[api];
  return `${relative(root, target)} (${line})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--ts-entry') {
  if (process.argv.length !== 4) {
    console.error('usage: node published/wrap.mjs [--ts-entry FILE]');
    process.exit(2);
  }
  try {
    console.log(`wrap: ${relative(process.cwd(), wrapTypeScriptEntry(process.argv[3]))}`);
  } catch (e) {
    if (!(e instanceof PatternMissing)) throw e;
    console.error(`wrap: ${process.argv[3]}: ${e.message}; the one line has nowhere to go`);
    process.exit(1);
  }
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.length > 2) {
    console.error('usage: node published/wrap.mjs [--ts-entry FILE]');
    process.exit(2);
  }
  let failed = false;
  for (const server of SERVERS) {
    try {
      console.log(`wrap: ${server.name}: ${wrapOne(server)}`);
    } catch (e) {
      if (!(e instanceof PatternMissing)) throw e;
      console.error(`wrap: ${server.name} (${server.package} ${server.version}): ${e.message}; the one line has nowhere to go`);
      failed = true;
    }
  }
  if (!existsSync(wrappedPython)) console.log('wrap: no Python server was wrapped');
  process.exit(failed ? 1 : 0);
}
