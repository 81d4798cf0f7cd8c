// What an operator's trace says of a tool call's answer (docs/telemetry.md):
// the core's attributes for a `CallToolResult` (`span-attributes`:
// `error.type` = `tool_error` as the MCP semantic conventions say, and the
// envelope's code, category, retryability and correlation id under
// `mcp_envelope.error.*`, never its text), set on a `tools/call` span the
// integration opens through the application's own OpenTelemetry API (the
// TypeScript SDK opens none), continuing the trace context the request
// carries in `params._meta`. Off unless the server is given the API
// (`envelopeServer(server, { opentelemetry })`) and a tracer is registered.

import * as component from './full-component.js';
import { toJson } from './render.js';
import type { CallToolResult } from './types.js';

/**
 * The parts of `@opentelemetry/api` (1.x) the integration uses: pass the
 * module itself, imported as a namespace (`import * as opentelemetry`).
 */
export interface OpenTelemetryApi {
  trace: { getTracer(name: string, version?: string): OpenTelemetryTracer };
  context: { active(): unknown };
  propagation: {
    extract(
      context: unknown,
      carrier: unknown,
      getter?: { get(carrier: any, key: string): unknown; keys(carrier: any): string[] },
    ): unknown;
  };
  SpanKind: { SERVER: number };
  SpanStatusCode: { ERROR: number };
}

interface OpenTelemetrySpan {
  setAttribute(key: string, value: string | boolean): unknown;
  setAttributes(attributes: Record<string, string | boolean>): unknown;
  setStatus(status: { code: number }): unknown;
  end(): void;
}

interface OpenTelemetryTracer {
  startActiveSpan<T>(
    name: string,
    options: { kind: number; attributes: Record<string, string> },
    context: unknown,
    fn: (span: OpenTelemetrySpan) => T,
  ): T;
}

/** The attributes for the span of a call that answered `result`, as the core gives them: `{}` for a result that is not an error. */
export function spanAttributes(result: CallToolResult | object): Record<string, string | boolean> {
  return JSON.parse(spanAttributesJson(toJson(result, 'the result'))) as Record<string, string | boolean>;
}

/** `spanAttributes` with the result as JSON text; gives the attributes as JSON text. */
export const spanAttributesJson = (resultText: string): string => component.spanAttributes(String(resultText));

/** `_meta`'s string entries, as a W3C trace-context carrier. */
const metaGetter = {
  get: (carrier: Record<string, unknown>, key: string) => (typeof carrier[key] === 'string' ? carrier[key] : undefined),
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
};

/**
 * Runs `call` (the SDK's `tools/call` handler) in a `tools/call {name}` server
 * span continuing the request's `_meta` trace context, and sets on it the
 * core's attributes for the result (or the JSON-RPC error's code as
 * `error.type`). Telemetry never fails the call.
 */
export async function tracedToolCall(otel: OpenTelemetryApi, name: string, request: any, call: () => unknown): Promise<unknown> {
  let parent: unknown;
  let tracer: OpenTelemetryTracer;
  try {
    const meta: unknown = request?.params?._meta;
    const active = otel.context.active();
    parent = meta !== null && typeof meta === 'object' ? otel.propagation.extract(active, meta, metaGetter) : active;
    tracer = otel.trace.getTracer('mcp-envelope');
  } catch {
    return call();
  }
  const attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name };
  return tracer.startActiveSpan(`tools/call ${name}`, { kind: otel.SpanKind.SERVER, attributes }, parent, async (span) => {
    try {
      const result = await call();
      try {
        const recorded = spanAttributes(result as object);
        if (Object.keys(recorded).length > 0) {
          span.setAttributes(recorded);
          span.setStatus({ code: otel.SpanStatusCode.ERROR });
        }
      } catch {
        // A result the core cannot read: the call goes on without its attributes.
      }
      return result;
    } catch (thrown) {
      const code = (thrown as { code?: unknown } | null)?.code;
      span.setAttribute('error.type', Number.isInteger(code) ? String(code) : 'Error');
      span.setStatus({ code: otel.SpanStatusCode.ERROR });
      throw thrown;
    } finally {
      span.end();
    }
  });
}
