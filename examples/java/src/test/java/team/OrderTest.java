package team;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dipswitch.Sandbox;
import dev.dipswitch.junit.DipswitchTest;
import dev.dipswitch.model.*;
import org.junit.jupiter.api.Test;

@DipswitchTest
class OrderTest {
    @Test
    void twoNumbersOrderedAndWaitedForOnTheClock(Sandbox box) throws Exception {
        NumbersClient client = new NumbersClient(box.url(), box.keys().admin(), 0);
        JsonNode order = client.orderTwo("312", "IL");
        JsonNode done = client.waitForOrder(order.get("id").asText(), () -> box.clock().advance(AdvanceRequest.of().withBy("PT10M")));
        assertEquals("COMPLETED", done.get("status").asText());
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("checkoutCart")).withCount(VerifyCount.of().withExactly(1)));
    }
}
