// mcp-envelope: the error envelopes MCP servers send to language models,
// rendered and read by the shared WebAssembly component so every host writes
// and reads the same bytes. This entry holds building, rendering and reading
// an envelope; the server toolkit is in `mcp-envelope/server`, the agent
// host's side in `mcp-envelope/agent`, the contract lockfile in
// `mcp-envelope/contract`, the JSON twins and internal steps in
// `mcp-envelope/raw`, the MCP SDK integration in `mcp-envelope/mcp`.

export type {
  CallToolResult,
  CanonicalCode,
  Category,
  Code,
  CodeDefaults,
  DetailValue,
  EnvelopeReading,
  EnvelopeSpec,
  ErrorOptions,
  Format,
  IssueCode,
  Limits,
  LimitsInForce,
  Locale,
  PartialFailure,
  PartialLimits,
  PartialLimitsInForce,
  PartialReport,
  PartialResultReading,
  PartialSpec,
  ProtocolError,
  ProtocolErrorKind,
  Reading,
  RenderOptions,
  Severity,
  TextContent,
  ToolErrorReading,
  ValidationErrorReading,
  ValidationField,
  ValidationIssue,
  ValidationOptions,
  ValidationReport,
} from './types.js';
export { canonicalCodes, codeDefaults, limitsInForce, protocolError, render, toolError } from './render.js';
export { error, ErrorBuilder } from './builder.js';
export { EnvelopeError, parseEnvelope, throwIfError } from './read.js';
export { renderValidation, toValidationIssues, validationError } from './validation.js';
export { partialLimitsInForce, partialResult, renderPartial } from './partial.js';
