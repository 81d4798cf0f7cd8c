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

for (const [path, how] of [[component, 'scripts/build-component'], [jco, 'scripts/setup']]) {
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
  'transpile', component, '-o', generated, '--name', 'envelope',
  '--instantiation', 'sync', '--no-nodejs-compat', '--minify', '--quiet',
]);
// The loaders hand over exactly one core module, which imports only the
// resources' (idempotency, ledger) constructor hooks. The two other modules
// jco names are wit-component's shim (a table the host calls each resource's
// destructor through) and its fixup (which puts the destructors there): the
// package stands in for both in JavaScript (src/component.ts), so every
// runtime, Workers and useCoreModule included, still needs only one module.
// They are checked to be exactly those two, then dropped.
const describe = (name) => {
  const module = new WebAssembly.Module(readFileSync(join(generated, name)));
  const list = (items) => items.map((i) => `${'module' in i ? `${i.module}:` : ''}${i.name}/${i.kind}`).sort().join(' ');
  return `imports [${list(WebAssembly.Module.imports(module))}] exports [${list(WebAssembly.Module.exports(module))}]`;
};
// One function per resource (idempotency, ledger).
const EXPECTED = {
  'envelope.core2.wasm': 'imports [] exports [$imports/table 0/function 1/function]',
  'envelope.core3.wasm': 'imports [:$imports/table :0/function :1/function] exports []',
};
const cores = readdirSync(generated).filter((f) => f.endsWith('.wasm')).sort();
const mainImports = describe('envelope.core.wasm').split(' exports ')[0];
const helpers = cores.filter((f) => f !== 'envelope.core.wasm');
// Built for size (opt-level "z"), the core keeps the ledger handle's drop
// glue in its constructor (never run: the handle is taken first), so it may
// import a [resource-drop] too; jco's bindings provide it.
const resourceHooks = /^imports \[((\[export\]mcp:envelope\/api@[0-9.]+:\[resource-(new|drop)\](idempotency|ledger)\/function) ?)+\]$/;
const news = ['idempotency', 'ledger'].every((r) => mainImports.includes(`[resource-new]${r}/function`));
if (cores[0] !== 'envelope.core.wasm' || !resourceHooks.test(mainImports) || !news ||
  helpers.join() !== Object.keys(EXPECTED).join() || helpers.some((f) => describe(f) !== EXPECTED[f])) {
  console.error(`build: the component now holds ${cores.map((f) => `${f} (${describe(f)})`).join(', ')}; ` +
    'the loaders expect envelope.core.wasm importing only the resources\' [resource-new] (and [resource-drop]) hooks, and src/component.ts stands in for the destructors\' shim and fixup only');
  process.exit(1);
}
for (const helper of helpers) rmSync(join(generated, helper));

const core = readFileSync(join(generated, 'envelope.core.wasm'));
writeFileSync(join(generated, 'core-wasm.js'),
  `// The component's core module, base64, for runtimes that cannot read it from a file (src/load/embedded.ts).\n` +
  `export const coreWasmBase64 = ${JSON.stringify(core.toString('base64'))};\n`);
writeFileSync(join(generated, 'core-wasm.d.ts'), 'export declare const coreWasmBase64: string;\n');

run(process.execPath, [join(pkg, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(pkg, 'tsconfig.json')]);
console.log(`built bindings/js (core module ${core.length} bytes)`);
