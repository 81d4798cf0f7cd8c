// Builds the package from the component: jco transpiles it into generated/
// (its JavaScript bindings and the core module, also written as base64 for
// runtimes that cannot read a file, src/load/embedded.ts), then the
// hand-written TypeScript goes into dist/.
// Needs build/mcp-envelope.wasm (scripts/build-component at the repository
// root) and the pinned jco in tools/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
const component = join(root, 'build', 'mcp-envelope.wasm');
const jco = join(root, 'tools', 'node_modules', '.bin', 'jco');
const generated = join(pkg, 'generated');

for (const [path, how] of [
  [component, 'scripts/build-component'],
  [jco, 'scripts/setup'],
]) {
  if (!existsSync(path)) {
    console.error(`build: ${path} is missing; run ${how} at the repository root first`);
    process.exit(1);
  }
}

// Runs a build step; on failure its own output (inherited) says why, and the build stops.
function run(command, args) {
  try {
    execFileSync(command, args, { stdio: 'inherit' });
  } catch {
    console.error(`build: ${command.split('/').pop()} failed (its output is above)`);
    process.exit(1);
  }
}

rmSync(generated, { recursive: true, force: true });
rmSync(join(pkg, 'dist'), { recursive: true, force: true });
mkdirSync(generated);

// --instantiation sync: the bindings take the compiled core module from
// src/component.ts, which gets it from the runtime's loader (#core-module).
run(jco, [
  'transpile',
  component,
  '-o',
  generated,
  '--name',
  'envelope',
  '--instantiation',
  'sync',
  '--no-nodejs-compat',
  '--minify',
  '--quiet',
]);
// The loaders hand over exactly one core module, and it imports nothing:
// the world exports only functions, so every runtime (Workers, which cannot
// compile wasm from bytes, and useCoreModule's callers) needs just that module.
const describe = (name) => {
  const module = new WebAssembly.Module(readFileSync(join(generated, name)));
  return WebAssembly.Module.imports(module)
    .map((i) => `${i.module}:${i.name}`)
    .join(' ');
};
const cores = readdirSync(generated)
  .filter((f) => f.endsWith('.wasm'))
  .sort();
if (cores.join() !== 'envelope.core.wasm' || describe('envelope.core.wasm') !== '') {
  console.error(
    `build: the component now holds ${cores.map((f) => `${f} (imports: ${describe(f) || 'none'})`).join(', ')}; ` +
      'the loaders expect one core module, envelope.core.wasm, importing nothing',
  );
  process.exit(1);
}

const core = readFileSync(join(generated, 'envelope.core.wasm'));
writeFileSync(
  join(generated, 'core-wasm.js'),
  `// The component's core module, base64, for runtimes that cannot read it from a file (src/load/embedded.ts).\n` +
    `export const coreWasmBase64 = ${JSON.stringify(core.toString('base64'))};\n`,
);
writeFileSync(join(generated, 'core-wasm.d.ts'), 'export declare const coreWasmBase64: string;\n');

run(process.execPath, [join(pkg, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(pkg, 'tsconfig.json')]);
console.log(`built bindings/js (core module ${core.length} bytes)`);
