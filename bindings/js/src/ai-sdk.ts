// Vercel AI SDK adapter (`mcp-envelope/ai-sdk`): the tools of an `@ai-sdk/mcp`
// client, each call made through the host loop (host-loop.ts), so that what a
// failed call means is the core's `host-step` and not a rule of this module.
//
// The MCP client's own retry option (`maxRetries`) is a count: which failures
// it retries is fixed inside the client (a thrown transport error with an HTTP
// status of 408, 409, 429 or 5xx, or a connection error code): it never sees
// an `isError` result, never retries a JSON-RPC error, and retries a write as
// it retries a read. It has no predicate to feed from `decide`, so this module
// wraps each tool's `execute` instead; leave `maxRetries` at its default, 0.
//
// How each ending reaches `generateText` / `streamText`:
//   done      the answer is the tool's result, as without the adapter;
//   to-model  the answer is the tool's result too (the envelope the model reads
//             and fixes the call from); a JSON-RPC error is thrown as it came,
//             so the SDK hands its message to the model as a tool error;
//   escalate  the `<partial_result>` record is the tool's result, and the stop
//             condition `escalated` ends the loop after that step: the model is
//             not asked again, and `escalationOf(result)` gives the record to
//             the caller. (A thrown error would not end the loop: the SDK turns
//             it into a tool error for the model's next step.)
// The adapter imports nothing from the AI SDK: it takes the client you made.

import { callToolWithRecovery } from './host-loop.js';
import type { Escalation, ListedTool, RecoveryOptions } from './host-loop.js';

export type { Escalation, ListedTool } from './host-loop.js';
import type { CallToolResult } from './types.js';

/** The parts of an `@ai-sdk/mcp` client (`createMCPClient`) the adapter uses. */
export interface AiSdkMcpClient {
  listTools(options?: { params?: { cursor?: string } }): Promise<{ tools: ListedTool[]; nextCursor?: string }>;
  toolsFromDefinitions(definitions: { tools: ListedTool[]; nextCursor?: string }): Record<string, object>;
  callTool(args: { name: string; arguments?: Record<string, unknown>; options?: { signal?: AbortSignal } }): Promise<unknown>;
}

/** Options of `recoveringTools`: the host loop's budget, the record's format, and how to wait. */
export type AiSdkRecoveryOptions = Omit<RecoveryOptions, 'tool'>;

/** The records this module returned, each with its escalation. */
const escalations = new WeakMap<object, Escalation>();

/**
 * The client's tools (all pages of `tools/list`, built by the client's own
 * `toolsFromDefinitions`), each `execute` replaced by one that calls the
 * tool through `callToolWithRecovery` with the tool's listing: a transient
 * failure is waited out and called again within the budget, what the model
 * must fix is returned to it, and what the host cannot resolve is returned
 * as the escalation record (add `escalated` to `stopWhen`).
 *
 * ```ts
 * const tools = await recoveringTools(mcpClient);
 * const result = await generateText({ model, tools, prompt, stopWhen: [isStepCount(5), escalated] });
 * const escalation = escalationOf(result);
 * ```
 */
export async function recoveringTools<Client extends AiSdkMcpClient>(
  client: Client,
  options: AiSdkRecoveryOptions = {},
): Promise<ReturnType<Client['toolsFromDefinitions']>> {
  let page = await client.listTools();
  const listed = [...page.tools];
  while (page.nextCursor !== undefined && page.nextCursor !== null) {
    page = await client.listTools({ params: { cursor: page.nextCursor } });
    listed.push(...page.tools);
  }
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  const tools = client.toolsFromDefinitions({ tools: listed }) as Record<string, object>;
  const wrapped: Record<string, object> = {};
  for (const [name, tool] of Object.entries(tools)) {
    wrapped[name] = { ...tool, execute: recoveringExecute(client, name, byName.get(name), options) };
  }
  return wrapped as ReturnType<Client['toolsFromDefinitions']>;
}

function recoveringExecute(client: AiSdkMcpClient, name: string, listing: ListedTool | undefined, options: AiSdkRecoveryOptions) {
  return async (input: Record<string, unknown>, execution?: { abortSignal?: AbortSignal }): Promise<unknown> => {
    const signal = execution?.abortSignal;
    signal?.throwIfAborted();
    // The client's own call, the abort signal with it.
    const caller = {
      callTool: (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool({ ...params, options: { signal } }),
    };
    const { then, result, tried, thrown } = await callToolWithRecovery(
      caller,
      { name, arguments: input },
      { tool: listing, budget: options.budget, format: options.format, sleep: options.sleep },
    );
    if (then === 'escalate') {
      escalations.set(result, { tool: name, arguments: input, result: result as CallToolResult, tried });
      return result;
    }
    // A JSON-RPC error goes on as the client threw it: the SDK hands its message to the model.
    if (thrown !== undefined) throw thrown;
    return result;
  };
}

/** The escalation a tool result carries, if it is a record this module returned. */
function escalationIn(output: unknown): Escalation | undefined {
  return typeof output === 'object' && output !== null ? escalations.get(output) : undefined;
}

/** A step as `generateText` and `streamText` give it: its tool results. */
interface StepLike {
  toolResults?: ReadonlyArray<{ output?: unknown }>;
}

/**
 * A stop condition for `stopWhen`: true after a step in which a tool call
 * was escalated, so the loop ends there and the model is not asked again.
 */
export function escalated({ steps }: { steps: ReadonlyArray<StepLike> }): boolean {
  return (steps[steps.length - 1]?.toolResults ?? []).some((toolResult) => escalationIn(toolResult.output) !== undefined);
}

/**
 * The first escalation in a run (a `generateText` result, or its `steps`),
 * undefined when no call was escalated.
 */
export function escalationOf(run: { steps: ReadonlyArray<StepLike> } | ReadonlyArray<StepLike>): Escalation | undefined {
  const steps: ReadonlyArray<StepLike> = 'steps' in run ? run.steps : run;
  for (const step of steps) {
    for (const toolResult of step.toolResults ?? []) {
      const escalation = escalationIn(toolResult.output);
      if (escalation !== undefined) return escalation;
    }
  }
  return undefined;
}
