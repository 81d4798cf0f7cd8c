package io.mcpenvelope.mcp;

import io.mcpenvelope.Format;
import io.mcpenvelope.Json;
import io.mcpenvelope.Raw;
import io.mcpenvelope.ToolError;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;

/**
 * The MCP Java SDK integration: a tool specification wrapped here reaches the client with its failures as
 * envelopes. Before the handler runs, the arguments are checked against the tool's input schema and a failure is
 * the core's {@code <validation_error>}. What a handler returns is sent as it is; what it throws is classified here
 * and sent to the core's {@code handler-result}, which decides the result (docs/handler-outcomes.md): a
 * {@link ToolError} becomes its envelope, an {@link McpError} a TOOL_ERROR, VALIDATION_ERROR or UNKNOWN_ACTION
 * stating its message, a plain {@code RuntimeException} (the author's words) a TOOL_ERROR, anything else an
 * INTERNAL_ERROR under a fresh correlation id, its stack trace to the log only. With a {@link Ledger}, every
 * answer then takes the ledger step the core names.
 *
 * <pre>{@code
 * EnvelopeTools envelope = EnvelopeTools.builder().ledger(new Ledger(2)).build();
 * var transport = new StdioServerTransportProvider(envelope.jsonMapper(McpJsonDefaults.getMapper()));
 * McpServer.sync(transport).validateToolInputs(false).tools(envelope.tools(specs)).build();
 * }</pre>
 */
public final class EnvelopeTools {
    private static final System.Logger LOG = System.getLogger("io.mcpenvelope.mcp");
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Random bytes of a fresh correlation id, the same in every host. */
    private static final int ID_RANDOM_BYTES = 6;
    private static final EnvelopeTools DEFAULT = builder().build();

    /** How an unknown tool is answered (docs/recovery-helpers.md, "Unknown tools"). */
    public enum UnknownTool {
        /** A JSON-RPC -32602 naming the server's tools, the envelope in its {@code data}: what MCP asks for. */
        PROTOCOL_ERROR("protocol-error"),
        /** SEP-2145's {@code isError} result carrying the envelope. */
        TOOL_RESULT("tool-result");

        private final String wire;

        UnknownTool(String wire) {
            this.wire = wire;
        }

        /** The option by its wire name ({@code protocol-error}, {@code tool-result}); null for another. */
        public static UnknownTool of(String wire) {
            for (UnknownTool option : values()) if (option.wire.equals(wire)) return option;
            return null;
        }
    }

    /** The options of one server's integration. */
    public static final class Builder {
        private Format format = Format.XML;
        private Ledger ledger;
        private UnknownTool unknownTool = UnknownTool.PROTOCOL_ERROR;

        private Builder() {}

        /** The form of the envelopes the integration writes; XML by default. */
        public Builder format(Format format) {
            this.format = format;
            return this;
        }

        /** The repeat ledger every call goes through; none by default. */
        public Builder ledger(Ledger ledger) {
            this.ledger = ledger;
            return this;
        }

        public Builder unknownTool(UnknownTool answer) {
            this.unknownTool = answer;
            return this;
        }

        public EnvelopeTools build() {
            return new EnvelopeTools(this);
        }
    }

    private final Format format;
    private final Ledger ledger;
    private final UnknownTool unknownTool;
    /**
     * Results a store answered with instead of running the write (a replay, the in-progress CONFLICT, SERVER_BUSY):
     * the core names no ledger step for them, so the ledger leaves them alone. Held by identity until observed.
     */
    private static final Set<CallToolResult> WITHOUT_LEDGER_STEP =
            Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    /** More marked results than this were never observed (no ledger, or no EnvelopeTools): forget them. */
    private static final int MARKED_AT_MOST = 1000;

    /** The names of the tools wrapped, in their order: an unknown tool's answer lists them. */
    private final List<String> names = new CopyOnWriteArrayList<>();

