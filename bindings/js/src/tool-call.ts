// What every framework integration does with a tool call, whatever the
// framework (mcp.ts for the MCP SDK's McpServer, fastmcp.ts for FastMCP):
// the result a handler's return value or exception becomes, the repeat
// ledger it goes through, the arguments checked against the tool's own
// Standard Schema, and the schema a framework is handed instead, which
// accepts anything but lists the original's JSON Schema. Each integration
// only maps its framework's types and hooks onto these.

import { isErrorBuilder } from './builder.js';
import { EnvelopeError } from './read.js';
import { exceptionResult } from './recovery.js';
import { codeDefaults, formatOf } from './render.js';
import type {
  CallToolResult,
  ContractDelta,
  EnvelopeToolOptions,
  InternalFailure,
  SessionLedger,
  StandardJSONSchemaV1,
  StandardSchemaV1,
} from './types.js';
import { validationError } from './validation.js';

/** A handler's outcome: what it returned, or what it threw (or its promise rejected with). */
export type Outcome = { returned: unknown } | { thrown: unknown };

/** One line on stderr: the component's logfmt line, the exception's stack in it as a JSON string. */
const defaultLogger = (f: InternalFailure) => console.error(`[mcp-envelope] ${f.log}`);

function isZodError(value: unknown): value is { issues: unknown[] } {
  return value instanceof Error && value.name === 'ZodError' && Array.isArray((value as { issues?: unknown }).issues);
}

/** The outcome of calling `run`, a synchronous throw included. */
export function outcomeOf(run: () => unknown): Promise<Outcome> {
  return Promise.resolve()
    .then(run)
    .then(
      (returned) => ({ returned }),
      (thrown) => ({ thrown }),
    );
}

/**
 * The result a handler's return value or exception becomes, passed through
 * `options.ledger` when there is one (a promise of it for a `SharedLedger`).
 * Exported for hosts other than the MCP SDK; `args` are the call's arguments.
 */
export function resultFor(outcome: Outcome, tool: string, args: unknown, options: EnvelopeToolOptions = {}): unknown {
  const source = 'returned' in outcome ? outcome.returned : outcome.thrown;
  const { ledger } = options;
  if (ledger !== undefined && isErrorBuilder(source)) {
    // A builder goes through the ledger as its own spec (its locale, caps and
    // ToolFailure clock kept, as Python's raised ToolError does), rendered once.
    // A refused spec: the builder's own result, as without a ledger.
    const fallback = () => outcomeResult(outcome, tool, args, options);
    try {
      const sent = ledger.failure(tool, source, { arguments: args });
      // A shared ledger (SharedLedger) answers later.
      return isPromise(sent) ? sent.then((answer) => answer, fallback) : sent;
    } catch {
      return fallback();
    }
  }
  const result = outcomeResult(outcome, tool, args, options);
  return ledger === undefined ? result : observed(result, tool, args, ledger);
}

function outcomeResult(outcome: Outcome, tool: string, args: unknown, options: EnvelopeToolOptions): unknown {
  try {
    // A builder is turned into its plain result, so nothing downstream depends on reading its getters.
    if ('returned' in outcome) return isErrorBuilder(outcome.returned) ? outcome.returned.build() : outcome.returned;
    const thrown = outcome.thrown;
    if (isErrorBuilder(thrown)) return thrown.build();
    // An error read from another tool's result (throwIfError) is passed on as it came.
    if (thrown instanceof EnvelopeError) return { content: [{ type: 'text', text: thrown.raw }], isError: true };
    if (isZodError(thrown)) return validationError(options.action ?? tool, thrown, { input: args, locale: options.locale });
    if (Array.isArray((thrown as CallToolResult | null)?.content) && (thrown as CallToolResult).isError === true) return thrown;
  } catch (conversionFailure) {
    // A builder whose spec is refused, or a malformed envelope thrown by the handler, is itself an internal failure.
    return internalError(conversionFailure, tool, options);
  }
  return internalError(outcome.thrown, tool, options);
}

