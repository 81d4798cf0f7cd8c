// The root README's JavaScript quick start, and the TypeScript and JavaScript
// of docs/recovery-features.md and docs/contract-diff.md, run as written
// against the package.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const recoveryFeatures = readFileSync(new URL('../../../docs/recovery-features.md', import.meta.url), 'utf8');
const contractDiff = readFileSync(new URL('../../../docs/contract-diff.md', import.meta.url), 'utf8');

test("the README's JavaScript quick start runs as written", () => {
  const section = readme.split('\n## ').find((s) => s.startsWith('Quick start: JavaScript'));
  if (!section) throw new Error('the README has no "Quick start: JavaScript" section');
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('the quick start has no js code block');
  // Run from the package folder, where `import 'mcp-envelope'` resolves to this package.
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: pkg, stdio: 'pipe' });
});

// docs/recovery-features.md shows each recovery feature in TypeScript that is
// also plain JavaScript: every such block runs as written.
const examples = [...recoveryFeatures.matchAll(/\n## (.+)\n[\s\S]*?```ts\n([\s\S]*?)```/g)];

test('docs/recovery-features.md has one TypeScript example per recovery feature', () => {
  assert.deepEqual(
    examples.map(([, title]) => title),
    [
      'Size caps',
      'Upstream failures',
      'Exceptions',
      'Repeat ledger',
      'Empty results',
      'Partial results',
      'Permission and authentication',
      'Words in en and pt-BR',
      'ToolFailure metadata',
    ],
  );
});

for (const [, title, code] of examples) {
  test(`the "${title}" TypeScript example runs as written`, () => {
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: pkg, stdio: 'pipe', encoding: 'utf8' });
    } catch (error) {
      throw new Error(`"${title}" failed:\n${error.stderr}`);
    }
  });
}

// This package's README opens with the same server in each framework: each
// runs here as written, over stdio, and a real MCP client gets the texts the
// README shows after them.
const packageReadme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const opening = packageReadme.split('\n## ').find((s) => s.startsWith('A server, in each framework')) ?? '';
const servers = [...opening.matchAll(/\n([^\n]+):\n\n```js\n([\s\S]*?)```/g)].map(([, title, code]) => ({ title, code }));
const answers = (/```text\n([\s\S]*?)\n```/.exec(opening)?.[1] ?? '').split('\n\n').map((block) => {
  const [call, ...text] = block.split('\n');
  const at = call.indexOf(' ');
  return { tool: call.slice(0, at), args: JSON.parse(call.slice(at + 1)), text: text.join('\n') };
});

test('the package README opens with a server for SDK 1.x, SDK 2.x and FastMCP, and the answers they give', () => {
  assert.deepEqual(
    servers.map((s) => s.title),
    [
      'The MCP TypeScript SDK 1.x (`mcp-envelope/mcp`)',
      'The MCP TypeScript SDK 2.x (`mcp-envelope/mcp` too), here with Valibot, one of the Standard Schema validators 2.x takes',
      'FastMCP (`mcp-envelope/fastmcp`)',
    ],
  );
  assert.deepEqual(
    answers.map((a) => a.tool),
    ['get_invoice', 'get_invoice', 'get_invoices', 'get_invoice', 'get_invoice'],
  );
});

for (const { title, code } of servers) {
  test(`the README's server runs as written and answers as shown: ${title}`, async () => {
    const client = new Client({ name: 'readme', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--input-type=module', '-e', code],
      cwd: pkg,
      stderr: 'pipe',
    });
    let logged = '';
    transport.stderr?.on('data', (chunk) => {
      logged += chunk;
    });
    await client.connect(transport);
    try {
      const sent = [];
      for (const { tool, args } of answers) {
        try {
          const result = await client.callTool({ name: tool, arguments: args });
          // The correlation id is fresh per call: the README's stands for it.
          sent.push({
            tool,
            args,
            text: result.content
              .map((c) => c.text)
              .join('\n')
              .replace(/err_[0-9a-f]{12}/g, 'err_5f0c1c6e6d1a'),
            isError: result.isError === true,
          });
        } catch (error) {
          // A JSON-RPC error, as the client got it (SDK 1.x's McpError prefixes the message with its code).
          const message = error.message.replace(`MCP error ${error.code}: `, '');
          sent.push({
            tool,
            args,
            text: `JSON-RPC error ${error.code}: ${message}\ndata: ${JSON.stringify(error.data)}`,
            isError: 'error',
          });
        }
      }
      assert.deepEqual(
        sent,
        answers.map((a, i) => ({ ...a, isError: i === 2 ? 'error' : i < 4 })),
      );
      assert.ok(logged.includes('SyntaxError') && logged.includes('hunter2'), `the exception reaches the log: ${logged}`);
    } finally {
      await client.close();
    }
  });
}

test("docs/contract-diff.md's JavaScript example runs as written", () => {
  const section = contractDiff.split('\n## ').find((s) => s.startsWith('From code, and in each integration'));
  const code = /```js\n([\s\S]*?)```/.exec(section ?? '')?.[1];
  if (!code) throw new Error('docs/contract-diff.md has no js code block in "From code, and in each integration"');
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: pkg, stdio: 'pipe' });
});
