// What every framework integration does with a tool call, whatever the
// framework (mcp.ts for the MCP SDK's McpServer, fastmcp.ts for FastMCP):
// the result a handler's return value or exception becomes, the repeat
// ledger it goes through, the arguments checked against the tool's own
// Standard Schema, and the schema a framework is handed instead, which
// accepts anything but lists the original's JSON Schema. Each integration
// only maps its framework's types and hooks onto these.

import { isErrorBuilder } from './builder.js';
import type { ErrorBuilder } from './builder.js';
import * as component from './component.js';
import * as full from './full-component.js';
import { EnvelopeError } from './read.js';
import { exceptionText } from './recovery.js';
import { codeDefaults, formatOf, toJson } from './render.js';
import { thrownOutcome } from './thrown.js';
import type {
  CallToolResult,
  ContractDelta,
  EnvelopeToolOptions,
  Format,
  InternalFailure,
  LedgerRequest,
  SessionLedger,
  StandardJSONSchemaV1,
  StandardSchemaV1,
} from './types.js';
import { validationError, validationSpec } from './validation.js';

/**
 * A handler's outcome: what it returned, what it threw (or its promise
 * rejected with), or a framework's own error for the model, by its text.
 */
export type Outcome = { returned: unknown } | { thrown: unknown } | { userError: string };

/** One line on stderr: the component's logfmt line, the exception's stack in it as a JSON string. */
const defaultLogger = (f: InternalFailure) => console.error(`[mcp-envelope] ${f.log}`);

function isZodError(value: unknown): value is { issues: unknown[] } {
  return value instanceof Error && value.name === 'ZodError' && Array.isArray((value as { issues?: unknown }).issues);
}

const isResult = (value: unknown): value is CallToolResult => Array.isArray((value as CallToolResult | null)?.content);

/** Whether a value is our error builder; a hostile value (a Proxy whose traps throw) is not. */
function isBuilder(value: unknown): value is ErrorBuilder {
  try {
    return isErrorBuilder(value);
  } catch {
    return false;
  }
}

/**
 * The JSON-RPC errors that ask the client itself to act, thrown from a
 * tool's handler and rethrown by the SDK: a URL elicitation the call needs
 * (`UrlElicitationRequired`, -32042) and a missing client capability
 * (SEP-2575's -32021). Requests to the client, not failures: the Python
 * integrations pass the same two on.
 */
const CLIENT_ACTIONS: readonly unknown[] = [-32042, -32021];

