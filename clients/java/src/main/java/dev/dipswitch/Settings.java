package dev.dipswitch;

import java.util.List;
import java.util.Map;

/**
 * Where the server is and how to start one, the same names and order in every client of dipswitch
 * (docs/clients.md has the table): each setting given in code, else its environment variable (an empty one is
 * unset), else its default. {@code Settings.of()} is none given.
 */
public record Settings(
        String url,
        String adminToken,
        String image,
        List<String> command,
        String containerEngine,
        Double failUnder,
        String run,
        Boolean fetch) {

    /** Each setting and the environment variable it is read from. */
    public static final Map<String, String> ENVIRONMENT = Map.of(
            "url", "DIPSWITCH_URL",
            "adminToken", "DIPSWITCH_ADMIN_TOKEN",
            "image", "DIPSWITCH_IMAGE",
            "command", "DIPSWITCH_COMMAND",
            "containerEngine", "DIPSWITCH_CONTAINER_ENGINE",
            "failUnder", "DIPSWITCH_FAIL_UNDER",
            "run", "DIPSWITCH_RUN",
            "fetch", "DIPSWITCH_FETCH");

    /** No setting given in code. */
    public static Settings of() {
        return new Settings(null, null, null, null, null, null, null, null);
    }

    public Settings withUrl(String v) { return new Settings(v, adminToken, image, command, containerEngine, failUnder, run, fetch); }
    public Settings withAdminToken(String v) { return new Settings(url, v, image, command, containerEngine, failUnder, run, fetch); }
    public Settings withImage(String v) { return new Settings(url, adminToken, v, command, containerEngine, failUnder, run, fetch); }
    public Settings withCommand(List<String> v) { return new Settings(url, adminToken, image, v, containerEngine, failUnder, run, fetch); }
    public Settings withContainerEngine(String v) { return new Settings(url, adminToken, image, command, v, failUnder, run, fetch); }
    public Settings withFailUnder(Double v) { return new Settings(url, adminToken, image, command, containerEngine, v, run, fetch); }
    public Settings withRun(String v) { return new Settings(url, adminToken, image, command, containerEngine, failUnder, v, fetch); }
    public Settings withFetch(Boolean v) { return new Settings(url, adminToken, image, command, containerEngine, failUnder, run, v); }

    /** These settings, each one not given read from this process's environment. */
    public Settings resolve() {
        return resolve(System.getenv());
    }

    /** These settings, each one not given read from {@code env}; a value that cannot be meant is a DipswitchException. */
    public Settings resolve(Map<String, String> env) {
        Settings s = this;
        if (s.url == null) s = s.withUrl(of(env, "url"));
        if (s.adminToken == null) s = s.withAdminToken(of(env, "adminToken"));
        if (s.image == null) s = s.withImage(of(env, "image"));
        if (s.command == null && of(env, "command") != null) {
            try {
                s = s.withCommand(ShellWords.split(of(env, "command")));
            } catch (IllegalArgumentException e) {
                throw new DipswitchException("DIPSWITCH_COMMAND cannot be split into words (" + e.getMessage() + ")");
            }
        }
        if (s.containerEngine == null) s = s.withContainerEngine(of(env, "containerEngine"));
        if (s.containerEngine != null && !List.of("docker", "podman").contains(s.containerEngine))
            throw new DipswitchException("DIPSWITCH_CONTAINER_ENGINE is docker or podman, not '" + s.containerEngine + "'");
        if (s.failUnder == null && of(env, "failUnder") != null) {
            try {
                s = s.withFailUnder(Double.parseDouble(of(env, "failUnder")));
            } catch (NumberFormatException e) {
                throw new DipswitchException("DIPSWITCH_FAIL_UNDER is a percentage from 0 to 100, not '" + of(env, "failUnder") + "'");
            }
        }
        if (s.failUnder != null && !(s.failUnder >= 0 && s.failUnder <= 100))
            throw new DipswitchException("a coverage gate is a percentage from 0 to 100, not " + s.failUnder);
        if (s.run == null) s = s.withRun(of(env, "run"));
        if (s.fetch == null) {
            String said = of(env, "fetch") == null ? "false" : of(env, "fetch").toLowerCase();
            if (!List.of("1", "true", "yes", "0", "false", "no").contains(said))
                throw new DipswitchException("DIPSWITCH_FETCH is true or false, not '" + said + "'");
            s = s.withFetch(List.of("1", "true", "yes").contains(said));
        }
        return s;
    }

    private static String of(Map<String, String> env, String name) {
        String v = env.get(ENVIRONMENT.get(name));
        return v == null || v.isEmpty() ? null : v;
    }
}
