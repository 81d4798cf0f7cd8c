package io.mcpenvelope;

/** The core refused its input; the message is the core's, exactly as every host shows it. */
public class SpecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SpecException(String message) {
        super(message);
    }
}
