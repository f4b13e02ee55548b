package team;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dipswitch.Json;
import dev.dipswitch.Receiver;
import dev.dipswitch.Sandbox;
import dev.dipswitch.Signature;
import dev.dipswitch.VerificationError;
import dev.dipswitch.junit.DipswitchTest;
import dev.dipswitch.model.*;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

@DipswitchTest
class WebhookTest {
    @Test
    void anInboundSmsReachesOurWebhookSigned(Sandbox box) throws Exception {
        try (Receiver receiver = new Receiver()) {
            NumbersClient client = new NumbersClient(box.url(), box.keys().admin(), 0);
            String id = client.call("POST", "/switches", Map.of("type", "switch", "data", Map.of("name", "webhook",
                    "sms_enabled", true, "sms_protocol", "HTTP", "sms_data", receiver.url(box.receiverHost(), "/sms"),
                    "sms_auth_method", "HMAC_SHA256", "sms_secret", "team secret"))).at("/data/id").asText();
            client.call("PATCH", "/numbers/" + box.numbers().get(0), Map.of("type", "did", "data", Map.of("switch_id", id)));
            box.inbound().sms(InboundSms.of(box.numbers().get(0), "+14155550123", "hello team"));
            Receiver.Request sms = receiver.waitFor(1, Duration.ofSeconds(5)).get(0);
            assertTrue(Signature.verify(sms.headers().get("authorization"), sms.body(), "team secret"));
            assertTrue(sms.text().contains("hello team"));
            box.deliveries().verify(VerifyDeliveries.of(VerifyDeliveriesMatch.of().withKind(DeliveryKind.SMS)
                    .withBody(Json.of(Map.of("data", Map.of("text", "hello team"))))).withCount(VerifyCount.of().withExactly(1)));
        }
    }

    @Test
    void aMissedVerifyNamesItsNearMisses(Sandbox box) throws Exception {
        new NumbersClient(box.url(), box.keys().admin(), 0).call("POST", "/carts", Map.of("type", "cart", "data", Map.of("name", "launch")));
        VerificationError missed = assertThrows(VerificationError.class, () -> box.requests().verify(VerifyRequests.of(
                VerifyRequestsMatch.of().withOperationId("createCart").withBody(Json.of(Map.of("data", Map.of("name", "lunch")))))));
        NearMissDifferencesItem difference = missed.nearMisses().get(0).differences().get(0);
        assertEquals("/body/data/name", difference.field());
        assertEquals("launch", difference.actual().asText());
    }
}
