// Packaging: `npm pack`, install the tarball into a fresh project as a user
// would, import it from JavaScript and TypeScript, render the seed example.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(pkg, 'node_modules', 'typescript', 'bin', 'tsc');
const seedXml = `<tool_error code="NOT_FOUND" severity="error">
  <message>No invoice with that ID</message>
  <recovery>List invoices first, then retry with a real ID</recovery>
  <available_actions>
    <action>billing.list_invoices</action>
  </available_actions>
  <details>
    <detail key="requestedId">inv_2026_9999</detail>
  </details>
  <retry_after>30 seconds</retry_after>
</tool_error>`;

let work;
let project;
let packed;

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

before(() => {
  work = mkdtempSync(join(tmpdir(), 'mcp-envelope-pack-'));
  [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], pkg));
  project = join(work, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The cache first, the registry for the rest: `npm ci` caches tarballs but not the registry's package
  // documents an install resolves ranges with, so a fresh machine's cache cannot answer alone.
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], project);
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the built package and nothing else', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const needed of [
    'dist/index.js',
    'dist/index.d.ts',
    'dist/server.js',
    'dist/agent.js',
    'dist/contract.js',
    'dist/raw.js',
    'dist/mcp.js',
    'dist/component.js',
    'dist/full-component.js',
    'dist/load/node.js',
    'dist/load/worker.js',
    'dist/load/embedded.js',
    'dist/load/node-full.js',
    'dist/load/worker-full.js',
    'dist/load/embedded-full.js',
    'generated/envelope.js',
    'generated/envelope-core-wasm.js',
    'generated/envelope.core.wasm',
    'generated/full.js',
    'generated/full-core-wasm.js',
    'generated/full.core.wasm',
    'package.json',
    'README.md',
    'LICENSE-MIT',
    'LICENSE-APACHE',
  ]) {
    assert.ok(files.includes(needed), `${needed} missing from the tarball`);
  }
  assert.deepEqual(
    files.filter(
      (f) =>
        !/^dist\//.test(f) &&
        ![
          'package.json',
          'README.md',
          'LICENSE-MIT',
          'LICENSE-APACHE',
          'generated/envelope.js',
          'generated/envelope-core-wasm.js',
          'generated/envelope.core.wasm',
          'generated/full.js',
          'generated/full-core-wasm.js',
          'generated/full.core.wasm',
        ].includes(f),
    ),
    [],
  );
  assert.equal(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).license, 'MIT OR Apache-2.0');
});

test('the package imports only its own files: Node built-ins only in the Node loader, no WASI shims, no packages', () => {
  const reachingOut = {
    'dist/fastmcp.js': ['node:async_hooks', 'fastmcp'],
    'dist/langchain.js': ['@langchain/langgraph'],
    'dist/low-level.js': ['ajv/dist/2020.js', 'ajv/dist/2019.js', 'ajv', 'ajv-formats'],
  };
  const js = packed.files.map((f) => f.path).filter((f) => f.endsWith('.js') && !(f in reachingOut));
  const specifiers = /(?:^|[;\s}])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]|require\s*\(/g;
  for (const file of js) {
    const source = readFileSync(join(project, 'node_modules', 'mcp-envelope', file), 'utf8');
    for (const match of source.matchAll(specifiers)) {
      const specifier = match[1] ?? match[2] ?? 'require(';
      const allowed =
        specifier.startsWith('./') ||
        specifier.startsWith('../') ||
        specifier === '#core-module' ||
        specifier === '#full-core-module' ||
        (['dist/load/node.js', 'dist/load/node-full.js'].includes(file) && specifier === 'node:fs');
      assert.ok(allowed, `${file} imports ${specifier}`);
    }
  }
  // Only two integrations reach outside the package for an optional peer dependency: the FastMCP integration for
  // FastMCP itself, whose sessions it wraps (and Node's async_hooks, FastMCP being Node-only, to keep a call's request
  // for a ledger function), and the LangChain adapter for LangGraph, whose interrupt ends a run. The
  // low-level Server's wrapper loads the package's two dependencies, ajv and ajv-formats, on its first argument check.
  // The MCP SDK integration imports no SDK (and no Zod), the AI SDK adapter nothing of the AI SDK.
  for (const [file, packages] of Object.entries(reachingOut)) {
    const source = readFileSync(join(project, 'node_modules', 'mcp-envelope', file), 'utf8');
    assert.deepEqual(
      [...source.matchAll(specifiers)].map((m) => m[1] ?? m[2]).filter((s) => !s.startsWith('.')),
      packages,
      file,
    );
  }
});

