// Checks every vector file against vectors/schema.json, and that descriptions
// are unique within a file (they are test names in every runner).
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = new URL("../vectors/", import.meta.url).pathname;
const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")));
const files = readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "schema.json").sort();
let failed = false;
let cases = 0;
for (const file of files) {
  const groups = JSON.parse(readFileSync(join(dir, file), "utf8"));
  if (!validate(groups)) {
    failed = true;
    // oneOf reports every branch; the first few errors are enough to find the case.
    for (const e of validate.errors.slice(0, 8)) console.error(`${file}${e.instancePath}: ${e.message}`);
    continue;
  }
  const seen = new Set();
  for (const group of groups) {
    for (const c of group.cases) {
      const name = `${group.description} / ${c.description}`;
      if (seen.has(name)) {
        failed = true;
        console.error(`${file}: duplicate test name "${name}"`);
      }
      seen.add(name);
      cases++;
    }
  }
}
if (failed) process.exit(1);
console.log(`vectors: ${files.length} files, ${cases} cases match the schema`);