/** The component's INTERNAL_ERROR with a fresh correlation id; the exception goes to the logger only. */
function internalError(error: unknown, tool: string, options: EnvelopeToolOptions): CallToolResult {
  const { result, correlationId, log } = exceptionResult({
    tool: String(tool),
    exception: error,
    format: formatOf(options),
    locale: options.locale,
  });
  try {
    (options.logger ?? defaultLogger)({ correlationId, tool, error, log });
  } catch {
    // A failing logger must not turn into a different error for the model.
  }
  return result;
}

/**
 * Any other result goes through the ledger's `observe`, and the core decides:
 * a `<tool_error>` in any form counts and a repeat comes back in the
 * handler's own form; a success ends the streak.
 */
function observed(result: unknown, tool: string, args: unknown, ledger: SessionLedger): unknown {
  const plain = result as CallToolResult | null;
  if (plain === null || typeof plain !== 'object' || !Array.isArray(plain.content)) return result;
  try {
    const replaced = ledger.observe(tool, plain, { arguments: args });
    // A shared ledger (SharedLedger) answers later; one that fails sends the result as it came.
    return isPromise(replaced)
      ? replaced.then(
          (answer) => answer ?? result,
          () => result,
        )
      : (replaced ?? result);
  } catch {
    // A ledger that fails: the result still reaches the model as it came.
    return result;
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | null)?.then === 'function';
}

/**
 * Refuses bad options when the tool is registered, not when a call first
 * fails: a wrong format or locale would otherwise replace the envelope of
 * the first exception with a refusal.
 */
export function checkOptions(options: EnvelopeToolOptions): void {
  formatOf(options);
  // The component's own refusal of a locale it does not know.
  if (options.locale !== undefined) codeDefaults('INTERNAL_ERROR', { locale: options.locale });
  const ledger = options.ledger as Partial<SessionLedger> | undefined;
  // Duck-typed, so a ledger from another copy of the package works too.
  if (ledger !== undefined && (typeof ledger?.observe !== 'function' || typeof ledger.failure !== 'function')) {
    throw new TypeError('options.ledger must be a Ledger (new Ledger() from mcp-envelope, one per server session) or a SharedLedger');
  }
}

/** Whether a value is a Standard Schema that gives its JSON Schema (`~standard.jsonSchema`). */
export function hasJsonSchema(schema: unknown): schema is StandardJSONSchemaV1 {
  const standard = (schema as Partial<StandardSchemaV1> | null | undefined)?.['~standard'] as
    | Partial<StandardJSONSchemaV1['~standard']>
    | undefined;
  return typeof standard?.validate === 'function' && typeof standard.jsonSchema?.input === 'function';
}

/**
 * A schema a framework lists as `schema` and that accepts any value, so the
 * framework's own check (a JSON-RPC -32602, or its plain text) never answers
 * a call: the arguments reach `checkArguments` as they were sent.
 */
export function acceptingAnything(schema: StandardJSONSchemaV1): StandardJSONSchemaV1 {
  const { vendor, jsonSchema } = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor,
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: (options) => jsonSchema.input(options), output: (options) => jsonSchema.output(options) },
    },
  };
}

/** What `checkArguments` needs besides the schema. */
export interface ArgumentCheck {
  /** The name on `<validation_error action="...">`. */
  action: string;
  /** The JSON Schema `tools/list` sends for the tool, from which the core words each "Expected …". */
  inputSchema: () => Record<string, unknown>;
  locale?: EnvelopeToolOptions['locale'];
  /** The contract deltas a failure's envelope carries (a lockfile's), when the integration has them. */
  deltas?: () => Promise<readonly ContractDelta[] | undefined>;
}

/** The arguments as the tool's schema parses them, or the `<validation_error>` to answer with. */
export async function checkArguments(
  schema: StandardSchemaV1,
  args: unknown,
  check: ArgumentCheck,
): Promise<{ value: unknown } | { result: CallToolResult }> {
  const parsed = await schema['~standard'].validate(args);
  if (parsed.issues === undefined) return { value: parsed.value };
  const deltas = await check.deltas?.();
  const result = validationError(
    check.action,
    { issues: parsed.issues },
    { input: args, inputSchema: check.inputSchema(), locale: check.locale, ...(deltas === undefined ? {} : { deltas }) },
  );
  return { result };
}
