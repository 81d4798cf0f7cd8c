package io.mcpenvelope;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An error for the model, built fluently: {@code ToolError.of("NOT_FOUND", "No invoice inv_404").suggest("List
 * the invoices first").retryAfter(30)}. It holds the spec's members as the core reads them (docs/envelope.md); the
 * core fills in the code's defaults and applies the caps when it renders. It is also an exception, so a tool can
 * throw it.
 */
public final class ToolError extends RuntimeException implements Json.Spec {
    private static final long serialVersionUID = 1L;
    private final Map<String, Object> spec = new LinkedHashMap<>();

    private ToolError(String code, String message) {
        super(code + ": " + message);
        spec.put("code", code);
        spec.put("message", message);
    }

    /** An error with a canonical code (NOT_FOUND, VALIDATION_ERROR, ...) or one of the server's own. */
    public static ToolError of(String code, String message) {
        return new ToolError(code, message);
    }

    /** The next step for the model; the code's default recovery when unset. */
    public ToolError suggest(String suggestion) { return put("suggestion", suggestion); }
    public ToolError severity(String severity) { return put("severity", severity); }
    public ToolError category(String category) { return put("category", category); }
    public ToolError retryable(boolean retryable) { return put("retryable", retryable); }
    /** Whole seconds; a fraction rounds up. */
    public ToolError retryAfter(Number seconds) { return put("retryAfter", seconds); }
    public ToolError customerMessage(String message) { return put("customerMessage", message); }
    public ToolError correlationId(String id) { return put("correlationId", id); }
    public ToolError locale(String locale) { return put("locale", locale); }
    public ToolError localizeSteering(boolean localize) { return put("localizeSteering", localize); }
    /** Size caps: {@code messageChars}, {@code envelopeChars}, ... (docs/size-caps.md). */
    public ToolError limits(Map<String, ?> limits) { return put("limits", limits); }

    /** The tools the model may call instead. */
    public ToolError actions(String... names) {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) spec.computeIfAbsent("availableActions", k -> new ArrayList<>());
        Collections.addAll(list, (Object[]) names);
        return this;
    }

    /** Structured facts about the failure: strings, numbers, booleans, lists and objects of them. */
    public ToolError detail(String key, Object value) {
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) spec.computeIfAbsent("details", k -> new LinkedHashMap<>());
        details.put(key, value);
        return this;
    }

    /** Any other spec member, as the core reads it (its JSON name). */
    public ToolError put(String member, Object value) {
        spec.put(member, value);
        return this;
    }

    public String code() { return (String) spec.get("code"); }

    /** The spec, as compact JSON members. */
    @Override
    public Map<String, Object> toSpec() {
        return Collections.unmodifiableMap(spec);
    }

    /** The spec's JSON text. */
    public String toJson() {
        return Json.write(spec);
    }

    /** The envelope in a format. */
    public String render(Format format) {
        return Envelope.render(this, format);
    }

    /** The {@code CallToolResult} JSON carrying the envelope. */
    public String result(Format format) {
        return Envelope.result(this, format);
    }
}
