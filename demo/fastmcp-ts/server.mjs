#!/usr/bin/env node
// The demo billing server of demo/billing.md, as a FastMCP author writes it:
// FastMCP for TypeScript over stdio (or, with `--http PORT`, FastMCP's own
// httpStream transport at http://127.0.0.1:PORT/mcp), its own addTool, Zod 4
// parameters, one line of mcp-envelope (envelopeFastMCP) and its helpers for
// every failure, so no envelope is worded here. With BILLING_REDIS_URL its
// state (idempotency keys, the repeat ledger, the books) lives in that Redis,
// shared by its replicas.
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { FastMCP } from 'fastmcp';
import * as z from 'zod';
import { error, partialResult, toolError } from 'mcp-envelope';
import {
  emptyResult, forbidden, Idempotency, Ledger, retryWithin, SharedIdempotency, SharedLedger, upstreamError, withIdempotency,
} from 'mcp-envelope/server';
import { envelopeFastMCP } from 'mcp-envelope/fastmcp';

/** What a database driver throws (pg's `DatabaseError`, mysql2's errors): a subclass of Error, never the author's words. */
class DatabaseError extends Error {
  name = 'DatabaseError';
}

const JO = 'jo@example.com';
/** The one customer's invoices, amounts in cents, in listing order; refundableCents as before any refund. */
const invoices = new Map([
  ['inv_1', { customer: JO, cents: 12000, status: 'paid', refundableCents: 12000 }],
  ['inv_2', { customer: JO, cents: 7550, status: 'open', refundableCents: 0 }],
]);

const euros = (cents) => (cents / 100).toFixed(2);
const line = (id, { cents, status }) => `${id}: ${euros(cents)} EUR, ${status}`;
const text = (body) => ({ content: [{ type: 'text', text: body }] });

/**
 * The billing API this server fronts, simulated in-process: a response's
 * status and headers, failing as demo/billing.md says.
 */
const upstream = {
  listInvoices: (customer) => (customer === 'flaky@example.com' ? { status: 503, headers: {} } : { status: 200 }),
  /** Attempt `attempt` (from 1) of one call. */
  getInvoice(invoiceId, attempt = 1) {
    if (invoiceId === 'inv_504') return { status: 504, headers: {} };
    const limited = invoiceId === 'inv_430' || (invoiceId === 'inv_429' && attempt === 1);
    return limited ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 200 };
  },
};

/** An upstream failure as the helper words it, returned as a tool error (the ledger sees it). */
function upstreamFailure(response) {
  const { error: spec, log } = upstreamError({ ...response, service: 'billing-api' });
  console.error(`upstream billing-api answered ${log.status}`);
  return toolError(spec.code, spec);
}

const notFound = (invoiceId, message) =>
  error('NOT_FOUND', message).actions('list_invoices').detail('invoiceId', invoiceId);

// An unknown tool gets the JSON-RPC -32602 the MCP specification asks for
// (protocol-error, the default), or SEP-2145's isError result with
// BILLING_UNKNOWN_TOOL=tool-result.
const unknownTool = process.env.BILLING_UNKNOWN_TOOL ?? 'protocol-error';
if (!['protocol-error', 'tool-result'].includes(unknownTool)) {
  console.error(`BILLING_UNKNOWN_TOOL is ${JSON.stringify(unknownTool)}: expected protocol-error or tool-result`);
  process.exit(1);
}

/**
 * What a refund writes and later calls read, kept in this process: `refund`
 * answers `{ refund: N }` (the N-th refund, "rf_N") or `{ refundable: CENTS }`
 * (refused: what is left, nothing written).
 */
function memoryBooks() {
  const refunded = new Map();
  let refunds = 0;
  return {
    async refund(id, cents) {
      const refundable = invoices.get(id).refundableCents - (refunded.get(id) ?? 0);
      if (cents > refundable) return { refundable };
      refunded.set(id, (refunded.get(id) ?? 0) + cents);
      refunds += 1;
      return { refund: refunds };
    },
  };
}

