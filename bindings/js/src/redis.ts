// mcp-envelope/redis: a `StateStore` in Redis, for servers that run as
// replicas (docs/state.md). It imports no Redis package: it takes the client
// your server already has, node-redis (`redis`, 4 or later) or ioredis. A
// conditional write is one Lua script, so claiming a key is one atomic step on
// the Redis server (the core's, `compare-and-set-script`); keys expire by
// Redis's own `PX`. A client error or a call slower than `timeoutMs` is
// `StoreUnavailable`: the write does not run.

import { compareAndSetScript } from './full-component.js';
import { StoreUnavailable, type StateStore } from './stores.js';

/** The two client shapes taken: node-redis's `eval(script, { keys, arguments })` and ioredis's `eval(script, numKeys, ...)`. */
interface RedisClient {
  get(key: string): Promise<unknown>;
  eval(...args: unknown[]): Promise<unknown>;
  defineCommand?: unknown;
}

/**
 * Options of `RedisStore`: a key prefix, and how long a call may take before
 * the store counts as unavailable (2,000 ms, the Python and Rust stores' too).
 */
export interface RedisStoreOptions {
  prefix?: string;
  timeoutMs?: number;
}

/**
 * Records in Redis under `prefix` + the core's store key. Give node-redis
 * `disableOfflineQueue: true`, so that a command while Redis is down fails at
 * once rather than waiting for it.
 *
 * ```ts
 * // createClient is node-redis's (the `redis` package)
 * const store = new RedisStore(await createClient({ url, disableOfflineQueue: true }).connect());
 * ```
 */
export class RedisStore implements StateStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #ioredis: boolean;
  readonly #script = compareAndSetScript();

  constructor(client: unknown, options: RedisStoreOptions = {}) {
    const c = client as RedisClient | null;
    if (c === null || typeof c?.get !== 'function' || typeof c.eval !== 'function') {
      throw new TypeError('RedisStore needs a connected node-redis or ioredis client');
    }
    this.#client = c;
    const timeoutMs = options.timeoutMs ?? 2000;
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
      throw new TypeError(`timeoutMs must be a whole number of milliseconds, at least 1, not ${String(timeoutMs)}`);
    }
    this.#prefix = options.prefix ?? '';
    this.#timeoutMs = timeoutMs;
    this.#ioredis = typeof c.defineCommand === 'function';
  }

  async #within<T>(what: string, work: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailable(`redis: ${what} took longer than ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      throw error instanceof StoreUnavailable ? error : new StoreUnavailable(`redis: ${(error as Error)?.message ?? String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.#within('GET', () => this.#client.get(this.#prefix + key));
    return value === null || value === undefined ? undefined : String(value);
  }

  async compareAndSet(key: string, expected: string | undefined, value: string | undefined, ttlMs: number): Promise<boolean> {
    const args = [
      expected === undefined ? '0' : '1',
      expected ?? '',
      value === undefined ? '0' : '1',
      value ?? '',
      String(Math.max(1, Math.trunc(ttlMs))),
    ];
    const done = await this.#within('the conditional write', () =>
      this.#ioredis
        ? this.#client.eval(this.#script, 1, this.#prefix + key, ...args)
        : this.#client.eval(this.#script, { keys: [this.#prefix + key], arguments: args }),
    );
    return Number(done) === 1;
  }
}
