// Builds the package from the two components: jco transpiles each into
// generated/ (its JavaScript bindings and its core module, also written as
// base64 for runtimes that cannot read a file, src/load/embedded.ts); the
// envelope component serves the main entry, the full one the other entries
// (src/component.ts). The wire shapes' types are generated from the core's
// JSON Schema into src/generated/wire.ts (json-schema-to-typescript, pinned;
// types.ts re-exports them); then the TypeScript goes into dist/.
// Needs build/envelope.wasm and build/full.wasm (scripts/build-component at
// the repository root), the pinned jco in tools/ and cargo (the schema's
// printer, tools/wire-schema).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
// Each component by the name its bindings and core module get in generated/.
const components = ['envelope', 'full'];
const componentPath = (name) => join(root, 'build', `${name}.wasm`);
const jco = join(root, 'tools', 'node_modules', '.bin', 'jco');
const generated = join(pkg, 'generated');
const wireTypes = join(pkg, 'src', 'generated');

for (const [path, how] of [...components.map((name) => [componentPath(name), 'scripts/build-component']), [jco, 'scripts/setup']]) {
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
rmSync(wireTypes, { recursive: true, force: true });
rmSync(join(pkg, 'dist'), { recursive: true, force: true });
mkdirSync(generated);

// --instantiation sync: the bindings take the compiled core module from
// src/component.ts, which gets it from the runtime's loader (#core-module,
// #full-core-module). Both components export the same `types` and `envelope`
// interfaces, so their type files under generated/interfaces/ are the same.
for (const name of components) {
  run(jco, [
    'transpile',
    componentPath(name),
    '-o',
    generated,
    '--name',
    name,
    '--instantiation',
    'sync',
    '--no-nodejs-compat',
    '--minify',
    '--quiet',
  ]);
}
// The loaders hand over exactly one core module per component, and it
// imports nothing: the worlds export only functions, so every runtime
// (Workers, which cannot compile wasm from bytes, and useCoreModule's
// callers) needs just that module.
const describe = (file) => {
  const module = new WebAssembly.Module(readFileSync(join(generated, file)));
  return WebAssembly.Module.imports(module)
    .map((i) => `${i.module}:${i.name}`)
    .join(' ');
};
const cores = readdirSync(generated)
  .filter((f) => f.endsWith('.wasm'))
  .sort();
const expected = components.map((name) => `${name}.core.wasm`).sort();
if (cores.join() !== expected.join() || cores.some((f) => describe(f) !== '')) {
  console.error(
    `build: the components now hold ${cores.map((f) => `${f} (imports: ${describe(f) || 'none'})`).join(', ')}; ` +
      `the loaders expect one core module per component, ${expected.join(' and ')}, importing nothing`,
  );
  process.exit(1);
}

const sizes = [];
for (const name of components) {
  const core = readFileSync(join(generated, `${name}.core.wasm`));
  sizes.push(`${name} ${core.length}`);
  writeFileSync(
    join(generated, `${name}-core-wasm.js`),
    `// The ${name} component's core module, base64, for runtimes that cannot read it from a file (src/load/).\n` +
      `export const coreWasmBase64 = ${JSON.stringify(core.toString('base64'))};\n`,
  );
  writeFileSync(join(generated, `${name}-core-wasm.d.ts`), 'export declare const coreWasmBase64: string;\n');
}

// The wire shapes (the error spec, limits, contract deltas, the string enums,
// code defaults) as the core's structs declare them: tools/wire-schema prints
// their JSON Schema (mcp_envelope::wire_schema), json-schema-to-typescript
// writes one type per definition, its doc from the Rust doc comments.
let schema;
try {
  schema = JSON.parse(
    execFileSync('cargo', ['run', '--locked', '--quiet', '-p', 'mcp-envelope-wire-schema'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
} catch {
  console.error('build: cargo run -p mcp-envelope-wire-schema failed (its output is above)');
  process.exit(1);
}
// A `$ref` with a sibling (a field's doc) would become a numbered copy of
// its type (`Category1`): the reference goes into a one-item `anyOf`, which
// the generator names by the definition and documents by the field.
const refsAlone = (node) => {
  if (Array.isArray(node)) return node.forEach(refsAlone);
  if (node === null || typeof node !== 'object') return;
  if (typeof node.$ref === 'string' && Object.keys(node).length > 1) {
    node.anyOf = [{ $ref: node.$ref }];
    delete node.$ref;
  }
  Object.values(node).forEach(refsAlone);
};
refsAlone(schema);
const { compile } = await import('json-schema-to-typescript');
const wire = await compile(schema, 'WireShapes', {
  bannerComment:
    "// Generated by scripts/build.mjs from the core's JSON Schema (mcp_envelope::wire_schema,\n" +
    '// printed by tools/wire-schema) with json-schema-to-typescript; never edited, never committed.',
  unreachableDefinitions: true,
  additionalProperties: false,
  format: false,
});
mkdirSync(wireTypes);
// Each definition's note that the root schema refers to it says nothing to a reader of the types.
writeFileSync(
  join(wireTypes, 'wire.ts'),
  wire
    .replace(/\n \* ?\n \* This interface was referenced by .*\n \* via the `definition` ".*"\./g, '')
    .replace(/\/\*\*\n \* This interface was referenced by .*\n \* via the `definition` ".*"\.\n \*\/\n/g, ''),
);

run(process.execPath, [join(pkg, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(pkg, 'tsconfig.json')]);
console.log(`built bindings/js (core modules, bytes: ${sizes.join(', ')})`);
