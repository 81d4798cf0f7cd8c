// What the agent-framework tests share: the demo's billing server over stdio
// (demo/ts/server.mjs, demo/billing.md), its answers and the host loop's
// records as the core words them, and a check that the server runs this
// build of the package (demo/ts installs it as a copy: scripts/test-js
// installs it again whenever the build changed).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const demo = fileURLToPath(new URL('../../../demo/ts/', import.meta.url));

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
export const notFound404 = `<tool_error code="NOT_FOUND" severity="error">
  <message>No invoice inv_404 for jo@example.com.</message>
  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
  <available_actions>
    <action>list_invoices</action>
  </available_actions>
  <details>
    <detail key="invoiceId">inv_404</detail>
  </details>
</tool_error>`;

/** list_invoices of partial@example.com: a partial result that obtained something, the outcome. */
export const partialInvoices = `<partial_result severity="warning">
  <summary>Obtained 1 of 2 items; 1 failed.</summary>
  <task>invoices for partial@example.com</task>
  <obtained>
    <item>inv_7: 10.00 EUR, open</item>
  </obtained>
  <failed>
    <failure item="the 2025 archive" code="TIMEOUT" category="transient" retryable="true">The archive did not answer in time.</failure>
  </failed>
  <recovery>Keep what was obtained and do not repeat what was tried. Retry only the failed items marked retryable; for the others, get access, use another source, or report the gap.</recovery>
</partial_result>`;

/**
 * get_invoice of inv_504 through the host loop: two upstream timeouts waited
 * out (500 ms, then 1000 ms), and the third answer the server's repeat ledger
 * turns into a stop.
 */
export const timeoutRecord = `<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call get_invoice: critical: stop</task>
  <failed>
    <failure item="get_invoice" code="TIMEOUT" category="transient" retryable="true"/>
  </failed>
  <tried>
    <attempt>call 1: TIMEOUT (wait-and-retry), then waited 500 ms</attempt>
    <attempt>call 2: TIMEOUT (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 3: TIMEOUT (stop-and-tell)</attempt>
  </tried>
  <recovery>Do not call it again: tell the user what failed, with what was obtained.</recovery>
</partial_result>`;

/** get_invoice for blocked@example.com through the host loop: FORBIDDEN, stop-and-tell at once. */
export const forbiddenRecord = `<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call get_invoice: not permitted: tell the user</task>
  <failed>
    <failure item="get_invoice" code="FORBIDDEN" category="permission" retryable="false"/>
  </failed>
  <tried>
    <attempt>call 1: FORBIDDEN (stop-and-tell)</attempt>
  </tried>
  <recovery>Do not call it again: tell the user what failed, with what was obtained.</recovery>
</partial_result>`;

/** get_invoice of inv_504, the first answer: the upstream timed out (HTTP 504). */
export const timeout504 = `<tool_error code="TIMEOUT" severity="error">
  <message>billing-api did not answer in time (HTTP 504).</message>
  <recovery>Retry once after a short wait; if it times out again, tell the user the service is slow.</recovery>
  <customer_message>The service took too long to respond. Please try again in a moment.</customer_message>
</tool_error>`;

/** get_invoice for blocked@example.com: FORBIDDEN. */
export const forbiddenBlocked = `<tool_error code="FORBIDDEN" severity="error">
  <message>Not permitted: the caller may not read the invoices of blocked@example.com.</message>
  <recovery>Do not retry or probe. Tell the user this needs access they do not have.</recovery>
  <customer_message>You don't have permission to do this. If you need it, ask an administrator for access.</customer_message>
</tool_error>`;
