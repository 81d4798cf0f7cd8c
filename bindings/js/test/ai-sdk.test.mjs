// mcp-envelope/ai-sdk, end to end: the AI SDK's own test model
// (MockLanguageModelV4 from ai/test) runs generateText over the tools of an
// @ai-sdk/mcp client, connected over stdio to the demo's billing server
// (demo/ts/server.mjs), with and without the adapter. Each test starts a
// server of its own (its repeat ledger starts empty); the host loop's waits
// are recorded instead of slept. What the model reads is taken from the
// prompts the test model was sent.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { escalated, escalationOf, recoveringTools } from 'mcp-envelope/ai-sdk';
import {
  billingServer,
  checkDemoCopy,
  forbiddenBlocked,
  forbiddenRecord,
  invoice1,
  notFound404,
  partialInvoices,
  timeout504,
  timeoutRecord,
  timeoutTried,
} from './billing-demo.mjs';

before(checkDemoCopy);

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
let calls = 0;
/** A model turn that calls `toolName` with `input`. */
const toolCall = (toolName, input) => ({
  content: [{ type: 'tool-call', toolCallId: `call_${++calls}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: undefined },
  usage,
  warnings: [],
});
/** A model turn that answers with text. */
const answer = (text) => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] });
const jo = (invoiceId) => ({ customer: 'jo@example.com', invoice_id: invoiceId });

/**
 * Runs `turns` (the model's answers, in order) with generateText against a
 * fresh billing server: through `recoveringTools` when `adapted`, through the
 * client's own `tools()` otherwise.
 */
async function run(turns, { adapted }) {
  const client = await createMCPClient({ transport: new StdioMCPTransport({ ...billingServer, stderr: 'ignore' }) });
  try {
    const waits = [];
    const tools = adapted
      ? await recoveringTools(client, {
          sleep: async (ms) => {
            waits.push(ms);
          },
        })
      : await client.tools();
    const model = new MockLanguageModelV4({ doGenerate: turns });
    const result = await generateText({
      model,
      tools,
      prompt: 'Help jo@example.com with their invoices.',
      stopWhen: [isStepCount(6), escalated],
    });
    return { result, model, waits };
  } finally {
    await client.close();
  }
}

/** The text of the tool results the model read in its `n`-th prompt (from 1). */
function toolTextsRead(model, n) {
  const { prompt } = model.doGenerateCalls[n - 1];
  const last = prompt[prompt.length - 1];
  assert.equal(last.role, 'tool');
  return last.content.map((part) => {
    assert.equal(part.output.type, 'content');
    return part.output.value.map((block) => block.text).join('');
  });
}

describe('recoveringTools with generateText', () => {
  test('a success and what the model must fix reach it as the server sent them, with the adapter as without', async () => {
    for (const adapted of [true, false]) {
      const { result, model, waits } = await run(
        [toolCall('get_invoice', jo('inv_404')), toolCall('get_invoice', jo('inv_1')), answer('inv_1 is paid.')],
        { adapted },
      );
      assert.equal(model.doGenerateCalls.length, 3);
      // The NOT_FOUND envelope, byte for byte, then the fixed call's invoice.
      assert.deepEqual(toolTextsRead(model, 2), [notFound404]);
      assert.deepEqual(toolTextsRead(model, 3), [invoice1]);
      assert.equal(result.text, 'inv_1 is paid.');
      assert.deepEqual([waits, escalationOf(result)], [[], undefined]);
    }
  });

  test('a partial result that obtained something is the outcome: the tool result, not an escalation', async () => {
    const { result, model } = await run([toolCall('list_invoices', { customer: 'partial@example.com' }), answer('One invoice so far.')], {
      adapted: true,
    });
    assert.deepEqual(toolTextsRead(model, 2), [partialInvoices]);
    assert.equal(escalationOf(result), undefined);
  });

  test('a transient failure is waited out by the host, and when it lasts the run ends with the record: the model is not asked again', async () => {
    const { result, model, waits } = await run([toolCall('get_invoice', jo('inv_504')), answer('not reached')], { adapted: true });
    assert.deepEqual(waits, [500, 1000]);
    assert.equal(model.doGenerateCalls.length, 1);
    assert.equal(result.steps.length, 1);
    const escalation = escalationOf(result);
    assert.deepEqual([escalation.tool, escalation.arguments], ['get_invoice', jo('inv_504')]);
    assert.deepEqual(escalation.tried, timeoutTried);
    assert.deepEqual(escalation.result, { content: [{ type: 'text', text: timeoutRecord }], isError: true });
    // The record is the step's tool result too, as the SDK keeps it in the run's messages.
    assert.equal(result.steps[0].toolResults[0].output, escalation.result);
  });

  test('without the adapter the same timeout goes to the model after one call, and the model is asked again', async () => {
    const { model } = await run([toolCall('get_invoice', jo('inv_504')), answer('The billing API timed out.')], { adapted: false });
    assert.equal(model.doGenerateCalls.length, 2);
    assert.deepEqual(toolTextsRead(model, 2), [timeout504]);
  });

  test('a stop-and-tell answer ends the run at once with its record; without the adapter the model reads the envelope and goes on', async () => {
    const blocked = { customer: 'blocked@example.com', invoice_id: 'inv_1' };
    const adapted = await run([toolCall('get_invoice', blocked), answer('not reached')], { adapted: true });
    assert.deepEqual([adapted.waits, adapted.model.doGenerateCalls.length], [[], 1]);
    assert.equal(escalationOf(adapted.result).result.content[0].text, forbiddenRecord);

    const plain = await run([toolCall('get_invoice', blocked), answer('I cannot see those invoices.')], { adapted: false });
    assert.equal(plain.model.doGenerateCalls.length, 2);
    assert.deepEqual(toolTextsRead(plain.model, 2), [forbiddenBlocked]);
    assert.equal(escalationOf(plain.result), undefined);
  });
});
