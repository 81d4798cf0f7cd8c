// npm's `prepare` step. npm runs it when this folder is installed as a
// directory (`npm install ./bindings/js`: a symlink, with no build of its own),
// and also for the package's own `npm ci` and `npm pack`. Installed into
// another project (npm sets INIT_CWD to where it was started) it stops the
// install at once when the package was never built: dist/ and generated/ are
// made by `npm run build` and are not in git.
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = realpathSync(fileURLToPath(new URL('..', import.meta.url)));
const from = process.env.INIT_CWD === undefined ? pkg : realpathSync(process.env.INIT_CWD);
const built = [
  'dist/index.js',
  'dist/mcp.js',
  'generated/envelope.core.wasm',
  'generated/envelope-core-wasm.js',
  'generated/full.core.wasm',
  'generated/full-core-wasm.js',
].every((f) => existsSync(join(pkg, f)));

if (from !== pkg && !built) {
  console.error(`mcp-envelope: ${pkg} is not built (dist/ and generated/ are made by its build, not kept in git).
Build it from the repository root first, then install it again:
  scripts/setup && scripts/build-component && (cd bindings/js && npm ci && npm run build)`);
  process.exit(1);
}
