// LangChain adapter (`mcp-envelope/langchain`): the tools `@langchain/mcp-adapters`
// loads from an MCP client, each call made through the host loop
// (host-loop.ts), so that what a failed call means is the core's `host-step`
// and not a rule of this module.
//
// The adapters' extension points in 1.1 are `beforeToolCall` (it may change
// the arguments and headers), `afterToolCall` (it sees successes only: an
// `isError` result is thrown as a ToolException before it runs) and the
// client that `loadMcpTools` takes. So the host loop goes in as that client:
// a proxy of yours whose `callTool` is `callToolWithRecovery` over your
// client's own `callTool`, with the tool's `tools/list` entry recorded as the
// adapters list the tools through it.
//
// How each ending reaches a LangGraph agent (createReactAgent, or any graph
// with a ToolNode):
//   done      the answer is the tool's result, as without the adapter;
//   to-model  the answer goes to the model as LangChain sends every `isError`
//             result: an error ToolMessage with the envelope in it; a JSON-RPC
//             error is thrown as it came;
//   escalate  the run stops: the tool raises LangGraph's GraphInterrupt with
//             the escalation (the `<partial_result>` record and every call
//             made) as the interrupt's value. A ToolNode turns every other
//             error into a message for the model and lets only an interrupt
//             through; `invoke` then returns the state with `__interrupt__`,
//             the model not asked again, and `escalationOf(state)` reads it.
// The adapters wrap anything a tool's call throws in a ToolException of their
// own unless its name is `ToolException`, so the escalation crosses them under
// that name and the tool's function, wrapped here, raises the interrupt.

import { GraphInterrupt } from '@langchain/langgraph';
import { callToolWithRecovery } from './host-loop.js';
import type { Escalation, ListedTool, RecoveryOptions } from './host-loop.js';

export type { Escalation, ListedTool } from './host-loop.js';
import type { CallToolResult } from './types.js';

/** The parts of an MCP client (the MCP SDK's `Client`) the adapter wraps; the rest is passed through. */
export interface LangChainMcpClient {
  listTools(...args: any[]): Promise<{ tools: ListedTool[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: any[]): Promise<unknown>;
}

/** Options of `recoveringMcpTools`: the host loop's budget, the record's format, and how to wait. */
export type LangChainRecoveryOptions = Omit<RecoveryOptions, 'tool'>;

/** The escalations this module raised. */
const raised = new WeakSet<object>();

/** An escalation on its way through the adapters' `_callTool`, which passes a ToolException on unchanged. */
class EscalationPassage extends Error {
  constructor(readonly escalation: Escalation) {
    super(`call ${escalation.tool}: escalated`);
    this.name = 'ToolException';
  }
}

/**
 * Loads LangChain tools with `load` (give it `loadMcpTools` from
 * `@langchain/mcp-adapters` with your options) over a proxy of `client`
 * whose every tool call goes through `callToolWithRecovery`, and returns them
 * with each tool raising a LangGraph interrupt when its call is escalated.
 *
 * ```ts
 * const tools = await recoveringMcpTools(client, (recovering) => loadMcpTools('billing', recovering));
 * const agent = createReactAgent({ llm, tools });
 * const state = await agent.invoke({ messages });
 * const escalation = escalationOf(state);
 * ```
 */
export async function recoveringMcpTools<Client extends LangChainMcpClient, Tool>(
  client: Client,
  load: (client: Client) => Promise<Tool[]>,
  options: LangChainRecoveryOptions = {},
): Promise<Tool[]> {
  const listed = new Map<string, ListedTool>();
  const recovering = new Proxy(client, {
    get(target, property) {
      if (property === 'listTools') {
        return async (...args: unknown[]) => {
          const page = await target.listTools(...args);
          for (const tool of page.tools ?? []) listed.set(tool.name, tool);
          return page;
        };
      }
      if (property === 'callTool') {
        return (params: { name: string; arguments?: Record<string, unknown> }, ...rest: unknown[]) =>
          callWithRecovery(target, params, rest, listed.get(params.name), options);
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const tools = await load(recovering);
  for (const tool of tools) interruptOnEscalation(tool);
  return tools;
}

async function callWithRecovery(
  client: LangChainMcpClient,
  params: { name: string; arguments?: Record<string, unknown> },
  rest: unknown[],
  listing: ListedTool | undefined,
  options: LangChainRecoveryOptions,
): Promise<unknown> {
  const caller = { callTool: (call: { name: string; arguments?: Record<string, unknown> }) => client.callTool(call, ...rest) };
  const { then, result, tried, thrown } = await callToolWithRecovery(caller, params, {
    tool: listing,
    budget: options.budget,
    format: options.format,
    sleep: options.sleep,
  });
  if (then === 'escalate') {
    const escalation = { tool: params.name, arguments: params.arguments ?? {}, result: result as CallToolResult, tried };
    raised.add(escalation);
    throw new EscalationPassage(escalation);
  }
  // A JSON-RPC error goes on as the client threw it.
  if (thrown !== undefined) throw thrown;
  return result;
}

/** Wraps a tool's function (`DynamicStructuredTool.func`) so that an escalation raises a LangGraph interrupt. */
function interruptOnEscalation(tool: unknown): void {
  const holder = tool as { func?: unknown };
  const func = holder.func;
  if (typeof func !== 'function') return;
  holder.func = async function (this: unknown, ...args: unknown[]) {
    try {
      return await func.apply(this, args);
    } catch (error) {
      if (error instanceof EscalationPassage) throw new GraphInterrupt([{ value: error.escalation }]);
      throw error;
    }
  };
}

/**
 * The escalation that stopped a run: read from the state `invoke` returned
 * (its `__interrupt__`), or from a GraphInterrupt; undefined when no call
 * was escalated.
 */
export function escalationOf(run: unknown): Escalation | undefined {
  const interrupts = run as { __interrupt__?: unknown; interrupts?: unknown } | null | undefined;
  const list = interrupts?.__interrupt__ ?? interrupts?.interrupts;
  if (!Array.isArray(list)) return undefined;
  for (const entry of list) {
    const value = (entry as { value?: unknown } | null)?.value;
    if (typeof value === 'object' && value !== null && raised.has(value)) return value as Escalation;
  }
  return undefined;
}
