// mcp-envelope: the error envelopes MCP servers send to language models,
// rendered by the shared WebAssembly component so every host writes the same
// bytes. The MCP SDK integration is in `mcp-envelope/mcp`.

export type {
  CallToolResult, CanonicalCode, Category, Code, ContractDelta, DetailValue, EnvelopeSpec, ErrorOptions, Format,
  ParsedEnvelope, Severity, TextContent, ValidationField, ValidationReport,
} from './types.js';
export {
  callToolResultJson, canonicalCodes, protocolError, protocolErrorJson, render, renderJson, toolError,
  type ProtocolError, type ProtocolErrorKind, type RenderOptions,
} from './render.js';
export { error, ErrorBuilder, isErrorBuilder } from './builder.js';
export { EnvelopeError, parseEnvelope, throwIfError } from './parse.js';
export {
  renderValidation, renderValidationJson, toValidationIssues, validationError, validationResultJson,
  type IssueCode, type ValidationIssue, type ValidationOptions,
} from './validation.js';
export { useCoreModule } from './component.js';
