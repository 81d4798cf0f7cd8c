package io.mcpenvelope.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpenvelope.Envelope;
import io.mcpenvelope.Format;
import io.mcpenvelope.Reading;
import io.mcpenvelope.ToolError;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The SDK's own client calls a wrapped server over an in-process transport; the core decides every failure. */
class EnvelopeToolsTest {
    static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();
    static final Tool TOOL = Tool.builder().name("get_invoice").description("An invoice by id")
            .inputSchema(Map.of("type", "object")).build();
    static final ToolError NOT_FOUND = ToolError.of("NOT_FOUND", "No invoice inv_404").actions("list_invoices");

    /** What the billing tool does for each id: the same in the sync and async servers. */
    static CallToolResult billing(CallToolRequest request) {
        switch (String.valueOf(request.arguments().get("id"))) {
            case "inv_404": throw NOT_FOUND;
            case "read_only": throw new RuntimeException("The invoice store is read-only today");
            case "bug": throw new IllegalStateException("password=hunter2 leaked into a bug");
            default: return CallToolResult.builder().addTextContent("inv_1: 42 EUR").isError(false).build();
        }
    }

    /** A client connected to a server built on the other end of two pipes. */
    static McpSyncClient connect(Function<StdioServerTransportProvider, AutoCloseable> server) throws IOException {
        return connect(MAPPER, server);
    }