/**
 * The same books in Redis, shared by every replica: the check and the write
 * are one step on the Redis server, demo/books.lua, the script all five
 * servers run.
 */
function redisBooks(client) {
  const script = readFileSync(new URL('../books.lua', import.meta.url), 'utf8');
  return {
    async refund(id, cents) {
      const [refunded, value] = await client.eval(script, {
        keys: [`{billing-demo}:refunded:${id}`, '{billing-demo}:refunds'],
        arguments: [String(invoices.get(id).refundableCents), String(cents)],
      });
      return refunded === 1 ? { refund: value } : { refundable: value };
    },
  };
}

/**
 * Where the state lives: this process (the default), or with
 * BILLING_REDIS_URL (redis://HOST:PORT) a Redis every replica shares. A
 * refund's key then replays the first outcome on any replica, and the repeat
 * ledger of the conversation a call names (the `_meta` key
 * `mcp-envelope/conversation`, else its session) sees a failure repeated
 * across them. Either way every answer is the same bytes.
 */
async function stateStores() {
  const url = process.env.BILLING_REDIS_URL;
  if (url === undefined) return { idempotency: new Idempotency(), books: memoryBooks(), ledger: new Ledger(2) };
  const { createClient } = await import('redis');
  const { RedisStore } = await import('mcp-envelope/redis');
  // Without the offline queue a command fails at once while Redis is down, so
  // a refund is answered SERVER_BUSY rather than left waiting. A Redis that
  // cannot be reached at start stops the server; a connection lost later is
  // retried, backing off to 2 s.
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries, cause) => (connected ? Math.min(2 ** retries * 50, 2000) : cause) },
  });
  client.on('error', (e) => console.error(`billing: redis: ${e.message}`));
  try {
    await client.connect();
    connected = true;
  } catch (e) {
    console.error(`billing: cannot reach BILLING_REDIS_URL ${url}: ${e.message}`);
    process.exit(1);
  }
  const store = new RedisStore(client);
  return {
    idempotency: new SharedIdempotency(store),
    books: redisBooks(client),
    ledger: ({ conversation }) =>
      conversation === undefined ? undefined : new SharedLedger(store, conversation, { stopAfter: 2 }),
  };
}

// One idempotency store for the process (or the replicas): a refund's key makes its retry safe.
const { idempotency, books, ledger } = await stateStores();

// FastMCP pings each client every 5 s, and connect() sets a stdio session up
// as it sets up an HTTP one; this server's clients need no pings (and over
// stdio they would keep the process alive after the client leaves). One
// repeat ledger for the whole process: one stdio client, or the sessions
// FastMCP opens over HTTP (with Redis, the ledger of each call's conversation).
const fastMCP = new FastMCP({ name: 'billing', version: '1.0.0', ping: { enabled: false } });
// BILLING_ENVELOPE=off serves the same tools without envelopeFastMCP: the
// conformance suite's plain run, to show the integration costs no check.
// Their failures then reach the client as FastMCP alone answers them.
const server = process.env.BILLING_ENVELOPE === 'off' ? fastMCP
  : envelopeFastMCP(fastMCP, { ledger, unknownTool });

const email = z.email();
const invoiceId = z.string().regex(/^inv_[a-z0-9]+$/);

