// The root README's JavaScript quick start runs as written against the package.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

test("the README's JavaScript quick start runs as written", () => {
  const section = readme.split('\n## ').find((s) => s.startsWith('Quick start: JavaScript'));
  if (!section) throw new Error('the README has no "Quick start: JavaScript" section');
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('the quick start has no js code block');
  // Run from the package folder, where `import 'mcp-envelope'` resolves to this package.
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: pkg, stdio: 'pipe' });
});

// The root README shows each recovery feature in TypeScript that is also
// plain JavaScript: every such block of that section runs as written.
const recovery = readme.split('\n## ').find((s) => s.startsWith('Recovery features'));
const examples = [...(recovery ?? '').matchAll(/\n### (.+)\n[\s\S]*?```ts\n([\s\S]*?)```/g)];

test('the README has one TypeScript example per recovery feature', () => {
  assert.deepEqual(examples.map(([, title]) => title), ['Size caps', 'Upstream failures', 'Exceptions', 'Repeat ledger', 'Empty results',
    'Partial results', 'Permission and authentication', 'Words in en and pt-BR', 'ToolFailure metadata']);
});

for (const [, title, code] of examples) {
  test(`the README's "${title}" TypeScript example runs as written`, () => {
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: pkg, stdio: 'pipe', encoding: 'utf8' });
    } catch (error) {
      throw new Error(`"${title}" failed:\n${error.stderr}`);
    }
  });
}