    /** The same, the server's transport writing with {@code serverMapper}. */
    static McpSyncClient connect(McpJsonMapper serverMapper,
            Function<StdioServerTransportProvider, AutoCloseable> server) throws IOException {
        Pipe toServer = Pipe.open();
        Pipe toClient = Pipe.open();
        server.apply(new StdioServerTransportProvider(serverMapper, Channels.newInputStream(toServer.source()),
                Channels.newOutputStream(toClient.sink())));
        McpSyncClient client = McpClient.sync(new PipeClientTransport(MAPPER, Channels.newInputStream(toClient.source()),
                Channels.newOutputStream(toServer.sink()))).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    static void checkAnswers(McpSyncClient client) {
        CallToolResult ok = client.callTool(new CallToolRequest("get_invoice", Map.of("id", "inv_1")));
        assertFalse(Boolean.TRUE.equals(ok.isError()));
        assertEquals("inv_1: 42 EUR", text(ok));

        CallToolResult notFound = client.callTool(new CallToolRequest("get_invoice", Map.of("id", "inv_404")));
        assertTrue(notFound.isError());
        assertEquals(Envelope.render(NOT_FOUND, Format.XML), text(notFound));

        Reading authored = Envelope.read(text(client.callTool(new CallToolRequest("get_invoice", Map.of("id", "read_only")))));
        assertEquals("TOOL_ERROR", authored.code());
        assertEquals("The invoice store is read-only today", authored.message());

        CallToolResult bug = client.callTool(new CallToolRequest("get_invoice", Map.of("id", "bug")));
        Reading internal = Envelope.read(text(bug));
        assertEquals("INTERNAL_ERROR", internal.code());
        assertFalse(text(bug).contains("hunter2"), "the exception's text reached the model: " + text(bug));
    }

    @Test
    void aSyncServersFailuresAreEnvelopes() throws IOException {
        SyncToolSpecification spec = new SyncToolSpecification(TOOL, (exchange, request) -> billing(request));
        McpSyncClient client = connect(provider -> McpServer.sync(provider).serverInfo("billing", "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(EnvelopeTools.wrapAll(List.of(spec))).build()::close);
        try {
            checkAnswers(client);
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void anAsyncServersFailuresAreEnvelopes() throws IOException {
        AsyncToolSpecification spec = new AsyncToolSpecification(TOOL, (exchange, request) -> {
            // A thrown failure and an error signal are answered alike.
            if ("bug".equals(request.arguments().get("id"))) return Mono.error(new IllegalStateException("password=hunter2"));
            return Mono.fromCallable(() -> billing(request));
        });
        McpSyncClient client = connect(provider -> McpServer.async(provider).serverInfo("billing", "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(EnvelopeTools.wrap(spec)).build()::close);
        try {
            checkAnswers(client);
        } finally {
            client.closeGracefully();
        }
    }

    static final Tool CHECKED = Tool.builder().name("get_invoice").description("An invoice by id")
            .inputSchema(MAPPER, """
                    {"type":"object","properties":{"id":{"type":"string","pattern":"^inv_[a-z0-9]+$"},\
                    "copies":{"type":"integer","minimum":1}},"required":["id"]}""").build();

    /** A sync server of {@link #CHECKED} with the integration's options, its client connected. */
    static McpSyncClient checkedServer(EnvelopeTools envelope) throws IOException {
        SyncToolSpecification spec = new SyncToolSpecification(CHECKED, (exchange, request) -> billing(request));
        return connect(envelope.jsonMapper(MAPPER), provider -> McpServer.sync(provider).serverInfo("billing", "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .validateToolInputs(false)
                .tools(envelope.tools(List.of(spec))).build()::close);
    }

    @Test
    void argumentsThatFailTheSchemaAreTheCoresValidationError() throws IOException {
        McpSyncClient client = checkedServer(EnvelopeTools.builder().build());
        try {
            CallToolResult result =
                    client.callTool(new CallToolRequest("get_invoice", Map.of("id", "INV-1", "copies", 0)));
            assertTrue(result.isError());
            assertEquals("""
                    <validation_error action="get_invoice">
                      <field name="id">Does not match the required pattern. You sent: 'INV-1'. \
                    Expected text matching the pattern '^inv_[a-z0-9]+$'.</field>
                      <field name="copies">Too small. You sent: 0. Expected at least 1.</field>
                      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
                    </validation_error>""", text(result));
            CallToolResult missing = client.callTool(new CallToolRequest("get_invoice", Map.of()));
            assertEquals("""
                    <validation_error action="get_invoice">
                      <field name="id">Missing required field. You sent: nothing. \
                    Expected text matching the pattern '^inv_[a-z0-9]+$'.</field>
                      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
                    </validation_error>""", text(missing));
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void theLedgerStopsTheThirdIdenticalFailure() throws IOException {
        McpSyncClient client = checkedServer(EnvelopeTools.builder().ledger(new Ledger(2)).build());
        try {
            CallToolRequest call = new CallToolRequest("get_invoice", Map.of("id", "inv_404"));
            assertEquals(Envelope.render(NOT_FOUND, Format.XML), text(client.callTool(call)));
            assertEquals("""
                    <tool_error code="NOT_FOUND" severity="error">
                      <message>Nothing has changed since the last attempt: \
                    the same failure again (2 in a row).</message>
                      <recovery>Check the identifier: look the item up or list the available ones, \
                    then call again with a real one.</recovery>
                    </tool_error>""", text(client.callTool(call)));
            Reading stop = Envelope.read(text(client.callTool(call)));
            assertEquals("critical", stop.severity());
            assertEquals("Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.",
                    stop.message());
            // A success ends the streak: the same failure is then a first one again.
            client.callTool(new CallToolRequest("get_invoice", Map.of("id", "inv_1")));
            assertEquals(Envelope.render(NOT_FOUND, Format.XML), text(client.callTool(call)));
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void anUnknownToolIsTheCoresProtocolErrorOrResult() throws IOException {
        McpSyncClient protocol = checkedServer(EnvelopeTools.builder().build());
        try {
            McpError error = assertThrows(McpError.class,
                    () -> protocol.callTool(new CallToolRequest("get_invoices", Map.of())));
            assertEquals(-32602, error.getJsonRpcError().code());
            assertEquals("Unknown tool: get_invoices. This server's tools: get_invoice.",
                    error.getJsonRpcError().message());
            assertEquals("UNKNOWN_ACTION", ((Map<?, ?>) error.getJsonRpcError().data()).get("code"));
        } finally {
            protocol.closeGracefully();
        }
        McpSyncClient client =
                checkedServer(EnvelopeTools.builder().unknownTool(EnvelopeTools.UnknownTool.TOOL_RESULT).build());
        try {
            CallToolResult result = client.callTool(new CallToolRequest("get_invoices", Map.of()));
            assertTrue(result.isError());
            Reading reading = Envelope.read(text(result));
            assertEquals("UNKNOWN_ACTION", reading.code());
            assertEquals("No tool named 'get_invoices' on this server.", reading.message());
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void aReplayedFailureIsTheFirstOutcomeNotARepeat() throws IOException {
        Tool refund = Tool.builder().name("refund_order").description("Refund an invoice")
                .inputSchema(MAPPER, """
                        {"type":"object","properties":{"invoice_id":{"type":"string"},\
                        "idempotency_key":{"type":"string"}},"required":["invoice_id"]}""").build();
        int[] writes = {0};
        Idempotency store = new Idempotency();
        SyncToolSpecification spec = new SyncToolSpecification(refund, Idempotency.idempotent(store, "refund_order",
                (exchange, request) -> {
                    writes[0]++;
                    throw ToolError.of("REFUND_LIMIT_EXCEEDED", "Refund of 500.00 exceeds the refundable 120.00.")
                            .category("business").retryable(false);
                }));
        EnvelopeTools envelope = EnvelopeTools.builder().ledger(new Ledger(2)).build();
        McpSyncClient client = connect(envelope.jsonMapper(MAPPER), provider -> McpServer.sync(provider)
                .serverInfo("billing", "1.0.0").capabilities(ServerCapabilities.builder().tools(true).build())
                .validateToolInputs(false).tools(envelope.tools(List.of(spec))).build()::close);
        try {
            CallToolRequest call =
                    new CallToolRequest("refund_order", Map.of("invoice_id", "inv_1", "idempotency_key", "key-1"));
            String first = text(client.callTool(call));
            assertEquals("Refund of 500.00 exceeds the refundable 120.00.", Envelope.read(first).message());
            // The store replays the first outcome; the ledger, which would call it a repeat, leaves it alone.
            assertEquals(first, text(client.callTool(call)));
            assertEquals(first, text(client.callTool(call)));
            assertEquals(1, writes[0]);
            Reading reused = Envelope.read(text(client.callTool(
                    new CallToolRequest("refund_order", Map.of("invoice_id", "inv_2", "idempotency_key", "key-1")))));
            assertEquals("VALIDATION_ERROR", reused.code());
            assertEquals(1, writes[0]);
        } finally {
            client.closeGracefully();
        }
    }
}
