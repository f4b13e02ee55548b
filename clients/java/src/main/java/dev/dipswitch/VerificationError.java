package dev.dipswitch;

import java.io.IOException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dipswitch.model.NearMiss;
import dev.dipswitch.model.NearMissDifferencesItem;
import dev.dipswitch.model.VerifyFailed;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A verify whose count did not hold, or a wait that ran out: what was asked, what came nearest (closest
 * first), and what the server knows of why nothing came. An AssertionError, so a test reports it as a failure.
 */
public class VerificationError extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final transient VerifyFailed refusal;
    private final String of;

    /** `of`: "calls" or "deliveries"; `waited`: how long a wait waited before it gave up (null for a verify). */
    VerificationError(VerifyFailed refusal, String of, Duration waited, ObjectMapper json) {
        super(message(refusal, of, waited, json));
        this.refusal = refusal;
        this.of = of;
    }

    /** The same miss, said of a wait that gave up after {@code waited}. */
    VerificationError waited(Duration waited) {
        return new VerificationError(refusal, of, waited, Core.JSON);
    }

    /** How many matched. */
    public int count() {
        return Objects.requireNonNullElse(refusal.count(), 0);
    }

    /** The count that was expected, in words (`exactly 1`). */
    public String expected() {
        return refusal.expected();
    }

    /** The nearest calls or deliveries, closest first, each with how it differs. */
    public List<NearMiss> nearMisses() {
        return Objects.requireNonNullElse(refusal.nearMisses(), List.of());
    }

    /** How many other records missed, further from the pattern than those shown. */
    public int leftOut() {
        return Objects.requireNonNullElse(refusal.nearMissesLeftOut(), 0);
    }

    /** What the server knows of why nothing came. */
    public List<String> notes() {
        return Objects.requireNonNullElse(refusal.notes(), List.of());
    }

    private static String message(VerifyFailed r, String of, Duration waited, ObjectMapper json) {
        String detail = r.errors() == null || r.errors().isEmpty() ? "The verification failed." : r.errors().get(0).detail();
        List<String> notes = Objects.requireNonNullElse(r.notes(), List.of());
        List<NearMiss> misses = Objects.requireNonNullElse(r.nearMisses(), List.of());
        int leftOut = Objects.requireNonNullElse(r.nearMissesLeftOut(), 0);
        StringBuilder b = new StringBuilder();
        if (waited != null) {
            double seconds = waited.toMillis() / 1000.0;
            b.append("Waited ").append(seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds))
                    .append(" s: ").append(Character.toLowerCase(detail.charAt(0))).append(detail.substring(1));
        } else {
            b.append(detail);
        }
        for (String note : notes) b.append("\n  ").append(note);
        for (NearMiss m : misses) {
            b.append("\n  near miss: ").append(m.summary());
            for (NearMissDifferencesItem d : m.differences())
                b.append("\n    ").append(d.field()).append(": expected ").append(text(json, d.expected()))
                        .append(", got ").append(text(json, d.actual()));
        }
        if (leftOut > 0) b.append("\n  … and ").append(leftOut).append(" further from it, left out");
        if (misses.isEmpty() && notes.isEmpty())
            b.append("\n  no ").append(of.equals("deliveries") ? "delivery" : "call").append(" came near it");
        return b.toString();
    }

    private static String text(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            return String.valueOf(value);
        }
    }
}
