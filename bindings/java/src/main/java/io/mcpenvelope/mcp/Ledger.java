package io.mcpenvelope.mcp;

import io.mcpenvelope.Format;
import io.mcpenvelope.Json;
import io.mcpenvelope.Raw;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The repeat ledger (docs/repeat-ledger.md) of one conversation: each tool's streak of identical failures, as the
 * core's {@code ledger-failure} and {@code ledger-observe} hand it back. The core decides what a repeat and the
 * stop say; this class only keeps the records. Make one per session: sessions are different conversations.
 */
public final class Ledger {
    /** The most identical failures answered before the stop, as in every other package. */
    public static final int MAX_STOP_AFTER = 100;

    private final int stopAfter;
    /** Each failing tool's streak record, as the core wrote it. */
    private final Map<String, String> streaks = new HashMap<>();

    /** Two identical failures answered (the first in full, the second shortened), then the stop. */
    public Ledger() {
        this(2);
    }

    /** {@code stopAfter} identical failures are answered before the one telling the model to stop; 0 reads as 1. */
    public Ledger(int stopAfter) {
        if (stopAfter < 0 || stopAfter > MAX_STOP_AFTER) {
            throw new IllegalArgumentException("stopAfter must be a whole number from 0 to " + MAX_STOP_AFTER
                    + ", not " + stopAfter);
        }
        this.stopAfter = stopAfter;
    }

    /**
     * The {@code CallToolResult} JSON to send for this failure of {@code tool}: the error as given the first time,
     * then the shortened repeat, then the stop. {@code arguments} may be null (a streak of its own).
     */
    public String failure(String tool, Object spec, Object arguments, Format format) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("spec", spec instanceof String text ? Json.parse(text) : spec);
        if (arguments != null) request.put("arguments", arguments);
        request.put("format", format);
        return Json.write(step("ledger-failure", tool, request).get("result"));
    }

    /**
     * Watches the result a handler produced ({@code CallToolResult} JSON): null to send it as it is, or the result
     * to send instead for a repeated failure, in the handler's own form. A success ends the tool's streak.
     */
    public String observe(String tool, String result, Object arguments) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("result", Json.parse(result));
        if (arguments != null) request.put("arguments", arguments);
        Object replaced = step("ledger-observe", tool, request).get("result");
        return replaced == null ? null : Json.write(replaced);
    }

    /** Forgets every streak. */
    public synchronized void clear() {
        streaks.clear();
    }

    /** Runs one step on {@code tool}'s streak and keeps the record the core hands back. */
    private synchronized Map<String, Object> step(String export, String tool, Map<String, Object> request) {
        request.put("stopAfter", stopAfter);
        String streak = streaks.get(tool);
        if (streak != null) request.put("streak", streak);
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) Json.parse(Raw.call(export, Json.write(request)));
        if (answer.containsKey("streak")) {
            if (answer.get("streak") instanceof String next) streaks.put(tool, next);
            else streaks.remove(tool);
        }
        return answer;
    }
}
