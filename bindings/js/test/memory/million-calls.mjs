// A million cheap calls in one process (run by test/memory.test.mjs with
// --expose-gc): renders of three small specs in two formats, a
// CallToolResult, a refused spec (all on the envelope component), and every
// 1,000th call a ledger made, used and disposed (its steps on the full one).
// At each checkpoint it records each component's linear memory (its core
// instance's exported `memory`, caught as the package instantiates it) and
// the JS heap after a full collection, and prints them as one line of JSON.
const RealInstance = WebAssembly.Instance;
const memories = { envelope: [], full: [] };
WebAssembly.Instance = function Instance(module, imports) {
  const instance = new RealInstance(module, imports);
  const full = WebAssembly.Module.exports(module).some((e) => e.name.startsWith('mcp:envelope/server@'));
  if (instance.exports.memory instanceof WebAssembly.Memory) memories[full ? 'full' : 'envelope'].push(instance.exports.memory);
  return instance;
};

const { render, toolError } = await import('mcp-envelope');
const { Ledger } = await import('mcp-envelope/server');
const CALLS = 1_000_000;
const CHECKPOINTS = new Set([10_000, 100_000, 500_000, 1_000_000]);
const specs = [
  { code: 'NOT_FOUND', message: 'No invoice inv_9' },
  { code: 'RATE_LIMITED', message: 'Too many lookups', retryAfter: 30, availableActions: ['billing.list_invoices'] },
  { code: 'UPSTREAM_TIMEOUT', message: 'The ledger did not answer', details: { service: 'ledger', attempt: 2 } },
];
const refused = { code: '', message: 'no code' };
let refusals = 0;

function oneCall(i) {
  if (i % 1000 === 999) {
    const ledger = new Ledger(1);
    ledger.failure('get_invoice', specs[0]);
    ledger.dispose();
    return;
  }
  switch (i % 5) {
    case 0:
      render(specs[i % 3]);
      break;
    case 1:
      render(specs[i % 3], { format: 'json' });
      break;
    case 2:
      toolError(specs[i % 3].code, { ...specs[i % 3], format: 'text' });
      break;
    case 3:
      render(specs[(i + 1) % 3]);
      break;
    default:
      try {
        render(refused);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        refusals++;
      }
  }
}

const started = Date.now();
const checkpoints = [];
for (let i = 0; i < CALLS; i++) {
  oneCall(i);
  if (CHECKPOINTS.has(i + 1)) {
    globalThis.gc();
    const linearMemoryBytes = Object.fromEntries(Object.entries(memories).map(([name, list]) => [name, list.at(-1).buffer.byteLength]));
    checkpoints.push({ calls: i + 1, linearMemoryBytes, heapUsedBytes: process.memoryUsage().heapUsed });
  }
}
const instances = Object.fromEntries(Object.entries(memories).map(([name, list]) => [name, list.length]));
process.stdout.write(`${JSON.stringify({ instances, refusals, seconds: (Date.now() - started) / 1000, checkpoints })}\n`);