/** Whether the outcome asks the client to act, which the MCP integrations pass on (`answeredForRevision`). */
export function passesThrough(outcome: Outcome): outcome is { thrown: Error & { code: number; message: string; data?: unknown } } {
  if (!('thrown' in outcome)) return false;
  try {
    return outcome.thrown instanceof Error && CLIENT_ACTIONS.includes((outcome.thrown as { code?: unknown }).code);
  } catch {
    // A hostile thrown value (a Proxy, a getter that throws) is an exception like any other.
    return false;
  }
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
 * Exported for hosts other than the MCP SDK; `args` are the call's arguments,
 * `context` the SDK's context of the request (`extra`), from which a `ledger`
 * function is given its `LedgerRequest`.
 *
 * A returned result is sent as it is. Anything else is classified here (our
 * error, a Zod error, an envelope raised again, a raised result, any other
 * exception) and the core's `handler-result` says what it becomes and which
 * step of the ledger it goes through (docs/handler-outcomes.md).
 */
export function resultFor(outcome: Outcome, tool: string, args: unknown, options: EnvelopeToolOptions = {}, context?: unknown): unknown {
  const ledger = ledgerOf(options.ledger, context);
  if ('returned' in outcome && !isBuilder(outcome.returned)) {
    return ledger === undefined ? outcome.returned : observed(outcome.returned, tool, args, ledger);
  }
  const source = 'userError' in outcome ? undefined : 'returned' in outcome ? outcome.returned : outcome.thrown;
  const answer = handlerAnswer(outcome, source, tool, args, options);
  if (ledger === undefined) return answer.result;
  if (answer.ledger === 'failure' && isBuilder(source)) {
    // A builder goes through the ledger as its own spec (its locale, caps and
    // ToolFailure clock kept), rendered once; were the ledger to fail, the
    // core's answer goes as it is.
    try {
      const sent = ledger.failure(tool, source, { arguments: args });
      // A shared ledger (SharedLedger) answers later.
      return isPromise(sent)
        ? sent.then(
            (replaced) => replaced,
            () => answer.result,
          )
        : sent;
    } catch {
      return answer.result;
    }
  }
  return observed(answer.result, tool, args, ledger);
}

/** The core's `handler-result` answer. */
interface HandlerAnswer {
  result: CallToolResult;
  ledger: 'failure' | 'observe';
  correlationId?: string;
  log?: string;
}

/** What kind of thing the handler produced, as the core's `handler-result` takes it. */
function classified(outcome: Outcome, source: unknown, tool: string, args: unknown, options: EnvelopeToolOptions) {
  if ('userError' in outcome) return { userError: outcome.userError };
  if (isBuilder(source)) return { error: source.toSpec() };
  // An error read from another tool's result (throwIfError) is passed on as it came.
  if (source instanceof EnvelopeError) return { envelope: source.raw };
  if (isZodError(source)) {
    return { validation: validationSpec(options.action ?? tool, source, { input: args, locale: options.locale }) };
  }
  if (isResult(source)) return { result: source };
  // What its structure says (thrown.ts): a system error, an HTTP status, a
  // timeout, or the author's own words; else its text goes to the log only.
  return thrownOutcome(source, () => exceptionText(source)) ?? { exception: exceptionText(source) };
}

function handlerAnswer(outcome: Outcome, source: unknown, tool: string, args: unknown, options: EnvelopeToolOptions): HandlerAnswer {
  // A builder renders in the format it was given; everything else in the server's.
  const format: Format = isBuilder(source) ? source.selectedFormat : formatOf(options);
  const request = {
    tool: String(tool),
    format,
    locale: options.locale,
    random: component.randomHex(),
    thrownMessages: options.thrownMessages,
  };
  let text: string;
  try {
    const classifiedOutcome = classified(outcome, source, tool, args, options);
    // Only a known failure reads the arguments (to name the one a failing path
    // or URL came from): no other answer pays for copying them into the request.
    const named = 'known' in classifiedOutcome && args !== undefined ? { arguments: args } : {};
    text = toJson({ ...request, ...named, outcome: classifiedOutcome }, 'the handler-result request');
  } catch (unwritable) {
    // What the handler produced cannot be written as JSON (a cycle, a BigInt in a spec): the tool's own failure.
    text = toJson({ ...request, outcome: { exception: exceptionText(unwritable) } }, 'the handler-result request');
  }
  const answer = JSON.parse(full.handlerResult(text)) as HandlerAnswer;
  if (answer.log !== undefined && answer.correlationId !== undefined) {
    try {
      (options.logger ?? defaultLogger)({ correlationId: answer.correlationId, tool, error: source, log: answer.log });
    } catch {
      // A failing logger must not turn into a different error for the model.
    }
  }
  return answer;
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

/**
 * The `_meta` key a client names its conversation with on a transport
 * without sessions (docs/state.md), the same in every language. Outside the
 * `io.modelcontextprotocol/` prefix, which the MCP specification reserves.
 */
const CONVERSATION_META_KEY = 'mcp-envelope/conversation';

/** Whether a value has a ledger's two steps; duck-typed, so a ledger from another copy of the package works too. */
function isLedger(value: unknown): value is SessionLedger {
  const ledger = value as Partial<SessionLedger> | null | undefined;
  return typeof ledger?.observe === 'function' && typeof ledger.failure === 'function';
}

/**
 * The ledger of one call: the one given, or the one the given function picks
 * from the call's request (read from `request`, the SDK's `extra`, which is
 * `context` unless a framework hands its tools a context of its own). A
 * function that throws or returns no ledger leaves the call without one: the
 * result reaches the model as it came.
 */
export function ledgerOf(choice: EnvelopeToolOptions['ledger'], context: unknown, request: unknown = context): SessionLedger | undefined {
  if (typeof choice !== 'function') return choice;
  try {
    const chosen = choice(ledgerRequest(context, request));
    return isLedger(chosen) ? chosen : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the SDK's context of a call says of its request: SDK 1.x's `extra`
 * (`sessionId`, `_meta`, `requestInfo.headers`), 2.x's `ctx` (`sessionId`,
 * `mcpReq._meta`, `http.req.headers`), FastMCP's `context` (`sessionId`).
 */
function ledgerRequest(context: unknown, request: unknown): LedgerRequest {
  const c = (typeof request === 'object' && request !== null ? request : {}) as Record<string, any>;
  const sessionId = typeof c.sessionId === 'string' && c.sessionId !== '' ? c.sessionId : undefined;
  const given = c._meta ?? c.mcpReq?._meta;
  const meta: Record<string, unknown> = typeof given === 'object' && given !== null ? given : {};
  const headers = headersOf(c.requestInfo?.headers ?? c.http?.req?.headers);
  const named = meta[CONVERSATION_META_KEY];
  const conversation = typeof named === 'string' && named !== '' ? named : sessionId;
  return {
    ...(conversation === undefined ? {} : { conversation }),
    ...(sessionId === undefined ? {} : { sessionId }),
    meta,
    ...(headers === undefined ? {} : { headers }),
    context,
  };
}

/** Request headers as one record, names in lower case: a fetch `Headers`, or Node's record (a repeated header's values joined). */
function headersOf(given: unknown): Record<string, string> | undefined {
  if (typeof given !== 'object' || given === null) return undefined;
  const headers: Record<string, string> = {};
  const add = (value: unknown, name: string) => {
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (typeof text === 'string') headers[name.toLowerCase()] = text;
  };
  const { forEach } = given as { forEach?: unknown };
  if (typeof forEach === 'function') forEach.call(given, add);
  else for (const [name, value] of Object.entries(given)) add(value, name);
  return headers;
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
  const { thrownMessages } = options;
  if (thrownMessages !== undefined && thrownMessages !== 'shown' && thrownMessages !== 'hidden') {
    const given = typeof thrownMessages === 'string' ? JSON.stringify(thrownMessages) : typeof thrownMessages;
    throw new TypeError(
      `options.thrownMessages must be 'shown' (a thrown Error's own message reaches the model) or 'hidden', not ${given}`,
    );
  }
  const { ledger } = options;
  if (ledger !== undefined && typeof ledger !== 'function' && !isLedger(ledger)) {
    throw new TypeError(
      'options.ledger must be a Ledger (new Ledger() from mcp-envelope, one per server session), a SharedLedger, ' +
        "or a function of the call's request returning the ledger of its conversation",
    );
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
