package io.mcpenvelope;

import java.util.List;

/**
 * Every function of the components, JSON text in and JSON text out, exactly as the core writes it: those of
 * interface {@code envelope} on the envelope module, the rest ({@code server}, {@code agent}, {@code contract}) on
 * the full module, loaded on the first such call. A refusal throws {@link SpecException} (a reader's,
 * {@link MalformedEnvelopeException}) with the core's words. After a trap a fresh instance's {@code after-trap}
 * decides: an answer in the call's own shape (a render gives the INTERNAL_ERROR envelope), or the call made once
 * more; {@link TrapException} when that traps too.
 */
public final class Raw {
    private Raw() {}

    /** An export taking one JSON text (its WIT name: {@code decide}, {@code handler-result}, ...). */
    public static String call(String export, String request) {
        Export e = Export.byWitName(export);
        if (e == null || e.params.size() != 1) {
            throw new IllegalArgumentException("no export taking one text is named " + export);
        }
        if (e == Export.ERROR_OF_RESULT) {
            throw new IllegalArgumentException("error-of-result may answer none: use Raw.errorOfResult");
        }
        return answer(e, e == Export.READ_ENVELOPE, request);
    }

    public static List<String> canonicalCodes() {
        return Component.envelope().callList(Export.CANONICAL_CODES);
    }

    public static String render(String spec, Format format) {
        return answer(Export.RENDER, false, spec, format.ordinal());
    }

    public static String callToolResult(String spec, Format format) {
        return answer(Export.CALL_TOOL_RESULT, false, spec, format.ordinal());
    }

    /** {@code data} (an error spec's JSON text) may be null. */
    public static String protocolError(ProtocolErrorKind kind, String message, String data) {
        return answer(Export.PROTOCOL_ERROR, false, kind.ordinal(), message, data);
    }

    public static String readEnvelope(String textOrResult) {
        return answer(Export.READ_ENVELOPE, true, textOrResult);
    }

    /** What a client throws for a {@code CallToolResult}'s JSON: null when it is not an error. */
    public static String errorOfResult(String toolResult) {
        return answer(Export.ERROR_OF_RESULT, true, toolResult);
    }

    public static String idempotencyKeyArgument() {
        return answer(Export.IDEMPOTENCY_KEY_ARGUMENT, false);
    }

    public static String compareAndSetScript() {
        return answer(Export.COMPARE_AND_SET_SCRIPT, false);
    }

    private static String answer(Export export, boolean reader, Object... args) {
        Component component = Component.of(export);
        Component.Answer a;
        try {
            a = component.call(export, args);
        } catch (TrapException trap) {
            a = component.afterTrap(export, args, trap);
        }
        if (a.ok()) return a.text();
        throw reader ? new MalformedEnvelopeException(a.text()) : new SpecException(a.text());
    }
}
