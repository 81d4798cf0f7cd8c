// mcp-envelope/agent: the agent host's side. What to do with a tool's result
// (decide), the host loop's step and a recovering call, and the OpenTelemetry
// span attributes of a result (docs/recovery-features.md).

export type { DecideOptions, Decision } from './types.js';
export { decide } from './decide.js';
export { callToolWithRecovery, hostStep } from './host-loop.js';
export type {
  Escalation,
  HostAttempt,
  HostBudget,
  HostStep,
  HostStepRequest,
  JsonRpcErrorAnswer,
  ListedTool,
  Recovered,
  RecoveryOptions,
  ToolCaller,
} from './host-loop.js';
export { spanAttributes } from './telemetry.js';
export type { OpenTelemetryApi } from './telemetry.js';
