package dev.dipswitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.dipswitch.junit.DipswitchTest;
import dev.dipswitch.model.*;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The client and its extension, under JUnit's parallel execution: each test's sandbox is its own. */
@DipswitchTest
class SandboxesTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    static int call(Sandbox box, String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(box.url() + "/api/v1" + path))
                .header("authorization", "Bearer " + box.keys().admin())
                .header("content-type", "application/json");
        req.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(req.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @RepeatedTest(8)
    void sandboxesNeverSeeEachOther(Sandbox box) throws Exception {
        Fault rule = box.faults().add(FaultRequest.of(FaultMatch.of().withOperationId("listNumbers"), FaultEffect.of().withStatus(503)).withTimes(1));
        assertEquals(List.of(503, 200), List.of(call(box, "GET", "/numbers", null), call(box, "GET", "/numbers", null)));
        assertEquals(1, box.faults().list().faults().stream().filter(f -> f.id().equals(rule.id())).findFirst().orElseThrow().fired());
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("listNumbers")).withCount(VerifyCount.of().withExactly(2)));
        box.reset(ResetRequest.of());
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withAny(true)).withCount(VerifyCount.of().withExactly(0)));
        assertEquals(List.of(), box.faults().list().faults());
        assertEquals(10, box.numbers().size());
    }

    @Test
    void aTypoIsAControlErrorWithTheNearestName(Sandbox box) {
        ControlError refused = assertThrows(ControlError.class, () -> box.requests().verify(
                VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("listNumbrs")).withCount(VerifyCount.of().withAtMost(0))));
        assertEquals(422, refused.status());
        assertTrue(refused.getMessage().contains("Did you mean `listNumbers`"), refused.getMessage());
    }

    @Test
    void aCountIsTheServersToJudge(Sandbox box) {
        ControlError refused = assertThrows(ControlError.class, () -> box.faults().add(
                FaultRequest.of(FaultMatch.of().withOperationId("listCarts"), FaultEffect.of().withStatus(503)).withTimes(0)));
        assertEquals(422, refused.status());
    }

    @Test
    void aFailedVerifyShowsItsNearMissesFieldByField(Sandbox box) throws Exception {
        call(box, "GET", "/carts", null);
        VerificationError failed = assertThrows(VerificationError.class, () -> box.requests().verify(
                VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("listCarts").withStatus(201)).withCount(VerifyCount.of().withExactly(1))));
        assertEquals("status", failed.nearMisses().get(0).differences().get(0).field());
        assertTrue(failed.getMessage().startsWith("Expected exactly 1 matching calls, found 0."), failed.getMessage());
        assertTrue(failed.getMessage().contains("status: expected 201, got 200"), failed.getMessage());
    }

    @Test
    void aDroppedCallIsJournaledSoTheRetryIsVerified(Sandbox box) throws Exception {
        box.faults().add(FaultRequest.of(FaultMatch.of().withOperationId("createCart"), FaultEffect.of().withDrop(true)).withTimes(1));
        String cart = "{\"type\":\"cart\",\"data\":{\"name\":\"dropped once\"}}";
        assertThrows(IOException.class, () -> call(box, "POST", "/carts", cart));
        assertEquals(201, call(box, "POST", "/carts", cart));
        box.requests().verify(VerifyRequests.of(VerifyRequestsMatch.of().withOperationId("createCart")).withCount(VerifyCount.of().withExactly(2)));
    }

    @Test
    void anInboundSmsReachesTheTestsReceiverSignedAndIsWaitedFor(Sandbox box) throws Exception {
        try (Receiver receiver = new Receiver()) {
            String url = receiver.url(box.receiverHost(), "/sms");
            String made = Core.JSON.writeValueAsString(Json.of(java.util.Map.of("type", "switch", "data", java.util.Map.of(
                    "name", "java", "sms_enabled", true, "sms_protocol", "HTTP", "sms_data", url,
                    "sms_auth_method", "HMAC_SHA256", "sms_secret", "junit secret"))));
            HttpResponse<String> sw = HTTP.send(HttpRequest.newBuilder(URI.create(box.url() + "/api/v1/switches"))
                    .header("authorization", "Bearer " + box.keys().admin()).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(made)).build(), HttpResponse.BodyHandlers.ofString());
            String id = Json.parse(sw.body()).at("/data/id").asText();
            assertEquals(200, call(box, "PATCH", "/numbers/" + box.numbers().get(0), "{\"type\":\"did\",\"data\":{\"switch_id\":\"" + id + "\"}}"));
            box.inbound().sms(InboundSms.of(box.numbers().get(0), "+14155550123", "hello from junit"));
            Delivery delivered = box.deliveries().waitFor(VerifyDeliveriesMatch.of().withKind(DeliveryKind.SMS)
                    .withOutcome(VerifyDeliveriesMatchOutcome.DELIVERED));
            assertEquals(url, delivered.target());
            assertEquals(DeliveryKind.SMS, delivered.kind());
            Receiver.Request sms = receiver.waitFor(1, java.time.Duration.ofSeconds(5)).get(0);
            assertTrue(sms.text().contains("hello from junit"));
            assertTrue(Signature.verify(sms.headers().get("authorization"), sms.body(), "junit secret"));
            assertFalse(Signature.verify(sms.headers().get("authorization"), sms.body(), "another secret"));
        }
    }

    @Test
    void aWaitThatRunsOutSaysSo(Sandbox box) {
        VerificationError failed = assertThrows(VerificationError.class,
                () -> box.deliveries().waitFor(VerifyDeliveriesMatch.of().withKind(DeliveryKind.SMS), java.time.Duration.ofMillis(200)));
        assertTrue(failed.getMessage().startsWith("Waited 0.2 s: expected at least 1 matching deliveries, found 0."), failed.getMessage());
    }

    @Test
    void theServerIsTheRunsOneWithItsAuthority(Dipswitch server) {
        assertEquals("ok", server.health().status());
        assertTrue(server.accounts().accounts().size() >= 2);
    }
}
