// One replica of a write server for replicas.test.mjs: an SDK 1.x McpServer
// with envelopeServer, served statelessly over Streamable HTTP on loopback,
// its refund tool made idempotent by SharedIdempotency over Redis (node-redis),
// every result going through the SharedLedger of the conversation the client
// names, in the same Redis. Each write counts itself in Redis
// (`<run>:writes`), so the test sees how many ran across every replica.
//   node replica-server.mjs PORT REDIS_PORT RUN TTL_SECONDS TIMEOUT_MS
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createClient } from 'redis';
import { z } from 'zod';
import { error } from 'mcp-envelope';
import { SharedIdempotency, SharedLedger, withIdempotency } from 'mcp-envelope/server';
import { envelopeServer } from 'mcp-envelope/mcp';
import { RedisStore } from 'mcp-envelope/redis';

const [port, redisPort, run, ttl, timeoutMs] = process.argv.slice(2);
const redis = createClient({ socket: { host: '127.0.0.1', port: Number(redisPort), connectTimeout: 1000 }, disableOfflineQueue: true });
redis.on('error', () => {}); // a Redis that is down is the store's to report, per call
await redis.connect();
const store = new RedisStore(redis, { prefix: `${run}:`, timeoutMs: Number(timeoutMs) });
const shared = new SharedIdempotency(store, { ttlSeconds: Number(ttl) });

function billing() {
  const server = new McpServer({ name: 'billing-replica', version: '1.0.0' }, { capabilities: { tools: {} } });
  // The ledger of the conversation the client names; stateless, there is no session to fall back on.
  envelopeServer(server, {
    ledger: ({ conversation }) => (conversation === undefined ? undefined : new SharedLedger(store, conversation)),
  });
  server.registerTool(
    'refund_order',
    {
      inputSchema: { orderId: z.string(), amountCents: z.number(), idempotency_key: z.string().optional() },
    },
    withIdempotency(
      shared,
      async ({ orderId, amountCents }) => {
        const writes = await redis.incr(`${run}:writes`);
        await new Promise((resolve) => setTimeout(resolve, 300)); // a write that takes a while: concurrent calls meet it in flight
        return {
          content: [{ type: 'text', text: `Refunded ${amountCents} cents on order ${orderId} (write ${writes}, replica ${port}).` }],
          isError: false,
        };
      },
      { tool: 'refund_order' },
    ),
  );
  server.registerTool('get_invoice', { inputSchema: { id: z.string() } }, async (args) => error('NOT_FOUND', `No invoice ${args.id}`));
  return server;
}

createServer(async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const server = billing();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
