package dev.dipswitch;

/** Anything the client raises of its own: no answer from the server, a launch that failed, a setting that cannot be meant. */
public class DipswitchException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public DipswitchException(String message) {
        super(message);
    }

    public DipswitchException(String message, Throwable cause) {
        super(message, cause);
    }
}
