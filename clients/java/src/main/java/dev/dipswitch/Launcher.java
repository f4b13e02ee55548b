package dev.dipswitch;

import dev.dipswitch.model.ReadyFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starting a server for a test run (docs/clients.md, "Where the server comes from" and "The launch contract"):
 * a command with {@code --ready-file} and {@code --exit-with-stdin} (its input a pipe this JVM holds, closed
 * by the system however the JVM ends), or an image run detached and removed by a reaper of its own.
 */
final class Launcher {
    private static final long START_MS = 90_000;

    private Launcher() {}

    static Dipswitch start(Settings s) {
        String run = s.run() != null ? s.run() : Dipswitch.newRun();
        if (s.url() != null && s.image() == null && s.command() == null)
            return Dipswitch.connect(s.url(), s.adminToken()).withRun(run);
        if (s.image() != null) return Containers.start(s, run);
        List<String> command = s.command();
        String how = "command";
        if (command == null) command = localCommand(Path.of("").toAbsolutePath());
        if (command == null && Boolean.TRUE.equals(s.fetch())) {
            command = List.of("npx", "--yes", "dipswitch@" + Dipswitch.VERSION, "--memory", "--port", "0");
            how = "fetch";
        }
        if (command == null) throw new LaunchError(NO_SERVER);
        return command(command, s.adminToken(), how, run);
    }

    static final String NO_SERVER = "dipswitch: no server to reach or start: set DIPSWITCH_URL (a running server), "
            + "DIPSWITCH_IMAGE (an image), DIPSWITCH_COMMAND (a command), install it in the project (npm install "
            + "--save-dev dipswitch@" + Dipswitch.VERSION + "), or DIPSWITCH_FETCH=true (npx dipswitch@" + Dipswitch.VERSION + ")";

    /** dipswitch installed in the project: node_modules/.bin/dipswitch here or in a folder above. */
    static List<String> localCommand(Path folder) {
        for (Path at = folder; at != null; at = at.getParent()) {
            Path bin = at.resolve("node_modules").resolve(".bin").resolve("dipswitch");
            if (Files.exists(bin)) return List.of(bin.toString(), "--memory", "--port", "0");
        }
        return null;
    }

    private static Dipswitch command(List<String> argv, String token, String how, String run) {
        Path dir;
        try {
            dir = Files.createTempDirectory("dipswitch-server-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path ready = dir.resolve("ready.json");
        Path output = dir.resolve("output.log");
        List<String> launched = new ArrayList<>(argv);
        launched.addAll(List.of("--ready-file", ready.toString(), "--exit-with-stdin"));
        ProcessBuilder builder = new ProcessBuilder(launched).redirectErrorStream(true).redirectOutput(output.toFile());
        if (token != null) builder.environment().put("SIM_ADMIN_TOKEN", token);
        Process server;
        try {
            server = builder.start();
        } catch (IOException e) {
            throw new LaunchError("dipswitch did not start (" + String.join(" ", argv) + "): " + e.getMessage());
        }
        // held for as long as the server is to live: the system closes it when this JVM ends
        OutputStream stdin = server.getOutputStream();
        long deadline = System.currentTimeMillis() + START_MS;
        while (true) {
            if (Files.exists(ready)) {
                ReadyFile told = read(ready);
                Runnable stop = () -> {
                    server.destroy();
                    try {
                        if (!server.waitFor(15, TimeUnit.SECONDS)) server.destroyForcibly().waitFor();
                        stdin.close();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (IOException e) {
                        // the pipe of a server that is gone: nothing to close
                    }
                    deleteAll(dir);
                };
                return new Dipswitch(new Core(told.url(), null, token, Dipswitch.http()), "127.0.0.1", how, run, stop);
            }
            String why = !server.isAlive() ? "exited with " + server.exitValue()
                    : System.currentTimeMillis() > deadline ? "did not serve within " + START_MS / 1000 + " s" : null;
            if (why != null) {
                server.destroyForcibly();
                String said = lastLines(output);
                deleteAll(dir);
                throw new LaunchError("dipswitch did not start (" + String.join(" ", argv) + ": " + why + "); it said:\n" + said);
            }
            sleep(20);
        }
    }

    private static ReadyFile read(Path ready) {
        try {
            return Core.JSON.readValue(ready.toFile(), ReadyFile.class);
        } catch (IOException e) {
            throw new LaunchError("dipswitch's ready file " + ready + " is not its contract's: " + e.getMessage());
        }
    }

    static String lastLines(Path file) {
        try {
            return lastLines(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return "  (it said nothing)";
        }
    }

    static String lastLines(String text) {
        List<String> lines = Arrays.stream(text.split("\n")).filter(l -> !l.isBlank()).map(l -> "  " + l).collect(Collectors.toList());
        List<String> kept = lines.subList(Math.max(0, lines.size() - 15), lines.size());
        return kept.isEmpty() ? "  (it said nothing)" : String.join("\n", kept);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LaunchError("interrupted while starting dipswitch");
        }
    }

    static void deleteAll(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder already gone
        }
    }
}
