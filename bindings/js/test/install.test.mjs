// Installing the package folder from a clone (`npm install ./bindings/js`):
// npm links the folder and runs its `prepare` step, which stops at once,
// naming the build commands, when the folder was never built; a built folder
// installs and works. The documented install, `--install-links`, copies the
// folder as a registry install would: a TypeScript project using SDK 1.x,
// SDK 2.x, FastMCP, the AI SDK and LangChain, each the project's own copy,
// type-checks against it, and an SDK 1.x server lists its tool's schema (one
// zod, the project's).
// (The packed tarball is test/pack.test.mjs.)
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const buildCommands = 'scripts/setup && scripts/build-component && (cd bindings/js && npm ci && npm run build)';
let work;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'mcp-envelope-install-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the package folder as a clone has it (no node_modules), with or without its build. */
function copyOfPackage(name, built) {
  const copy = join(work, name);
  cpSync(pkg, copy, {
    recursive: true,
    filter: (source) => {
      const top = source.slice(pkg.length).split('/').filter(Boolean)[0];
      return !['node_modules', ...(built ? [] : ['dist', 'generated'])].includes(top) && !basename(source).endsWith('.tgz');
    },
  });
  return copy;
}

/** A fresh project that runs `npm install [flags] <folder>`. */
function installInto(name, folder, flags = []) {
  const project = join(work, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  // As a user runs it: not under this package's own `npm test` (whose npm_config_* settings, --silent among them, would carry over).
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key)));
  // The cache first, the registry for the rest: `npm ci` caches tarballs but not the registry's package
  // documents an install resolves ranges with, so a fresh machine's cache cannot answer alone.
  const npm = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...flags, folder], {
    cwd: project,
    env,
    encoding: 'utf8',
  });
  return { project, ...npm };
}

test('a folder that was never built fails to install, naming the commands that build it', () => {
  const { status, stderr } = installInto('unbuilt-consumer', copyOfPackage('unbuilt', false));
  assert.notEqual(status, 0, 'npm install succeeded');
  assert.ok(stderr.includes('is not built') && stderr.includes(buildCommands), stderr);
});

test('a built folder installs and works', () => {
  const { project, status, stderr } = installInto('built-consumer', copyOfPackage('built', true));
  assert.equal(status, 0, stderr);
  const script =
    "import { render } from 'mcp-envelope'; process.stdout.write(render({ code: 'NOT_FOUND', message: 'gone' }).split('\\n')[0]);";
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
  assert.equal(out, '<tool_error code="NOT_FOUND" severity="error">');
});

/** The frameworks a user project installs itself, their validators, and the agent frameworks. */
const FRAMEWORKS = [
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  'fastmcp',
  'zod',
  'valibot',
  '@valibot/to-json-schema',
  'arktype',
  'ai',
  '@ai-sdk/mcp',
  '@langchain/core',
  '@langchain/langgraph',
  '@langchain/mcp-adapters',
];

/**
 * Puts FRAMEWORKS and everything they depend on into the project's
 * node_modules as the project's own copies (hard links of this package's
 * development copies: other paths, so Node and tsc load them apart).
 */
function giveFrameworks(project) {
  const from = join(pkg, 'node_modules');
  const wanted = new Set();
  const queue = [...FRAMEWORKS];
  while (queue.length > 0) {
    const name = queue.shift();
    // A package the install already put there (the package's own dependencies, ajv and ajv-formats) stays as npm put it.
    const installed = existsSync(join(project, 'node_modules', name, 'package.json'));
    if (wanted.has(name) || installed || !existsSync(join(from, name, 'package.json'))) continue;
    wanted.add(name);
    const manifest = JSON.parse(readFileSync(join(from, name, 'package.json'), 'utf8'));
    const optional = manifest.peerDependenciesMeta ?? {};
    queue.push(
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((p) => !optional[p]?.optional),
    );
  }
  const byFolder = new Map();
  for (const name of wanted) {
    const folder = join(project, 'node_modules', dirname(name));
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), join(from, name)]);
  }
  for (const [folder, sources] of byFolder) {
    mkdirSync(folder, { recursive: true });
    execFileSync('cp', ['-al', ...sources, folder]);
  }
}

test('the documented install (--install-links) type-checks SDK 1.x, SDK 2.x, FastMCP and agent-framework users, and lists their schemas', () => {
  const { project, status, stderr } = installInto('typed-consumer', copyOfPackage('typed', true), ['--install-links']);
  assert.equal(status, 0, stderr);
  giveFrameworks(project);
  // The users of test/types/, in a project of their own.
  const types = fileURLToPath(new URL('./types/', import.meta.url));
  for (const file of readdirSync(types)) cpSync(join(types, file), join(project, file));
  try {
    execFileSync(process.execPath, [join(pkg, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    throw new Error(`tsc refused the user project:\n${error.stdout}${error.stderr}`);
  }
  const script = `
    import { Client } from '@modelcontextprotocol/sdk/client/index.js';
    import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
    import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
    import * as z from 'zod';
    import { registerTool } from 'mcp-envelope/mcp';
    import 'mcp-envelope/fastmcp';
    const server = new McpServer({ name: 'billing', version: '1.0.0' });
    registerTool(server, 'get_invoice', { inputSchema: { id: z.string() } }, async () => ({ content: [] }));
    const client = new Client({ name: 'c', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    const [tool] = (await client.listTools()).tools;
    process.stdout.write(JSON.stringify(tool.inputSchema.properties));
    await client.close();`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
  assert.equal(out, '{"id":{"type":"string"}}');
});

test("the type declarations import nothing outside the package, so even a linked install's types resolve no second zod", () => {
  const dist = join(pkg, 'dist');
  const files = readdirSync(dist, { recursive: true }).filter((file) => String(file).endsWith('.d.ts'));
  assert.ok(files.includes('mcp.d.ts') && files.includes('fastmcp.d.ts'), files.join(', '));
  for (const file of files) {
    const specifiers = [...readFileSync(join(dist, String(file)), 'utf8').matchAll(/\bfrom\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
      (match) => match[1] ?? match[2],
    );
    assert.deepEqual(
      specifiers.filter((specifier) => !specifier.startsWith('.')),
      [],
      `dist/${file}`,
    );
  }
});
