package io.mcpenvelope;

/** A call trapped in the component; the instance it ran in was discarded, and the next call gets a fresh one. */
public final class TrapException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The WIT name of the export that trapped. */
    public final String export;

    TrapException(String export, Throwable cause) {
        super("mcp-envelope: " + export + " trapped: " + cause, cause);
        this.export = export;
    }
}
