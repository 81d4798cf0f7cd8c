// The one Node API the FastMCP integration uses (src/fastmcp.ts, which runs
// where FastMCP does), declared here so that Node's types stay out of the
// rest of the package, which runs anywhere.
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
