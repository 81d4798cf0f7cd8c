package io.mcpenvelope;

/**
 * A call trapped in the component and no answer could be made for it: the call trapped twice (the core's words),
 * or a call with no answer of its own after a trap. The instance it ran in was discarded; the next call gets a
 * fresh one.
 */
public final class TrapException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The WIT name of the export that trapped. */
    public final String export;

    TrapException(String export, Throwable cause) {
        this(export, "mcp-envelope: " + export + " trapped: " + cause, cause);
    }

    TrapException(String export, String message, Throwable cause) {
        super(message, cause);
        this.export = export;
    }

    /** The runtime's words for the trap. */
    String trap() {
        Throwable cause = getCause();
        return cause == null ? getMessage() : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
