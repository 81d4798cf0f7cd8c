package io.mcpenvelope;

/** The three renderings of one error, in the WIT enum's order (its case index crosses the ABI). */
public enum Format implements Json.Wire {
    XML, JSON, TEXT;

    @Override
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The format named {@code xml}, {@code json} or {@code text}. */
    public static Format of(String wire) {
        for (Format f : values()) if (f.wire().equals(wire)) return f;
        throw new IllegalArgumentException("unknown format " + wire + ": use xml, json or text");
    }
}
