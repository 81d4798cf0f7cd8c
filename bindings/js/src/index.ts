// mcp-envelope: the error envelopes MCP servers send to language models,
// rendered and read by the shared WebAssembly component so every host writes
// and reads the same bytes. The MCP SDK integration is in `mcp-envelope/mcp`.

export type {
  CallToolResult, CanonicalCode, Category, Code, ContractDelta, DetailValue, EnvelopeReading, EnvelopeSpec, ErrorOptions,
  ErrorOutcome, Format, IssueCode, ProtocolError, ProtocolErrorKind, Reading, RenderOptions, Severity, TextContent,
  ToolErrorReading, ValidationErrorReading, ValidationField, ValidationIssue, ValidationOptions, ValidationReport,
} from './types.js';
export { callToolResultJson, canonicalCodes, protocolError, protocolErrorJson, render, renderJson, toolError } from './render.js';
export { error, ErrorBuilder, isErrorBuilder } from './builder.js';
export { EnvelopeError, parseEnvelope, throwIfError } from './read.js';
export { renderValidation, renderValidationJson, toValidationIssues, validationError, validationResultJson } from './validation.js';
export { useCoreModule } from './component.js';
