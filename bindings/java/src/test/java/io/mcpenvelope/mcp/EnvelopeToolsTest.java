package io.mcpenvelope.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        Pipe toServer = Pipe.open();
        Pipe toClient = Pipe.open();
        server.apply(new StdioServerTransportProvider(MAPPER, Channels.newInputStream(toServer.source()),
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
}
