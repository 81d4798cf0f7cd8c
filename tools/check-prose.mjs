// Fails when a block of the prose a person reads first (a paragraph, a list
// item, a table cell) runs past 120 words, the most that reads as one screen.
//
//   node tools/check-prose.mjs            checks the files below
//   node tools/check-prose.mjs FILE...    checks those files instead
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const MAX_WORDS = 120;
const root = new URL("..", import.meta.url).pathname;

const readmes = [
  "README.md",
  "ARCHITECTURE.md",
  "bindings/js/README.md",
  "bindings/python/README.md",
  "demo/README.md",
  "published/README.md",
  "conformance/README.md",
];

function markdownUnder(dir) {
  const found = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) found.push(...markdownUnder(path));
    else if (name.endsWith(".md")) found.push(path);
  }
  return found;
}

const fence = /^\s*(`{3,}|~{3,})/;
const heading = /^\s{0,3}#{1,6}(\s|$)/;
const tableRow = /^\s*\|/;
const listItem = /^(\s*)([-*+]|\d{1,9}[.)])\s+/;

// Splits one file into the blocks a reader takes in at once, each with the
// line it starts on; code blocks and headings are no such block.
function blocksOf(text) {
  const lines = text.split("\n");
  const blocks = [];
  let current = null;
  let inFence = null;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  lines.forEach((raw, index) => {
    const line = raw.replace(/^\s*>\s?/, "");
    const lineNo = index + 1;
    if (inFence) {
      if (line.trim().startsWith(inFence)) inFence = null;
      return;
    }
    const opening = line.match(fence);
    if (opening) {
      close();
      inFence = opening[1];
      return;
    }
    if (line.trim() === "") return close();
    if (heading.test(line)) return close();
    if (tableRow.test(line)) {
      close();
      // A cell is what lies between unescaped pipes; the row's outer pipes leave empty ends.
      const cells = line.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/);
      for (const cell of cells) blocks.push({ line: lineNo, text: cell });
      return;
    }
    if (listItem.test(line)) {
      close();
      current = { line: lineNo, text: line.replace(listItem, "") };
      return;
    }
    if (current) current.text += " " + line;
    else current = { line: lineNo, text: line };
  });
  close();
  return blocks;
}

// A link's target is an address, not words a person reads.
function wordCount(text) {
  const words = text.replace(/\]\([^)]*\)/g, "]").trim();
  return words === "" ? 0 : words.split(/\s+/).length;
}

const files =
  process.argv.length > 2
    ? process.argv.slice(2).map((file) => resolve(file))
    : [...readmes, ...markdownUnder("docs")].map((file) => join(root, file));
const over = [];
let blockCount = 0;
for (const file of files) {
  const path = relative(root, file);
  for (const block of blocksOf(readFileSync(file, "utf8"))) {
    blockCount++;
    const words = wordCount(block.text);
    if (words > MAX_WORDS) over.push(`${path}:${block.line}: ${words} words`);
  }
}
if (over.length > 0) {
  for (const entry of over) console.error(entry);
  console.error(`${over.length} blocks over ${MAX_WORDS} words; split each where its subject turns.`);
  process.exit(1);
}
console.log(`prose: ${blockCount} blocks in ${files.length} files, none over ${MAX_WORDS} words`);
