// The one Node API the Node loader uses (src/load/node.ts), declared here so
// that Node's types stay out of the rest of the package, which runs anywhere.
declare module 'node:fs' {
  export function readFileSync(path: URL): Uint8Array<ArrayBuffer>;
}
