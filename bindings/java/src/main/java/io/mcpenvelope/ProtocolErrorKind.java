package io.mcpenvelope;

/** JSON-RPC 2.0 error kinds, in the WIT enum's order. */
public enum ProtocolErrorKind implements Json.Wire {
    PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR;

    @Override
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    public static ProtocolErrorKind of(String wire) {
        for (ProtocolErrorKind k : values()) if (k.wire().equals(wire)) return k;
        throw new IllegalArgumentException("unknown protocol error kind " + wire);
    }
}
