// Installing the package folder from a clone (`npm install ./bindings/js`):
// npm links the folder and runs its `prepare` step, which stops at once,
// naming the build commands, when the folder was never built; a built folder
// installs and works. (The packed tarball is test/pack.test.mjs.)
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/** A fresh project that runs `npm install <folder>`. */
function installInto(name, folder) {
  const project = join(work, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  // As a user runs it: not under this package's own `npm test` (whose npm_config_* settings, --silent among them, would carry over).
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key)));
  const npm = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', folder], { cwd: project, env, encoding: 'utf8' });
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
  const script = "import { render } from 'mcp-envelope'; process.stdout.write(render({ code: 'NOT_FOUND', message: 'gone' }).split('\\n')[0]);";
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
  assert.equal(out, '<tool_error code="NOT_FOUND" severity="error">');
});
