package dev.dipswitch.junit;

import dev.dipswitch.ControlError;
import dev.dipswitch.Dipswitch;
import dev.dipswitch.DipswitchException;
import dev.dipswitch.Settings;
import dev.dipswitch.model.CoverageQuery;
import dev.dipswitch.model.CoverageSummary;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The run's server in the root context's store. When the run ends (the store is closed), the coverage
 * gate, if one is set, says its one-line verdict, as pytest's and go test's do; a gate that fails fails the
 * run (JUnit reports it on the engine). Then a server this run started is stopped.
 */
final class RunServer implements ExtensionContext.Store.CloseableResource {
    private final Settings settings;
    private final Dipswitch server;

    RunServer(Settings settings) {
        this.settings = settings;
        this.server = Dipswitch.start(settings);
    }

    Dipswitch server() {
        return server;
    }

    @Override
    public void close() {
        String failed;
        try {
            failed = gate();
        } finally {
            server.close();
        }
        if (failed != null) throw new AssertionError(failed);
    }

    /** Says the gate's verdict; answers it when the gate fails, null when it passes or there is none. */
    private String gate() {
        Double gate = settings.failUnder();
        if (gate == null) return null;
        String run = server.run();
        String percent = number(gate) + "%";
        String line;
        boolean passed = false;
        try {
            CoverageSummary s = server.coverage(CoverageQuery.of().withRun(run)).summary();
            passed = s.percent() >= gate;
            line = "dipswitch coverage of run " + run + ": " + s.answersSeen() + " of " + s.answers()
                    + " documented answers of " + s.operationsCalled() + " operations called seen (" + number(s.percent())
                    + "%): " + (passed ? "passes" : "FAILS") + " the gate of " + percent;
        } catch (ControlError e) {
            line = e.status() == 422
                    ? "dipswitch coverage of run " + run + ": the run made no sandbox: FAILS the gate of " + percent
                    : "dipswitch coverage of run " + run + " could not be read (" + e.getMessage() + "): FAILS the gate of " + percent;
        } catch (DipswitchException e) {
            line = "dipswitch coverage of run " + run + " could not be read (" + e.getMessage() + "): FAILS the gate of " + percent;
        }
        System.out.println(line);
        return passed ? null : line;
    }

    /** A number as Go's %g and Python's :g print it (28.6, 10). */
    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
