package io.mcpenvelope;

import java.util.Map;

/**
 * What {@link Envelope#read} found: the earliest envelope in a text or a {@code CallToolResult}. {@code kind} is
 * {@code tool_error}, {@code validation_error}, {@code partial_result} or {@code none}; the members an envelope
 * states are its effective values (defaults filled in). {@code body} is the envelope itself, as JSON members: the
 * error spec, the validation envelope or the partial report. {@code json} is the core's reading as it wrote it.
 */
public record Reading(String kind, String code, String message, String severity, String category,
        Boolean retryable, String recovery, Map<String, Object> body, String json) {

    public boolean found() {
        return !"none".equals(kind);
    }

    @SuppressWarnings("unchecked")
    static Reading of(String json) {
        Map<String, Object> m = (Map<String, Object>) Json.parse(json);
        String kind = (String) m.get("kind");
        Object body = switch (kind) {
            case "tool_error" -> m.get("error");
            case "validation_error" -> m.get("validation");
            case "partial_result" -> m.get("partial");
            default -> null;
        };
        return new Reading(kind, (String) m.get("code"), (String) m.get("message"), (String) m.get("severity"),
                (String) m.get("category"), (Boolean) m.get("retryable"), (String) m.get("recovery"),
                (Map<String, Object>) body, json);
    }
}
