// The agent host's side of a failed tool call (docs/host-loop.md): after each
// answer the core's `host-step` says whether the host waits and calls again on
// its own, hands the answer to the model, returns it, or escalates with the
// `<partial_result>` record of what it tried. This module only makes the calls
// (through any MCP client with `callTool`), sleeps, and keeps the attempts
// between steps; every rule and every word is the core's.

import * as component from './full-component.js';
import { toJson } from './render.js';
import type { CallToolResult, Format, HostAttempt, HostBudget, HostEscalation, HostHandover, HostRetry } from './types.js';

// The attempts and the budget are the core's shapes (generated, types.ts).
export type { HostAttempt, HostBudget } from './types.js';

/** A JSON-RPC error as a client received it. */
export interface JsonRpcErrorAnswer {
  code: number;
  message: string;
  data?: unknown;
}

/** The request `hostStep` takes: the called tool's name, its answer, and what came before. */
export interface HostStepRequest {
  name: string;
  /** The answer: a `CallToolResult`, or a JSON-RPC error. */
  result: CallToolResult | JsonRpcErrorAnswer | object;
  /** The tool's `tools/list` entry: its annotations say whether a retry is safe. */
  tool?: object;
  tried?: HostAttempt[];
  budget?: HostBudget;
  /** The escalation record's form: `xml` (the default), `json` or `text`. */
  format?: Format;
}

/** What the host does next: the core's shapes, the escalation's record a `CallToolResult`. */
export type HostStep = HostRetry | HostHandover | (Omit<HostEscalation, 'result'> & { result: CallToolResult });

/**
 * The host's next step after an answer, as the core decides it (`host-step`):
 * `retry` after `waitMs`, `done` (the answer is the outcome), `to-model` (only
 * the model can change the call) or `escalate` (`result` carries the record).
 */
export function hostStep(request: HostStepRequest): HostStep {
  return JSON.parse(hostStepJson(toJson(request, 'the host-step request'))) as HostStep;
}

/** `hostStep` with the request as JSON text; gives the step as JSON text. */
export const hostStepJson = (requestText: string): string => component.hostStep(String(requestText));

/** What `callToolWithRecovery` ends with. */
export interface Recovered {
  /** `done`: the answer is the outcome; `to-model`: give it to the model; `escalate`: the host could not resolve it. */
  then: 'done' | 'to-model' | 'escalate';
  /** The last answer (`done`, `to-model`: a result, or the JSON-RPC error), or the escalation record's result. */
  result: CallToolResult | JsonRpcErrorAnswer;
  /** Every call made, oldest first: its code, branch and the wait after it. */
  tried: HostAttempt[];
  /** When `result` is a JSON-RPC error (`done`, `to-model`): what the client threw, for a caller that passes it on as it came. */
  thrown?: unknown;
}

/** Options of `callToolWithRecovery`. */
export interface RecoveryOptions {
  /** The tool's `tools/list` entry: without it, a retry is judged on the answer alone. */
  tool?: object;
  budget?: HostBudget;
  format?: Format;
  /** How to wait (default: a timer); a test may record the waits instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** A tool as `tools/list` lists it: the host loop reads its name and annotations. */
export interface ListedTool {
  name: string;
  annotations?: object;
  [key: string]: unknown;
}

/** A call the host loop escalated, as an agent framework's adapter reports it: the tool, its arguments, the `<partial_result>` record and every call made. */
export interface Escalation {
  tool: string;
  arguments: Record<string, unknown>;
  result: CallToolResult;
  tried: HostAttempt[];
}

/** The parts of an MCP client this module uses: the TypeScript SDK's `Client` (1.x and 2.x) has them. */
export interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** A thrown JSON-RPC error's `{code, message, data?}` (the SDK's McpError or ProtocolError), undefined for anything else. */
function jsonRpcErrorOf(thrown: unknown): JsonRpcErrorAnswer | undefined {
  if (!(thrown instanceof Error)) return undefined;
  const { code, data } = thrown as { code?: unknown; data?: unknown };
  if (!Number.isInteger(code)) return undefined;
  return { code: code as number, message: thrown.message, ...(data === undefined ? {} : { data }) };
}

/**
 * Calls a tool through `client` and absorbs what the host can absorb without
 * a model turn: a transient failure is waited out and called again, within
 * the budget, as the answer's retry-after and the tool's annotations allow
 * (a write that is neither read-only nor idempotent is never retried
 * blindly). It ends with the answer for the caller (`done`), the answer for
 * the model to fix (`to-model`), or the record to escalate (`escalate`).
 * A failure of the transport itself (no answer) is thrown as it came.
 *
 * ```ts
 * const { then, result, tried } = await callToolWithRecovery(client, { name: 'get_invoice', arguments: { id: 'inv_1' } },
 *   { tool: listed.get('get_invoice') });
 * ```
 */
export async function callToolWithRecovery(
  client: ToolCaller,
  params: { name: string; arguments?: Record<string, unknown> },
  options: RecoveryOptions = {},
): Promise<Recovered> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let tried: HostAttempt[] = [];
  for (;;) {
    let answer: CallToolResult | JsonRpcErrorAnswer;
    let thrown: { error: unknown } | undefined;
    try {
      answer = (await client.callTool(params)) as CallToolResult;
    } catch (error) {
      const rpcError = jsonRpcErrorOf(error);
      if (rpcError === undefined) throw error;
      answer = rpcError;
      thrown = { error };
    }
    const step = hostStep({ name: params.name, result: answer, tool: options.tool, tried, budget: options.budget, format: options.format });
    tried = step.tried;
    if (step.then === 'retry') {
      await sleep(step.waitMs);
      continue;
    }
    if (step.then === 'escalate') return { then: step.then, result: step.result, tried };
    return { then: step.then, result: answer, tried, ...(thrown === undefined ? {} : { thrown: thrown.error }) };
  }
}
