// One replica of a write server for replicas.test.mjs: an SDK 1.x McpServer
// with envelopeServer, served statelessly over Streamable HTTP on loopback,
// its refund tool made idempotent by SharedIdempotency over Redis (node-redis),
// its get_invoice failing through a SharedLedger in the same Redis.
// Each write counts itself in Redis (`<run>:writes`), so the test sees how
// many ran across every replica.
//   node replica-server.mjs PORT REDIS_PORT RUN TTL_SECONDS
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createClient } from 'redis';
import { z } from 'zod';
import { error, SharedIdempotency, SharedLedger, withIdempotency } from 'mcp-envelope';
import { envelopeServer } from 'mcp-envelope/mcp';
import { RedisStore } from 'mcp-envelope/redis';

const [port, redisPort, run, ttl] = process.argv.slice(2);
const redis = createClient({ socket: { host: '127.0.0.1', port: Number(redisPort), connectTimeout: 1000 }, disableOfflineQueue: true });
redis.on('error', () => {}); // a Redis that is down is the store's to report, per call
await redis.connect();
const store = new RedisStore(redis, { prefix: `${run}:`, timeoutMs: 1000 });
const shared = new SharedIdempotency(store, { ttlSeconds: Number(ttl) });
// Every call of the test is one conversation; a server picks the scope from its own idea of one.
const ledger = new SharedLedger(store, 'conversation-1');

function billing() {
  const server = new McpServer({ name: 'billing-replica', version: '1.0.0' }, { capabilities: { tools: {} } });
  envelopeServer(server);
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
  server.registerTool('get_invoice', { inputSchema: { id: z.string() } }, async (args) =>
    ledger.failure('get_invoice', error('NOT_FOUND', `No invoice ${args.id}`), { arguments: args }),
  );
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