server.addTool({
  name: 'get_invoice',
  description: 'Get one invoice of a customer.',
  parameters: z.object({ customer: email, invoice_id: invoiceId }),
  annotations: { readOnlyHint: true },
  execute: async ({ customer, invoice_id: id }, context) => {
    if (customer === 'blocked@example.com') return forbidden({ action: 'read', resource: `the invoices of ${customer}` });
    // A database driver's own error class, as real drivers throw: an exception, not the author's words for the model.
    if (id === 'inv_500') throw new DatabaseError('db connect failed: password=hunter2');
    if (id === 'inv_429' || id === 'inv_430') {
      // The waiting is done here, within 2.5 s, not left to the model.
      return retryWithin((attempt) => {
        const response = upstream.getInvoice(id, attempt);
        return response.status === 200 ? text(line('inv_1', invoices.get('inv_1'))) : upstreamFailure(response);
      }, { deadlineMs: 2500, extra: { signal: context.signal } });
    }
    const response = upstream.getInvoice(id);
    if (response.status !== 200) return upstreamFailure(response);
    if (id === 'inv_old') {
      return error('DEPRECATED', 'inv_old is an archived invoice id; use inv_1 instead.')
        .suggest('Use invoice_id inv_1 from now on.').warning();
    }
    const invoice = invoices.get(id);
    if (invoice === undefined || invoice.customer !== customer || customer !== JO) {
      return notFound(id, `No invoice ${id} for ${customer}.`);
    }
    return text(line(id, invoice));
  },
});

server.addTool({
  name: 'list_invoices',
  description: "List a customer's invoices.",
  parameters: z.object({ customer: email, status: z.enum(['open', 'paid']).optional() }),
  annotations: { readOnlyHint: true },
  execute: async ({ customer, status }) => {
    if (customer === 'blocked@example.com') return forbidden({ action: 'read', resource: `the invoices of ${customer}` });
    if (customer === 'nobody@example.com') return emptyResult({ what: 'invoices', query: `for ${customer}` });
    if (customer === 'partial@example.com') {
      return partialResult({
        task: `invoices for ${customer}`,
        obtained: ['inv_7: 10.00 EUR, open'],
        failed: [{ item: 'the 2025 archive', code: 'TIMEOUT', message: 'The archive did not answer in time.' }],
      });
    }
    const response = upstream.listInvoices(customer);
    if (response.status !== 200) return upstreamFailure(response);
    if (customer !== JO) return emptyResult({ what: 'invoices', query: `for ${customer}` });
    const lines = [...invoices].filter(([, inv]) => inv.customer === customer && (status === undefined || inv.status === status));
    return text(lines.map(([id, inv]) => line(id, inv)).join('\n'));
  },
});

server.addTool({
  name: 'refund_order',
  description: 'Refund part or all of an invoice.',
  parameters: z.object({
    invoice_id: invoiceId,
    amount: z.number().positive().max(10000),
    idempotency_key: z.string().min(8),
  }),
  annotations: { idempotentHint: true },
  execute: withIdempotency(idempotency, async ({ invoice_id: id, amount }) => {
    const invoice = invoices.get(id);
    if (invoice === undefined) return error('NOT_FOUND', `No invoice ${id}.`).actions('list_invoices');
    // To whole cents, half away from zero (amount is positive), as every twin rounds.
    const cents = Math.round(amount * 100);
    const booked = await books.refund(id, cents);
    if (booked.refundable !== undefined) {
      const refundable = euros(booked.refundable);
      return error('REFUND_LIMIT_EXCEEDED', `Refund of ${euros(cents)} exceeds the refundable ${refundable} on ${id}.`)
        .category('business').retryable(false)
        .suggest('Tell the user the most that can be refunded; do not retry with a larger amount.')
        .customerMessage(`We can refund at most ${refundable} EUR on this invoice.`);
    }
    return text(`Refunded ${euros(cents)} EUR on ${id} (refund rf_${booked.refund}).`);
  }, { tool: 'refund_order' }),
});

const [flag, port] = process.argv.slice(2);
if (flag === undefined) {
  await server.connect(new StdioServerTransport());
} else if (flag === '--http' && /^[0-9]+$/.test(port ?? '') && Number(port) <= 65535) {
  try {
    await server.start({
      transportType: 'httpStream',
      httpStream: { host: '127.0.0.1', port: Number(port), endpoint: '/mcp' },
    });
  } catch (error) {
    console.error(`billing: cannot listen on 127.0.0.1:${port}: ${error.message}`);
    process.exit(1);
  }
} else {
  console.error('usage: server.mjs [--http PORT]');
  process.exit(2);
}
