// TypeScript users: the types check against the real MCP SDK 1.x and 2.x,
// FastMCP, Zod, Valibot and ArkType (a builder returned where a framework
// expects a CallToolResult, handler arguments typed from the input schema
// whichever validator wrote it, FastMCP's context and tool fields typed, a
// wrongly typed use refused): test/types/consumer.ts (SDK 1.x), sdk2.ts,
// fastmcp.ts.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const pkg = fileURLToPath(new URL('..', import.meta.url));

test('test/types/ compiles against the built package', () => {
  try {
    execFileSync(process.execPath, [`${pkg}node_modules/typescript/bin/tsc`, '-p', `${pkg}test/types`], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    throw new Error(`tsc refused test/types/:\n${error.stdout}${error.stderr}`);
  }
});
