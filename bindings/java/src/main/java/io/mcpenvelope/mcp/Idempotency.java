package io.mcpenvelope.mcp;

import io.mcpenvelope.Format;
import io.mcpenvelope.Json;
import io.mcpenvelope.Raw;
import io.mcpenvelope.ToolError;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The idempotency store (docs/idempotency-and-backoff.md) in this process: a client-supplied key makes a write
 * safe to retry. The core decides everything (what is stored, the canonical arguments, the refusals' words,
 * expiry) and writes each key's record; this class keeps the records (at most {@code capacity}, the first claimed
 * going first), gives the core the clock, and runs the write between {@code idempotency-begin} and
 * {@code idempotency-finish}. A replay, the in-progress CONFLICT and SERVER_BUSY take no repeat-ledger step.
 *
 * <pre>{@code
 * Idempotency store = new Idempotency();
 * new SyncToolSpecification(refundTool, Idempotency.idempotent(store, "refund_order", this::refund));
 * }</pre>
 */
public final class Idempotency {
    private final int capacity;
    private final long ttlSeconds;
    private final Format format;
    /** Each key's record, as the core wrote it, in the order keys were claimed. */
    private final Map<String, String> records = new LinkedHashMap<>();

    /** At most 1000 keys, each kept a day; refusals in XML. */
    public Idempotency() {
        this(1000, 86_400, Format.XML);
    }

    public Idempotency(int capacity, long ttlSeconds, Format format) {
        if (ttlSeconds < 0 || ttlSeconds > 0xffff_ffffL) {
            throw new IllegalArgumentException(
                    "ttlSeconds must be a whole number from 0 to 4294967295, not " + ttlSeconds);
        }
        this.capacity = Math.max(1, capacity);
        this.ttlSeconds = ttlSeconds;
        this.format = format;
    }

    /**
     * A tool handler made idempotent by {@code store}: the key is the argument the core names for every language
     * ({@code idempotency_key}); a call without one runs as usual.
     */
    public static BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> idempotent(Idempotency store,
            String tool, BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        String argument = Raw.idempotencyKeyArgument();
        return (exchange, request) -> {
            Object key = request.arguments() == null ? null : request.arguments().get(argument);
            if (key == null) return handler.apply(exchange, request);
            return store.run(tool, String.valueOf(key), request.arguments(), () -> handler.apply(exchange, request));
        };
    }

    /**
     * {@code write} at most once for {@code key}: its result, stored for the key, or the result the core gives
     * instead (the first outcome replayed, a key reused with other arguments refused, ...). A thrown
     * {@link ToolError} is the write's outcome; anything else thrown is stored as the unknown outcome and goes on.
     */
    public CallToolResult run(String tool, String key, Object arguments, Supplier<CallToolResult> write) {
        String storeKey = Json.write(List.of(tool, key));
        Map<String, Object> answer;
        synchronized (records) {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("tool", tool);
            request.put("key", key);
            request.put("arguments", arguments == null ? Map.of() : arguments);
            request.put("nowMs", System.currentTimeMillis());
            request.put("ttlSeconds", ttlSeconds);
            request.put("format", format);
            String stored = records.get(storeKey);
            if (stored != null) request.put("stored", stored);
            answer = step("idempotency-begin", request);
            if (!"run".equals(answer.get("outcome"))) {
                CallToolResult instead = EnvelopeTools.result(Json.write(answer.get("result")));
                if ("none".equals(answer.get("ledger"))) EnvelopeTools.takesNoLedgerStep(instead);
                return instead;
            }
            // Claimed: nothing runs between reading the key and storing the claim.
            records.remove(storeKey);
            records.put(storeKey, (String) answer.get("record"));
            for (Iterator<String> oldest = records.keySet().iterator(); records.size() > capacity; ) {
                oldest.next();
                oldest.remove();
            }
        }
        CallToolResult result;
        try {
            result = write.get();
        } catch (ToolError error) {
            result = EnvelopeTools.result(error.result(format));
        } catch (RuntimeException | Error thrown) {
            finish(tool, storeKey, key, null);
            throw thrown;
        }
        finish(tool, storeKey, key, EnvelopeTools.json(result));
        return result;
    }

    private void finish(String tool, String storeKey, String key, String result) {
        synchronized (records) {
            String claim = records.get(storeKey);
            if (claim == null || ((Map<?, ?>) Json.parse(claim)).containsKey("result")) return;
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("tool", tool);
            request.put("key", key);
            request.put("claim", claim);
            request.put("result", result == null ? null : Json.parse(result));
            request.put("nowMs", System.currentTimeMillis());
            request.put("ttlSeconds", ttlSeconds);
            Map<String, Object> answer = step("idempotency-finish", request);
            if ("kept".equals(answer.get("finished"))) return;
            if ("stored".equals(answer.get("finished"))) records.put(storeKey, (String) answer.get("record"));
            else records.remove(storeKey);
        }
    }

    /** Forgets every key. */
    public void clear() {
        synchronized (records) {
            records.clear();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> step(String export, Map<String, Object> request) {
        return (Map<String, Object>) Json.parse(Raw.call(export, Json.write(request)));
    }
}
