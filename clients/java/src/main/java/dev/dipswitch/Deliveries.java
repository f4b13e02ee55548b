package dev.dipswitch;

import dev.dipswitch.model.Delivery;
import dev.dipswitch.model.DeliveriesQuery;
import dev.dipswitch.model.Verified;
import dev.dipswitch.model.VerifyCount;
import dev.dipswitch.model.VerifyDeliveries;
import dev.dipswitch.model.VerifyDeliveriesMatch;
import dev.dipswitch.model.VerifyFailed;
import java.time.Duration;

/** The delivery log (the generated {@link DeliveriesApi}), and the one thing written by hand: waiting for a delivery. */
public final class Deliveries extends DeliveriesApi {
    /** How long {@link #waitFor(VerifyDeliveriesMatch)} waits. */
    public static final Duration WAIT = Duration.ofSeconds(5);
    private static final long POLL_MS = 50;

    Deliveries(Core core) {
        super(core);
    }

    /** The oldest delivery holding {@code match}, waiting up to 5 s. */
    public Delivery waitFor(VerifyDeliveriesMatch match) {
        return waitFor(match, WAIT);
    }

    /**
     * The oldest delivery holding {@code match} (the server checks it, as a verify's), waiting up to {@code timeout};
     * a {@link VerificationError} when none came in time, saying how long it waited and what came nearest.
     */
    public Delivery waitFor(VerifyDeliveriesMatch match, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        VerifyDeliveries atLeastOne = new VerifyDeliveries(match, VerifyCount.of().withAtLeast(1));
        while (true) {
            try {
                Verified found = verify(atLeastOne);
                Object oldest = found.matches().get(found.matches().size() - 1);
                for (Delivery d : list(DeliveriesQuery.of().withKind(match.kind() == null ? null : match.kind().toString())).deliveries())
                    if (d.id().equals(oldest)) return d;
            } catch (VerificationError missed) {
                if (System.nanoTime() > deadline) throw missed.waited(timeout);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DipswitchException("interrupted while waiting for a delivery", e);
            }
        }
    }
}
