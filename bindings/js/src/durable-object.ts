// mcp-envelope/durable-object: a `StateStore` in Cloudflare Durable Objects,
// for Workers, where an isolate keeps no memory a client can count on
// (docs/state.md). Each store key lives in a Durable Object of its own (named
// by the key), so every claim is decided where the key lives, one request at
// a time: a Durable Object's input gates hold other events while its storage
// is read and written, so the compare and the write are one step. Expired
// records are dropped when next read. It imports nothing of Cloudflare's: the
// object is a plain class with `fetch`, and the store talks to it by fetch.

import { StoreUnavailable, type StateStore } from './stores.js';

/** What a Durable Object's state gives this class: its storage. */
interface DurableObjectStateLike {
  storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<boolean>;
  };
}

interface Held {
  text: string;
  expires: number;
}

/**
 * The Durable Object class that holds records: export it from your worker
 * and bind it (wrangler: `durable_objects.bindings`, class `StateStoreObject`).
 */
export class StateStoreObject {
  readonly #storage: DurableObjectStateLike['storage'];

  constructor(state: DurableObjectStateLike) {
    this.#storage = state.storage;
  }

  async #current(key: string): Promise<string | undefined> {
    const held = (await this.#storage.get(key)) as Held | undefined;
    if (held === undefined) return undefined;
    if (held.expires <= Date.now()) {
      await this.#storage.delete(key);
      return undefined;
    }
    return held.text;
  }

  /** `POST` `{"op": "get", "key"}` or `{"op": "cas", "key", "expected"?, "value"?, "ttlMs"}`: `{"value"?}` or `{"done"}`. */
  async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as { op: string; key: string; expected?: string; value?: string; ttlMs?: number };
    const current = await this.#current(body.key);
    if (body.op === 'get') return Response.json(current === undefined ? {} : { value: current });
    if (body.op !== 'cas') return Response.json({ error: `unknown op ${JSON.stringify(body.op)}` }, { status: 400 });
    if (current !== body.expected) return Response.json({ done: false });
    if (body.value === undefined) await this.#storage.delete(body.key);
    else await this.#storage.put(body.key, { text: body.value, expires: Date.now() + Math.max(1, body.ttlMs ?? 1) } satisfies Held);
    return Response.json({ done: true });
  }
}

/** The binding's shape: a Durable Object namespace. */
interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(url: string, init: RequestInit): Promise<Response> };
}

/**
 * Records in `StateStoreObject`s, one per store key, reached through the
 * namespace binding `namespace` (`env.STATE`, say).
 *
 * ```ts
 * const shared = new SharedIdempotency(new DurableObjectStore(env.STATE));
 * ```
 */
export class DurableObjectStore implements StateStore {
  readonly #namespace: DurableObjectNamespaceLike;

  constructor(namespace: unknown) {
    const n = namespace as DurableObjectNamespaceLike | null;
    if (n === null || typeof n?.idFromName !== 'function' || typeof n.get !== 'function') {
      throw new TypeError('DurableObjectStore needs a Durable Object namespace binding of the StateStoreObject class');
    }
    this.#namespace = n;
  }

  async #ask(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const stub = this.#namespace.get(this.#namespace.idFromName(String(body.key)));
    let response: Response;
    try {
      response = await stub.fetch('https://state-store/', { method: 'POST', body: JSON.stringify(body) });
    } catch (error) {
      throw new StoreUnavailable(`durable object: ${(error as Error)?.message ?? String(error)}`);
    }
    if (!response.ok) throw new StoreUnavailable(`durable object: HTTP ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  }

  async get(key: string): Promise<string | undefined> {
    const { value } = await this.#ask({ op: 'get', key });
    return typeof value === 'string' ? value : undefined;
  }

  async compareAndSet(key: string, expected: string | undefined, value: string | undefined, ttlMs: number): Promise<boolean> {
    const { done } = await this.#ask({ op: 'cas', key, expected, value, ttlMs });
    return done === true;
  }
}
