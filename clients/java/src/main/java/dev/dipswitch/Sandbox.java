package dev.dipswitch;

import dev.dipswitch.model.AccountDeleted;
import dev.dipswitch.model.SandboxMade;
import dev.dipswitch.model.SandboxMadeKeys;
import java.util.List;

/**
 * An account of its own and a client acting on it alone (its admin key): the generated {@link SandboxApi}'s methods.
 * {@code try (Sandbox box = sim.sandbox("name")) { … }} removes it however the block ends.
 */
public final class Sandbox extends SandboxApi implements AutoCloseable {
    private final SandboxMade made;
    private final String receiverHost;

    Sandbox(Core core, SandboxMade made, String receiverHost) {
        super(core);
        this.made = made;
        this.receiverHost = receiverHost;
    }

    @Override
    public String id() {
        return made.id();
    }

    public String name() {
        return made.name();
    }

    /** Its keys: admin, readonly, standard. */
    public SandboxMadeKeys keys() {
        return made.keys();
    }

    /** Its ten numbers. */
    public List<String> numbers() {
        return made.numbers();
    }

    /** The server's base URL (the simulated API at {@code /api/v1}). */
    public String url() {
        return core.url;
    }

    /** The address the server reaches this machine's loopback at (see {@link Dipswitch#receiverHost}). */
    public String receiverHost() {
        return receiverHost;
    }

    /** The sandbox as the server answered it. */
    public SandboxMade made() {
        return made;
    }

    /** Removes the sandbox (try-with-resources' end). */
    @Override
    public void close() {
        remove();
    }
}
