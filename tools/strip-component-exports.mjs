// Takes the component's own exports out of a core module linked for
// wasm-bindgen (scripts/measure-wasm-bindgen). The core compiles
// src/component.rs for every wasm32 build, and a cdylib keeps its
// dependencies' #[export_name] functions, so the module linked with
// #[wasm_bindgen] exports also exports the component's (`mcp:envelope/api@…#…`,
// their `cabi_post_…` and `cabi_realloc…`) and carries wit-bindgen's
// `component-type:…` section. Those exports reach the ledger's resource hooks,
// imported from `[export]mcp:envelope/api@…`, which no wasm-bindgen host
// provides. Without them, wasm-bindgen's own pass drops the code and imports
// only they reached. The export section is rewritten without them; every
// other section is copied byte for byte.
// Usage: node tools/strip-component-exports.mjs in.wasm out.wasm
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node tools/strip-component-exports.mjs in.wasm out.wasm');
  process.exit(2);
}
const bytes = readFileSync(input);
if (bytes.readUInt32LE(0) !== 0x6d736100 || bytes.readUInt32LE(4) !== 1) throw new Error(`${input} is not a core wasm module`);

function leb(at) {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return { value, at };
}
function encodeLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}
const isComponentExport = (name) => name.includes(':') || name.startsWith('cabi_');

const parts = [bytes.subarray(0, 8)];
const dropped = { exports: [], sections: [] };
let at = 8;
while (at < bytes.length) {
  const id = bytes[at];
  const size = leb(at + 1);
  const start = size.at, end = size.at + size.value;
  if (id === 0) {
    const name = leb(start);
    const sectionName = bytes.subarray(name.at, name.at + name.value).toString('utf8');
    if (sectionName.startsWith('component-type:')) dropped.sections.push(sectionName);
    else parts.push(bytes.subarray(at, end));
  } else if (id === 7) {
    const count = leb(start);
    let p = count.at;
    const kept = [];
    for (let i = 0; i < count.value; i++) {
      const nameLength = leb(p);
      const name = bytes.subarray(nameLength.at, nameLength.at + nameLength.value).toString('utf8');
      const index = leb(nameLength.at + nameLength.value + 1); // after the kind byte
      if (isComponentExport(name)) dropped.exports.push(name);
      else kept.push(bytes.subarray(p, index.at));
      p = index.at;
    }
    if (p !== end) throw new Error('the export section did not parse to its end');
    const payload = Buffer.concat([encodeLeb(kept.length), ...kept]);
    parts.push(Buffer.from([7]), encodeLeb(payload.length), payload);
  } else {
    parts.push(bytes.subarray(at, end));
  }
  at = end;
}
if (dropped.exports.length === 0) throw new Error(`${input} has no component exports: nothing to strip (has src/component.rs changed?)`);
writeFileSync(output, Buffer.concat(parts));
// The result must still be a valid module.
new WebAssembly.Module(readFileSync(output));
console.log(`${output}: dropped ${dropped.exports.length} component exports and the sections ${dropped.sections.join(', ') || '(none)'}`);
