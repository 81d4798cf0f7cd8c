// TypeScript users: the types check against the real MCP SDK and Zod (a
// builder returned where the SDK expects a CallToolResult, handler arguments
// typed from the input schema, a wrongly typed use refused).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const pkg = fileURLToPath(new URL('..', import.meta.url));

test('test/types/consumer.ts compiles against the built package', () => {
  try {
    execFileSync(process.execPath, [`${pkg}node_modules/typescript/bin/tsc`, '-p', `${pkg}test/types`], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    throw new Error(`tsc refused test/types/consumer.ts:\n${error.stdout}${error.stderr}`);
  }
});