test('the installed package renders the seed example', () => {
  const script = `
    import { render, toolError } from 'mcp-envelope';
    const spec = { code: 'NOT_FOUND', message: 'No invoice with that ID', suggestion: 'List invoices first, then retry with a real ID',
      availableActions: ['billing.list_invoices'], details: { requestedId: 'inv_2026_9999' }, retryAfter: 30 };
    process.stdout.write(JSON.stringify({ xml: render(spec), isError: toolError('NOT_FOUND', { message: 'x' }).isError }));`;
  writeFileSync(join(project, 'seed.mjs'), script);
  const out = JSON.parse(execFileSync(process.execPath, ['seed.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.equal(out.xml, seedXml);
  assert.equal(out.isError, true);
});

test("the installed package's other entry points run on the full component it ships", () => {
  const script = `
    import { idempotencyKeyArgument } from 'mcp-envelope/server';
    import { contractLock } from 'mcp-envelope/contract';
    process.stdout.write(JSON.stringify({ argument: idempotencyKeyArgument(), lock: typeof JSON.parse(contractLock([])) }));`;
  writeFileSync(join(project, 'full.mjs'), script);
  const out = JSON.parse(execFileSync(process.execPath, ['full.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.deepEqual(out, { argument: 'idempotency_key', lock: 'object' });
});

test('the installed package has the entry points, each with the values of the built one', () => {
  const entries = ['mcp-envelope', 'mcp-envelope/server', 'mcp-envelope/agent', 'mcp-envelope/contract', 'mcp-envelope/raw'];
  const names = `const entries = ${JSON.stringify(entries)};
    const names = await Promise.all(entries.map(async (entry) => Object.keys(await import(entry)).sort()));
    process.stdout.write(JSON.stringify(names));`;
  const installed = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', names], { cwd: project, encoding: 'utf8' }));
  const built = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', names], { cwd: pkg, encoding: 'utf8' }));
  assert.deepEqual(installed, built);
  assert.deepEqual(
    installed.map((list) => list.length),
    [17, 19, 4, 3, 36],
  );
});

test('TypeScript users get the types: a builder is a CallToolResult, a bad format does not compile', () => {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        lib: ['ES2022', 'DOM'],
        types: [],
      },
      files: ['use.ts'],
    }),
  );
  writeFileSync(
    join(project, 'use.ts'),
    `
    import { error, parseEnvelope, render, toolError, type CallToolResult, type EnvelopeSpec } from 'mcp-envelope';
    import { contractDiff, type ContractDelta } from 'mcp-envelope/contract';
    import { decide, type Decision } from 'mcp-envelope/agent';
    import { renderJson } from 'mcp-envelope/raw';
    import { Ledger, type StateStore } from 'mcp-envelope/server';
    const spec: EnvelopeSpec = { code: 'RATE_LIMITED', message: 'slow', retryAfter: 30 };
    const text: string = render(spec, { format: 'text' });
    const built: CallToolResult = error('NOT_FOUND', 'gone').suggest('List first').actions('a', 'b');
    const result: CallToolResult = toolError('CUSTOM_CODE', { message: 'x', severity: 'warning' });
    const code: string | undefined = parseEnvelope(result)?.code;
    const decision: Decision = decide(result);
    const deltas: ContractDelta[] = contractDiff({ tools: [] }, { tools: [] });
    const json: string = renderJson(JSON.stringify(spec), { format: 'json' });
    const store: StateStore | undefined = undefined;
    const failed: CallToolResult = new Ledger().failure('t', spec);
    export { text, built, code, decision, deltas, json, store, failed };
  `,
  );
  execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  writeFileSync(
    join(project, 'use.ts'),
    `import { render } from 'mcp-envelope';\nrender({ code: 'X', message: 'm' }, { format: 'yaml' });\n`,
  );
  assert.throws(
    () => execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' }),
    (e) => /'"yaml"' is not assignable to type 'Format/.test(String(e.stdout)),
  );
});
