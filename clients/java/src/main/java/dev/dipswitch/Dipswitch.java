package dev.dipswitch;

import dev.dipswitch.model.SandboxMade;
import dev.dipswitch.model.SandboxRequest;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.UUID;

/**
 * A dipswitch server and a client of its control API with the control API's authority: reached at a URL
 * ({@link #connect}) or started ({@link #start}, by the first of an image, a command, the project's
 * {@code node_modules/.bin/dipswitch} and a fetch; docs/clients.md). A started server ends when this process
 * does, however it ends; {@link #close} ends it sooner. Its methods are the generated {@link ServerApi}'s.
 */
public final class Dipswitch extends ServerApi implements AutoCloseable {
    /** The dipswitch release this client belongs to. */
    public static final String VERSION = "0.1.0";

    private final String receiverHost;
    private final String how;
    private final String run;
    private final Runnable stop;

    Dipswitch(Core core, String receiverHost, String how, String run, Runnable stop) {
        super(core);
        this.receiverHost = receiverHost;
        this.how = how;
        this.run = run;
        this.stop = stop;
    }

    /** The server at {@code url}, with the admin token where it has one (null: none). */
    public static Dipswitch connect(String url, String adminToken) {
        return new Dipswitch(new Core(url, null, adminToken, http()), "127.0.0.1", "url", null, () -> {});
    }

    /** A server as the environment says ({@link Settings#resolve}). */
    public static Dipswitch start() {
        return start(Settings.of());
    }

    /** A server as the settings say, each one not given read from the environment. */
    public static Dipswitch start(Settings given) {
        return Launcher.start(given.resolve());
    }

    static HttpClient http() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** The server's base URL. */
    public String url() {
        return core.url;
    }

    /** How it was had: "url", "image", "command" or "fetch". */
    public String how() {
        return how;
    }

    /**
     * The address the server reaches this machine's loopback at: give it in a receiver's URL (127.0.0.1; for an
     * image this process started, 10.0.2.2 with podman, host.docker.internal with docker).
     */
    public String receiverHost() {
        return receiverHost;
    }

    /** The run its sandboxes are made for: the one given, else DIPSWITCH_RUN, else one of this client's own. */
    public String run() {
        return run;
    }

    /** This server with the run its sandboxes are made for. */
    public Dipswitch withRun(String otherRun) {
        return new Dipswitch(core, receiverHost, how, otherRun, stop);
    }

    /** A fresh sandbox of the run, named {@code name} (null: the server names it), and a client acting on it alone. */
    public Sandbox sandbox(String name) {
        SandboxMade made = createSandbox(SandboxRequest.of().withName(name).withRun(run));
        return new Sandbox(core.withKey(made.keys().admin()), made, receiverHost);
    }

    /** A run name of this client's own: {@code junit-} and a random suffix. */
    public static String newRun() {
        return "junit-" + UUID.randomUUID().toString().substring(0, 12);
    }

    /** Ends a server this client started (SIGTERM: its pending writes finish; a container removed). */
    @Override
    public void close() {
        stop.run();
    }
}
