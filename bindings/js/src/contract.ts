// mcp-envelope/contract: the lockfile of a server's tool list and what
// changed from it, classified by the core (docs/contract-diff.md).

export type { ContractDelta } from './types.js';
export { contractDiff, contractLock, LockedContract } from './lockfile.js';
export type { ToolList } from './lockfile.js';
