package dev.dipswitch;

/** A server that could not be started, with what its launcher said last. */
public class LaunchError extends DipswitchException {
    private static final long serialVersionUID = 1L;
    public LaunchError(String message) {
        super(message);
    }
}
