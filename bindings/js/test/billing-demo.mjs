// What the agent-framework tests share: the demo's billing server over stdio
// (demo/ts/server.mjs, demo/billing.md), its answers and the host loop's
// records as the core words them (demo/expected-answers.json, which the
// Python package's tests read too), and a check that the server runs this
// build of the package (demo/ts installs it as a copy: scripts/test-js
// installs it again whenever the build changed).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const demo = fileURLToPath(new URL('../../../demo/ts/', import.meta.url));
const answers = JSON.parse(readFileSync(new URL('../../../demo/expected-answers.json', import.meta.url), 'utf8'));

/** The command that starts the billing server: one process, one repeat ledger, per call of a test. */
export const billingServer = { command: process.execPath, args: [join(demo, 'server.mjs')] };

/**
 * Throws unless demo/ts has node_modules and its copy of the package is this
 * build: every file of its dist/ and generated/ the same bytes.
 */
export function checkDemoCopy() {
  const copy = join(demo, 'node_modules', 'mcp-envelope');
  const stale = (why) => new Error(`demo/ts ${why}: run scripts/test-js, or (cd demo/ts && npm ci) after building bindings/js`);
  if (!existsSync(copy)) throw stale('is not installed');
  const digest = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
  for (const folder of ['dist', 'generated']) {
    for (const entry of readdirSync(join(copy, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const ours = join(pkg, file.slice(copy.length));
      if (!existsSync(ours) || digest(file) !== digest(ours))
        throw stale(`has another build of mcp-envelope (${file.slice(copy.length + 1)} differs)`);
    }
  }
}

export const invoice1 = 'inv_1: 120.00 EUR, paid';

/** get_invoice of inv_404 for jo@example.com: NOT_FOUND, for the model to fix. */
export const notFound404 = answers.toolErrors.notFound;

/** list_invoices of partial@example.com: a partial result that obtained something, the outcome. */
export const partialInvoices = answers.partialResult;

/**
 * get_invoice of inv_504 through the host loop: two upstream timeouts waited
 * out (500 ms, then 1000 ms), and the third answer the server's repeat ledger
 * turns into a stop; `timeoutTried` is the escalation's `tried`.
 */
export const timeoutRecord = answers.escalations.timeout.get_invoice.record;
export const timeoutTried = answers.escalations.timeout.get_invoice.tried;

/** get_invoice for blocked@example.com through the host loop: FORBIDDEN, stop-and-tell at once. */
export const forbiddenRecord = answers.escalations.forbidden.get_invoice.record;

/** get_invoice of inv_504, the first answer: the upstream timed out (HTTP 504). */
export const timeout504 = answers.toolErrors.timeout;

/** get_invoice for blocked@example.com: FORBIDDEN. */
export const forbiddenBlocked = answers.toolErrors.forbidden;
