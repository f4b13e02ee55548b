package dev.dipswitch;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * dipswitch's image started for a test run, as the Python and Go clients start it: detached, published on
 * 127.0.0.1, labelled {@code dipswitch.owner=PID}, and removed by a reaper process once this JVM is gone,
 * however it ends ({@code kill -9} included: the reaper is not the JVM's to take along).
 */
final class Containers {
    private Containers() {}

    /** The engine that runs images: the one named, else the first of docker and podman whose {@code info} answers. */
    static String engine(String named) {
        for (String engine : named != null ? List.of(named) : List.of("docker", "podman")) {
            Ran info;
            try {
                info = run(List.of(engine, "info"));
            } catch (LaunchError e) {
                if (named != null) throw new LaunchError("DIPSWITCH_CONTAINER_ENGINE is " + engine + ", but there is no " + engine + " command");
                continue;
            }
            if (info.status == 0) return engine;
            if (named != null)
                throw new LaunchError(engine + " does not answer (`" + engine + " info`):\n" + Launcher.lastLines(info.output));
        }
        return null;
    }

    static Dipswitch start(Settings s, String run) {
        String engine = engine(s.containerEngine());
        if (engine == null)
            throw new LaunchError("dipswitch: DIPSWITCH_IMAGE is " + s.image() + ", but neither docker nor podman answers "
                    + "(`docker info`, `podman info`); name one with DIPSWITCH_CONTAINER_ENGINE");
        String token = s.adminToken();
        if (token == null) {
            byte[] random = new byte[16];
            new SecureRandom().nextBytes(random);
            token = HexFormat.of().formatHex(random);
        }
        // the container reaches receivers on this machine's loopback: podman's slirp4netns maps 10.0.2.2 to it;
        // docker reaches the host as host.docker.internal (a receiver there listens beyond 127.0.0.1)
        boolean podman = engine.equals("podman");
        String owner = String.valueOf(ProcessHandle.current().pid());
        List<String> args = new ArrayList<>(List.of(engine, "run", "-d", "--label", "dipswitch.owner=" + owner));
        args.addAll(podman ? List.of("--network", "slirp4netns:allow_host_loopback=true") : List.of("--add-host", "host.docker.internal:host-gateway"));
        args.addAll(List.of("-p", "127.0.0.1::4010", "-e", "SIM_ADMIN_TOKEN=" + token, s.image()));
        Ran started = run(args);
        if (started.status != 0)
            throw new LaunchError("dipswitch's image did not start (" + engine + " run … " + s.image() + ": exit " + started.status + "); "
                    + engine + " said:\n" + Launcher.lastLines(started.output));
        String[] lines = started.output.strip().split("\n");
        String id = lines[lines.length - 1].strip();
        Process reaper = reaper(owner, engine, id);
        Runnable remove = () -> {
            run(List.of(engine, "rm", "-f", id));
            reaper.destroy();
        };
        String port = run(List.of(engine, "port", id, "4010/tcp")).output.strip().split("\n")[0];
        String url = "http://127.0.0.1:" + port.substring(port.lastIndexOf(':') + 1);
        long deadline = System.currentTimeMillis() + 90_000;
        while (!healthy(url)) {
            if (port.isEmpty() || System.currentTimeMillis() > deadline) {
                String logs = run(List.of(engine, "logs", id)).output;
                remove.run();
                throw new LaunchError("dipswitch's image " + s.image() + " did not answer; it said:\n" + Launcher.lastLines(logs));
            }
            Launcher.sleep(200);
        }
        return new Dipswitch(new Core(url, null, token, Dipswitch.http()), podman ? "10.0.2.2" : "host.docker.internal", "image", run, remove);
    }

    /** A process of its own that removes the container once {@code owner} is gone. */
    private static Process reaper(String owner, String engine, String id) {
        try {
            return new ProcessBuilder("sh", "-c", "while kill -0 \"$1\" 2>/dev/null; do sleep 0.5; done; \"$2\" rm -f \"$3\" >/dev/null 2>&1",
                    "dipswitch-reaper", owner, engine, id)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            run(List.of(engine, "rm", "-f", id));
            throw new LaunchError("no reaper for the container (sh): " + e.getMessage());
        }
    }

    private static boolean healthy(String url) {
        try {
            HttpResponse<Void> res = Dipswitch.http().send(
                    HttpRequest.newBuilder(URI.create(url + "/__sim/health")).build(), HttpResponse.BodyHandlers.discarding());
            return res.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LaunchError("interrupted while starting dipswitch's image");
        }
    }

    record Ran(int status, String output) {}

    /** Runs a command to its end, its output and errors together. */
    static Ran run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(300, TimeUnit.SECONDS)) p.destroyForcibly();
            return new Ran(p.exitValue(), output);
        } catch (IOException e) {
            throw new LaunchError(argv.get(0) + " could not be run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LaunchError("interrupted while running " + argv.get(0));
        }
    }
}
