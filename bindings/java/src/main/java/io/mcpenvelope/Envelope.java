package io.mcpenvelope;

import java.util.List;

/**
 * The package's front: render an error for the model, wrap it as an MCP {@code CallToolResult}, read one back. A
 * spec is a {@link ToolError}, a {@code Map} of its JSON members, or its JSON text as is. Refusals throw
 * {@link SpecException} with the core's words; {@link Raw} has every export as JSON text.
 *
 * <pre>{@code
 * String xml = Envelope.render(ToolError.of("NOT_FOUND", "No invoice inv_404"), Format.XML);
 * }</pre>
 */
public final class Envelope {
    private Envelope() {}

    /** The envelope of an error spec, in a format. */
    public static String render(Object spec, Format format) {
        return Raw.render(text(spec), format);
    }

    /** The {@code CallToolResult} JSON ({@code isError: true}) carrying the envelope. */
    public static String result(Object spec, Format format) {
        return Raw.callToolResult(text(spec), format);
    }

    /** The earliest envelope in a text or a {@code CallToolResult}'s JSON; kind {@code none} when there is none. */
    public static Reading read(String textOrResult) {
        return Reading.of(Raw.readEnvelope(textOrResult));
    }

    /** The {@code <validation_error>} of a validation spec ({@code action}, {@code issues}, ...). */
    public static String renderValidation(Object spec) {
        return Raw.call("render-validation", text(spec));
    }

    /** The same as a {@code CallToolResult} JSON. */
    public static String validationResult(Object spec) {
        return Raw.call("validation-result", text(spec));
    }

    /** The {@code <partial_result>} envelope of a partial failure (what was obtained, what failed). */
    public static String renderPartial(Object spec) {
        return Raw.call("render-partial", text(spec));
    }

    /** The same as a {@code CallToolResult} JSON. */
    public static String partialResult(Object spec) {
        return Raw.call("partial-result", text(spec));
    }

    /** A JSON-RPC error object; {@code data}, an error spec, may be null. */
    public static String protocolError(ProtocolErrorKind kind, String message, Object data) {
        return Raw.protocolError(kind, message, data == null ? null : text(data));
    }

    /** The 17 canonical codes, in a fixed order. */
    public static List<String> canonicalCodes() {
        return Raw.canonicalCodes();
    }

    /** A spec's JSON text: text as given, anything else written compactly. */
    static String text(Object spec) {
        return spec instanceof String s ? s : Json.write(spec);
    }
}
