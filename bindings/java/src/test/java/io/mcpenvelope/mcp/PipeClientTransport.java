package io.mcpenvelope.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/** A client transport over an in-process stream pair, speaking the stdio transport's newline-delimited JSON. */
final class PipeClientTransport implements McpClientTransport {
    private final McpJsonMapper mapper;
    private final InputStream in;
    private final OutputStream out;

    PipeClientTransport(McpJsonMapper mapper, InputStream in, OutputStream out) {
        this.mapper = mapper;
        this.in = in;
        this.out = out;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    handler.apply(Mono.just(McpSchema.deserializeJsonRpcMessage(mapper, line))).subscribe();
                }
            } catch (IOException closed) {
                // the server side went away: the test is over
            }
        }, "pipe-client-reader");
        reader.setDaemon(true);
        reader.start();
        return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            try {
                synchronized (out) {
                    out.write((mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return mapper.convertValue(data, type);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            try {
                out.close();
            } catch (IOException ignored) {
                // already closed
            }
        });
    }
}
