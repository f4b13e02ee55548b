package team;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dipswitch.Sandbox;
import dev.dipswitch.VerificationError;
import dev.dipswitch.junit.DipswitchTest;
import dev.dipswitch.model.*;
import java.util.Map;
import org.junit.jupiter.api.Test;

@DipswitchTest
class WebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anInboundSmsReachesOurWebhook(Sandbox box) throws Exception {
        try (Receiver receiver = new Receiver()) {
            NumbersClient client = new NumbersClient(box.url(), box.keys().admin(), 0);
            String url = "http://" + box.receiverHost() + ":" + receiver.port() + "/sms";
            String id = client.call("POST", "/switches", Map.of("type", "switch", "data", Map.of("name", "webhook",
                    "sms_enabled", true, "sms_protocol", "HTTP", "sms_data", url))).at("/data/id").asText();
            client.call("PATCH", "/numbers/" + box.numbers().get(0), Map.of("type", "did", "data", Map.of("switch_id", id)));
            box.inbound().sms(InboundSms.of(box.numbers().get(0), "+14155550123", "hello team"));
            box.deliveries().waitFor(VerifyDeliveriesMatch.of().withKind(VerifyDeliveriesMatchKind.SMS).withOutcome(VerifyDeliveriesMatchOutcome.DELIVERED));
            assertTrue(receiver.bodies.get(0).contains("hello team"));
            box.deliveries().verify(VerifyDeliveries.of(VerifyDeliveriesMatch.of().withKind(VerifyDeliveriesMatchKind.SMS)
                    .withBody(JSON.readTree("{\"data\":{\"text\":\"hello team\"}}"))).withCount(VerifyCount.of().withExactly(1)));
        }
    }

    @Test
    void aMissedVerifyNamesItsNearMisses(Sandbox box) throws Exception {
        new NumbersClient(box.url(), box.keys().admin(), 0).call("POST", "/carts", Map.of("type", "cart", "data", Map.of("name", "launch")));
        VerificationError missed = assertThrows(VerificationError.class, () -> box.requests().verify(VerifyRequests.of(
                VerifyRequestsMatch.of().withOperationId("createCart").withBody(JSON.readTree("{\"data\":{\"name\":\"lunch\"}}")))));
        NearMissDifferencesItem difference = missed.nearMisses().get(0).differences().get(0);
        assertEquals("/body/data/name", difference.field());
        assertEquals("launch", difference.actual().asText());
    }
}
