// Agent-framework users: recoveringTools keeps the tool set type of the
// @ai-sdk/mcp client, so generateText takes it, with `escalated` among its
// stop conditions; recoveringMcpTools keeps the type of the tools
// loadMcpTools gives, so createReactAgent takes them.
import { createMCPClient } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateText, isStepCount } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { CallToolResult } from 'mcp-envelope';
import { escalated, escalationOf, recoveringTools } from 'mcp-envelope/ai-sdk';
import { escalationOf as interruptedBy, recoveringMcpTools } from 'mcp-envelope/langchain';

export async function aiSdk(): Promise<CallToolResult | undefined> {
  const client = await createMCPClient({ transport: new StdioMCPTransport({ command: 'node', args: ['server.mjs'] }) });
  const tools = await recoveringTools(client, { budget: { maxAttempts: 2 }, format: 'xml' });
  const result = await generateText({ model: new MockLanguageModelV4(), tools, prompt: 'go', stopWhen: [isStepCount(5), escalated] });
  // @ts-expect-error the format is xml, json or text
  await recoveringTools(client, { format: 'yaml' });
  return escalationOf(result)?.result;
}

export async function langChain(): Promise<string | undefined> {
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: ['server.mjs'] }));
  const tools = await recoveringMcpTools(client, (recovering) => loadMcpTools('billing', recovering), { sleep: async () => {} });
  const agent = createReactAgent({ llm: new FakeListChatModel({ responses: ['done'] }), tools });
  const state = await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
  return interruptedBy(state)?.tool;
}
