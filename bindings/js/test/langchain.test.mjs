// mcp-envelope/langchain, end to end: a LangGraph agent (createReactAgent)
// over the tools @langchain/mcp-adapters loads from the MCP SDK's Client,
// connected over stdio to the demo's billing server (demo/ts/server.mjs),
// with and without the adapter. The model is @langchain/core's fake chat
// model (FakeListChatModel) given a script of tool-calling messages: core's
// fake models answer text only (FakeListChatModel) or one fixed message
// (FakeStreamingChatModel), so the script and the record of the prompts are
// the only additions. Each test starts a server of its own (its repeat
// ledger starts empty); the host loop's waits are recorded instead of slept.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AIMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { escalationOf, recoveringMcpTools } from 'mcp-envelope/langchain';
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

/** The fake chat model answering with `script`'s messages in order, keeping every prompt it was sent. */
class ScriptedChatModel extends FakeListChatModel {
  constructor(script) {
    super({ responses: [''] });
    this.script = script;
    this.prompts = [];
  }

  bindTools() {
    return this;
  }

  async _generate(messages) {
    this.prompts.push(messages);
    const message = this.script.shift();
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

let calls = 0;
/** A model turn that calls `name` with `args`. */
const toolCall = (name, args) => new AIMessage({ content: '', tool_calls: [{ id: `call_${++calls}`, name, args, type: 'tool_call' }] });
const jo = (invoiceId) => ({ customer: 'jo@example.com', invoice_id: invoiceId });
/** LangChain's words around an `isError` result's text, as its ToolNode sends it to the model. */
const asLangChainError = (text) =>
  `Error: MCP tool 'get_invoice' on server 'billing' returned an error: ${text}\n Please fix your mistakes.`;

/**
 * Runs `script` as the model in createReactAgent against a fresh billing
 * server: tools loaded through `recoveringMcpTools` when `adapted`, by
 * `loadMcpTools` alone otherwise.
 */
async function run(script, { adapted }) {
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ ...billingServer, stderr: 'ignore' }));
  try {
    const waits = [];
    const tools = adapted
      ? await recoveringMcpTools(client, (recovering) => loadMcpTools('billing', recovering), {
          sleep: async (ms) => {
            waits.push(ms);
          },
        })
      : await loadMcpTools('billing', client);
    const model = new ScriptedChatModel(script);
    const agent = createReactAgent({ llm: model, tools });
    const state = await agent.invoke({ messages: [{ role: 'user', content: 'Help jo@example.com with their invoices.' }] });
    return { state, model, waits };
  } finally {
    await client.close();
  }
}

/** The tool message the model read last in its `n`-th prompt (from 1): its status and text. */
function toolMessageRead(model, n) {
  const prompt = model.prompts[n - 1];
  const last = prompt[prompt.length - 1];
  assert.equal(last.getType(), 'tool');
  return { status: last.status, content: last.content };
}

describe('recoveringMcpTools with a LangGraph agent', () => {
  test('a success and what the model must fix reach it as LangChain sends them, with the adapter as without', async () => {
    for (const adapted of [true, false]) {
      const { state, model, waits } = await run(
        [toolCall('get_invoice', jo('inv_404')), toolCall('get_invoice', jo('inv_1')), new AIMessage('inv_1 is paid.')],
        { adapted },
      );
      assert.equal(model.prompts.length, 3);
      // The NOT_FOUND envelope, byte for byte inside LangChain's error message, then the fixed call's invoice.
      assert.deepEqual(toolMessageRead(model, 2), { status: 'error', content: asLangChainError(notFound404) });
      assert.deepEqual(toolMessageRead(model, 3), { status: 'success', content: invoice1 });
      assert.equal(state.messages.at(-1).content, 'inv_1 is paid.');
      assert.deepEqual([waits, escalationOf(state)], [[], undefined]);
    }
  });

  test('a partial result that obtained something is the outcome: the tool result, not an escalation', async () => {
    const { state, model } = await run(
      [toolCall('list_invoices', { customer: 'partial@example.com' }), new AIMessage('One invoice so far.')],
      { adapted: true },
    );
    assert.deepEqual(toolMessageRead(model, 2), { status: 'success', content: partialInvoices });
    assert.equal(escalationOf(state), undefined);
  });

  test('a transient failure is waited out by the host, and when it lasts the run stops with the record: the model is not asked again', async () => {
    const { state, model, waits } = await run([toolCall('get_invoice', jo('inv_504')), new AIMessage('not reached')], { adapted: true });
    assert.deepEqual(waits, [500, 1000]);
    assert.equal(model.prompts.length, 1);
    // The run ended in the tools node: the user's message and the model's call, no tool message, no second answer.
    assert.deepEqual(
      state.messages.map((message) => message.getType()),
      ['human', 'ai'],
    );
    const escalation = escalationOf(state);
    assert.equal(state.__interrupt__.length, 1);
    assert.equal(state.__interrupt__[0].value, escalation);
    assert.deepEqual([escalation.tool, escalation.arguments], ['get_invoice', jo('inv_504')]);
    assert.deepEqual(escalation.tried, timeoutTried);
    assert.deepEqual(escalation.result, { content: [{ type: 'text', text: timeoutRecord }], isError: true });
  });

  test('without the adapter the same timeout goes to the model after one call, and the model is asked again', async () => {
    const { state, model } = await run([toolCall('get_invoice', jo('inv_504')), new AIMessage('The billing API timed out.')], {
      adapted: false,
    });
    assert.equal(model.prompts.length, 2);
    assert.deepEqual(toolMessageRead(model, 2), { status: 'error', content: asLangChainError(timeout504) });
    assert.equal(state.__interrupt__, undefined);
  });

  test('a stop-and-tell answer stops the run at once with its record; without the adapter the model reads the envelope and goes on', async () => {
    const blocked = { customer: 'blocked@example.com', invoice_id: 'inv_1' };
    const adapted = await run([toolCall('get_invoice', blocked), new AIMessage('not reached')], { adapted: true });
    assert.deepEqual([adapted.waits, adapted.model.prompts.length], [[], 1]);
    assert.equal(escalationOf(adapted.state).result.content[0].text, forbiddenRecord);

    const plain = await run([toolCall('get_invoice', blocked), new AIMessage('I cannot see those invoices.')], { adapted: false });
    assert.equal(plain.model.prompts.length, 2);
    assert.deepEqual(toolMessageRead(plain.model, 2), { status: 'error', content: asLangChainError(forbiddenBlocked) });
    assert.equal(escalationOf(plain.state), undefined);
  });

  test('called outside a graph, an escalated tool throws the GraphInterrupt that carries the escalation', async () => {
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ ...billingServer, stderr: 'ignore' }));
    try {
      const tools = await recoveringMcpTools(client, (recovering) => loadMcpTools('billing', recovering));
      const getInvoice = tools.find((tool) => tool.name === 'get_invoice');
      const thrown = await getInvoice.invoke({ customer: 'blocked@example.com', invoice_id: 'inv_1' }).then(
        () => undefined,
        (error) => error,
      );
      assert.equal(thrown?.name, 'GraphInterrupt');
      assert.equal(escalationOf(thrown).result.content[0].text, forbiddenRecord);
      assert.equal(await getInvoice.invoke(jo('inv_1')), invoice1);
    } finally {
      await client.close();
    }
  });
});
