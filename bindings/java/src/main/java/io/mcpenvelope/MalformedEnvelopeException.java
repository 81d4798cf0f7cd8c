package io.mcpenvelope;

/** A text holds an envelope that cannot be read; the message is the core's. */
public final class MalformedEnvelopeException extends SpecException {
    private static final long serialVersionUID = 1L;

    public MalformedEnvelopeException(String message) {
        super(message);
    }
}
