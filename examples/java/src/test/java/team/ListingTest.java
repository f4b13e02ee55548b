package team;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dipswitch.Sandbox;
import dev.dipswitch.junit.DipswitchTest;
import dev.dipswitch.model.*;
import org.junit.jupiter.api.Test;

@DipswitchTest
class ListingTest {
    @Test
    void listingSurvivesA503(Sandbox box) throws Exception {
        Fault rule = box.faults().add(FaultRequest.of(FaultMatch.of().withOperationId("listNumbers"), FaultEffect.of().withStatus(503)).withTimes(1));
        assertEquals(10, new NumbersClient(box.url(), box.keys().admin(), 2).numbers().size());
        assertEquals(1, box.faults().get(rule.id()).fired()); // read now, from the server
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("listNumbers").withStatus(503)).withCount(VerifyCount.of().withExactly(1)));
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("listNumbers").withStatus(200)).withCount(VerifyCount.of().withExactly(1)));
    }

    @Test
    void aCartSurvivesADroppedConnection(Sandbox box) throws Exception {
        box.faults().add(FaultRequest.of(FaultMatch.of().withOperationId("createCart"), FaultEffect.of().withDrop(true)).withTimes(1));
        new NumbersClient(box.url(), box.keys().admin(), 2).orderTwo("312", "IL");
        // the dropped call and our retry are both in the journal
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("createCart")).withCount(VerifyCount.of().withExactly(2)));
    }
}
