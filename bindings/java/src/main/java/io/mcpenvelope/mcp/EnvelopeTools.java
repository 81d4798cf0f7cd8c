package io.mcpenvelope.mcp;

import io.mcpenvelope.Format;
import io.mcpenvelope.Json;
import io.mcpenvelope.Raw;
import io.mcpenvelope.ToolError;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The MCP Java SDK integration: {@code EnvelopeTools.wrap(spec)} gives a tool specification whose failures reach
 * the client as envelopes. What a handler returns is sent as it is; what it throws is classified here and sent to
 * the core's {@code handler-result}, which decides the result (docs/handler-outcomes.md): a {@link ToolError}
 * becomes its envelope, an {@link McpError} a TOOL_ERROR, VALIDATION_ERROR or UNKNOWN_ACTION stating its message,
 * a plain {@code RuntimeException} (the author's words) a TOOL_ERROR, anything else an INTERNAL_ERROR under a
 * fresh correlation id, its stack trace to the log only.
 */
public final class EnvelopeTools {
    private static final System.Logger LOG = System.getLogger("io.mcpenvelope.mcp");
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Random bytes of a fresh correlation id, the same in every host. */
    private static final int ID_RANDOM_BYTES = 6;

    private EnvelopeTools() {}

    /** The specification with its handler's failures as envelopes in XML. */
    public static SyncToolSpecification wrap(SyncToolSpecification spec) {
        return wrap(spec, Format.XML);
    }

    public static SyncToolSpecification wrap(SyncToolSpecification spec, Format format) {
        String tool = spec.tool().name();
        return new SyncToolSpecification(spec.tool(), (exchange, request) -> {
            try {
                return spec.callHandler().apply(exchange, request);
            } catch (RuntimeException | Error thrown) {
                if (thrown instanceof VirtualMachineError vm) throw vm;
                return answer(tool, request, thrown, format);
            }
        });
    }

    /** The asynchronous specification with its handler's failures (thrown, or an error signal) as envelopes. */
    public static AsyncToolSpecification wrap(AsyncToolSpecification spec) {
        return wrap(spec, Format.XML);
    }

    public static AsyncToolSpecification wrap(AsyncToolSpecification spec, Format format) {
        String tool = spec.tool().name();
        return new AsyncToolSpecification(spec.tool(), (exchange, request) ->
                Mono.defer(() -> spec.callHandler().apply(exchange, request))
                        .onErrorResume(thrown -> !(thrown instanceof VirtualMachineError),
                                thrown -> Mono.fromCallable(() -> answer(tool, request, thrown, format))));
    }

    /** Every specification wrapped. */
    public static List<SyncToolSpecification> wrapAll(List<SyncToolSpecification> specs) {
        return specs.stream().map(EnvelopeTools::wrap).toList();
    }

    /** The result the core decides for what a handler threw. */
    static CallToolResult answer(String tool, CallToolRequest request, Throwable thrown, Format format) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("tool", tool);
        call.put("outcome", outcome(thrown));
        if (request != null && request.arguments() != null) call.put("arguments", request.arguments());
        call.put("format", format);
        byte[] random = new byte[ID_RANDOM_BYTES];
        RANDOM.nextBytes(random);
        call.put("random", HexFormat.of().formatHex(random));
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) Json.parse(Raw.call("handler-result", Json.write(call)));
        if (answer.get("log") instanceof String log) LOG.log(System.Logger.Level.ERROR, log);
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        try {
            return mapper.readValue(Json.write(answer.get("result")), CallToolResult.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What kind of thing the handler threw, as the core's request names it. */
    static Map<String, Object> outcome(Throwable thrown) {
        if (thrown instanceof ToolError error) return Map.of("error", error.toSpec());
        if (thrown instanceof McpError rpc && rpc.getJsonRpcError() != null) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", rpc.getJsonRpcError().code());
            error.put("message", rpc.getJsonRpcError().message());
            return Map.of("rpcError", error);
        }
        // Exactly RuntimeException: a value its author wrote for the model, as `Error` in TypeScript.
        if (thrown.getClass() == RuntimeException.class && thrown.getMessage() != null) {
            return Map.of("message", thrown.getMessage());
        }
        StringWriter trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace));
        return Map.of("exception", trace.toString());
    }
}
