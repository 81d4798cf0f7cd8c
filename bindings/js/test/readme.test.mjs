// The root README's JavaScript quick start runs as written against the package.
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