    private EnvelopeTools(Builder builder) {
        this.format = builder.format;
        this.ledger = builder.ledger;
        this.unknownTool = builder.unknownTool;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The specification with its handler's failures as envelopes in XML, no ledger. */
    public static SyncToolSpecification wrap(SyncToolSpecification spec) {
        return DEFAULT.tool(spec);
    }

    public static SyncToolSpecification wrap(SyncToolSpecification spec, Format format) {
        return builder().format(format).build().tool(spec);
    }

    /** The asynchronous specification with its handler's failures (thrown, or an error signal) as envelopes. */
    public static AsyncToolSpecification wrap(AsyncToolSpecification spec) {
        return DEFAULT.tool(spec);
    }

    public static AsyncToolSpecification wrap(AsyncToolSpecification spec, Format format) {
        return builder().format(format).build().tool(spec);
    }

    /** Every specification wrapped. */
    public static List<SyncToolSpecification> wrapAll(List<SyncToolSpecification> specs) {
        return DEFAULT.tools(specs);
    }

    /** Every specification wrapped with this integration's options, in their order. */
    public List<SyncToolSpecification> tools(List<SyncToolSpecification> specs) {
        return specs.stream().map(this::tool).toList();
    }

    public SyncToolSpecification tool(SyncToolSpecification spec) {
        String tool = spec.tool().name();
        names.add(tool);
        InputSchemas schema = InputSchemas.of(spec.tool());
        return new SyncToolSpecification(spec.tool(), (exchange, request) -> {
            CallToolResult refused = refused(tool, schema, request);
            if (refused != null) return refused;
            CallToolResult result;
            try {
                result = spec.callHandler().apply(exchange, request);
            } catch (RuntimeException | Error thrown) {
                if (thrown instanceof VirtualMachineError vm) throw vm;
                return failed(tool, request, thrown);
            }
            return observed(tool, request, result);
        });
    }

    public AsyncToolSpecification tool(AsyncToolSpecification spec) {
        String tool = spec.tool().name();
        names.add(tool);
        InputSchemas schema = InputSchemas.of(spec.tool());
        return new AsyncToolSpecification(spec.tool(), (exchange, request) -> Mono.defer(() -> {
            CallToolResult refused = refused(tool, schema, request);
            if (refused != null) return Mono.just(refused);
            return Mono.defer(() -> spec.callHandler().apply(exchange, request))
                    .map(result -> observed(tool, request, result))
                    .onErrorResume(thrown -> !(thrown instanceof VirtualMachineError),
                            thrown -> Mono.fromCallable(() -> failed(tool, request, thrown)));
        }));
    }

    /**
     * {@code mapper} answering unknown tools as the core says. The SDK answers a call of a tool it does not hold
     * itself, before any tool's handler, with a -32602 of its own words; give this mapper to the transport (which
     * writes every message with it) and that answer is replaced by the core's {@code unknown-tool} answer for the
     * tools wrapped here.
     */
    public McpJsonMapper jsonMapper(McpJsonMapper mapper) {
        return new UnknownToolMapper(mapper, this);
    }

    /** The {@code <validation_error>} result for arguments that fail the schema, or null when they fit. */
    private CallToolResult refused(String tool, InputSchemas schema, CallToolRequest request) {
        if (schema == null) return null;
        Map<String, Object> validation = schema.check(request == null ? null : request.arguments());
        if (validation == null) return null;
        return answer(tool, request, Map.of("validation", validation), null);
    }

    /** Marks {@code result} as one the repeat ledger leaves alone (the core named no ledger step for it). */
    static void takesNoLedgerStep(CallToolResult result) {
        synchronized (WITHOUT_LEDGER_STEP) {
            if (WITHOUT_LEDGER_STEP.size() >= MARKED_AT_MOST) WITHOUT_LEDGER_STEP.clear();
            WITHOUT_LEDGER_STEP.add(result);
        }
    }

    /** What the handler returned, as the ledger sees it: sent as it is unless it repeats a failure. */
    private CallToolResult observed(String tool, CallToolRequest request, CallToolResult result) {
        if (result == null || WITHOUT_LEDGER_STEP.remove(result) || ledger == null) return result;
        String replaced = ledger.observe(tool, write(result), arguments(request));
        return replaced == null ? result : read(replaced);
    }

    /** The result the core decides for what a handler threw, through the ledger step it names. */
    private CallToolResult failed(String tool, CallToolRequest request, Throwable thrown) {
        return answer(tool, request, outcome(thrown), thrown instanceof ToolError error ? error : null);
    }

    private CallToolResult answer(String tool, CallToolRequest request, Map<String, Object> outcome, ToolError error) {
        Map<String, Object> answer = handlerResult(tool, request, outcome, format);
        Object step = answer.get("ledger");
        String result = Json.write(answer.get("result"));
        if (ledger != null && "failure".equals(step) && error != null) {
            result = ledger.failure(tool, error.toSpec(), arguments(request), format);
        } else if (ledger != null && "observe".equals(step)) {
            String replaced = ledger.observe(tool, result, arguments(request));
            if (replaced != null) result = replaced;
        }
        return read(result);
    }

    /** The result the core decides for what a handler threw, without a ledger. */
    static CallToolResult answer(String tool, CallToolRequest request, Throwable thrown, Format format) {
        return read(Json.write(handlerResult(tool, request, outcome(thrown), format).get("result")));
    }

    private static Map<String, Object> handlerResult(String tool, CallToolRequest request, Map<String, Object> outcome,
            Format format) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("tool", tool);
        call.put("outcome", outcome);
        Object arguments = arguments(request);
        if (arguments != null) call.put("arguments", arguments);
        call.put("format", format);
        byte[] random = new byte[ID_RANDOM_BYTES];
        RANDOM.nextBytes(random);
        call.put("random", HexFormat.of().formatHex(random));
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) Json.parse(Raw.call("handler-result", Json.write(call)));
        if (answer.get("log") instanceof String log) LOG.log(System.Logger.Level.ERROR, log);
        return answer;
    }

    private static Object arguments(CallToolRequest request) {
        return request == null ? null : request.arguments();
    }

    /**
     * A {@code CallToolResult} the core wrote as JSON ({@code Envelope.result}, {@code Envelope.partialResult}, an
     * export's {@code result}) as the SDK's type, for a handler to return.
     */
    public static CallToolResult result(String callToolResultJson) {
        return read(callToolResultJson);
    }

    private static CallToolResult read(String json) {
        try {
            return McpJsonDefaults.getMapper().readValue(json, CallToolResult.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A result as the JSON text the core's steps take. */
    static String json(CallToolResult result) {
        return write(result);
    }

    private static String write(CallToolResult result) {
        try {
            return McpJsonDefaults.getMapper().writeValueAsString(result);
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

    /**
     * The core's answer to a call of {@code tool}, which the server does not hold: a JSON-RPC response with the
     * request's id.
     */
    JSONRPCResponse unknownTool(JSONRPCResponse sdkAnswer, String tool) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("tool", tool);
        request.put("tools", List.copyOf(names));
        request.put("answer", unknownTool.wire);
        request.put("format", format);
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) Json.parse(Raw.call("unknown-tool", Json.write(request)));
        if (answer.get("result") instanceof Map<?, ?> result) {
            return new JSONRPCResponse(sdkAnswer.jsonrpc(), sdkAnswer.id(), result, null);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> error = (Map<String, Object>) answer.get("error");
        return new JSONRPCResponse(sdkAnswer.jsonrpc(), sdkAnswer.id(), null, new JSONRPCError(
                ((Number) error.get("code")).intValue(), (String) error.get("message"), error.get("data")));
    }

    /** The transport's mapper, with the SDK's own answer to an unknown tool replaced by the core's. */
    private record UnknownToolMapper(McpJsonMapper delegate, EnvelopeTools envelope) implements McpJsonMapper {
        /** The SDK's words for a tool it does not hold (McpAsyncServer): its message and its data's start. */
        private static final String SDK_MESSAGE = "Unknown tool: invalid_tool_name";
        private static final String SDK_DATA = "Tool not found: ";

        private Object answer(Object value) {
            if (value instanceof JSONRPCResponse response && response.error() != null
                    && response.error().code() == -32602 && SDK_MESSAGE.equals(response.error().message())
                    && response.error().data() instanceof String data && data.startsWith(SDK_DATA)) {
                return envelope.unknownTool(response, data.substring(SDK_DATA.length()));
            }
            return value;
        }

        @Override
        public <T> T readValue(String content, Class<T> type) throws IOException {
            return delegate.readValue(content, type);
        }

        @Override
        public <T> T readValue(byte[] content, Class<T> type) throws IOException {
            return delegate.readValue(content, type);
        }

        @Override
        public <T> T readValue(String content, TypeRef<T> type) throws IOException {
            return delegate.readValue(content, type);
        }

        @Override
        public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
            return delegate.readValue(content, type);
        }

        @Override
        public <T> T convertValue(Object from, Class<T> type) {
            return delegate.convertValue(from, type);
        }

        @Override
        public <T> T convertValue(Object from, TypeRef<T> type) {
            return delegate.convertValue(from, type);
        }

        @Override
        public String writeValueAsString(Object value) throws IOException {
            return delegate.writeValueAsString(answer(value));
        }

        @Override
        public byte[] writeValueAsBytes(Object value) throws IOException {
            return delegate.writeValueAsBytes(answer(value));
        }
    }
}
