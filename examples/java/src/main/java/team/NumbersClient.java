package team;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** A small client of the provider's /api/v1, as a client team writes one: list numbers, order two, wait for the order. */
public final class NumbersClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;
    private final String key;
    private final int retries;

    public NumbersClient(String baseUrl, String key, int retries) {
        this.base = baseUrl.replaceAll("/+$", "") + "/api/v1";
        this.key = key;
        this.retries = retries;
    }

    /** One call; the provider's 5xx and a dropped connection are worth another try, anything else is the caller's. */
    public JsonNode call(String method, String path, Object body) throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + path))
                    .header("authorization", "Bearer " + key).header("accept", "application/json");
            if (body != null) req.header("content-type", "application/json");
            req.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            try {
                HttpResponse<String> res = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
                if (res.statusCode() < 500 || attempt == retries) {
                    if (res.statusCode() >= 400) throw new IOException(method + " " + path + " answered " + res.statusCode() + ": " + res.body());
                    return res.body().isEmpty() ? null : JSON.readTree(res.body());
                }
            } catch (IOException e) {
                if (attempt == retries || e.getMessage() != null && e.getMessage().contains(" answered ")) throw e;
            }
            Thread.sleep(50L * (attempt + 1));
        }
    }

    public List<String> numbers() throws IOException, InterruptedException {
        List<String> numbers = new ArrayList<>();
        for (JsonNode r : call("GET", "/numbers", null).get("results")) numbers.add(r.at("/data/number").asText());
        return numbers;
    }

    /** Orders two numbers of the NPA: a cart, its request, the checkout; answers the order. */
    public JsonNode orderTwo(String npa, String state) throws IOException, InterruptedException {
        String cart = call("POST", "/carts", JSON.readTree("{\"type\":\"cart\",\"data\":{\"name\":\"order " + System.nanoTime() + "\"}}"))
                .at("/data/id").asText();
        call("POST", "/carts/" + cart + "/requests", JSON.readTree("{\"type\":\"request\",\"data\":{\"type\":\"NEW_NUMBERS\",\"data\":"
                + "{\"npa\":\"" + npa + "\",\"state\":\"" + state + "\",\"number_type\":\"TENDLC\",\"quantity\":\"2\"}}}"));
        return call("POST", "/carts/" + cart + "/checkout", null).get("data");
    }

    /** Polls the order until it ends; {@code tick} moves time on between polls (a test's clock). */
    public JsonNode waitForOrder(String id, Runnable tick) throws IOException, InterruptedException {
        for (int i = 0; i < 50; i++) {
            JsonNode order = call("GET", "/orders/" + id, null).get("data");
            if (List.of("COMPLETED", "ERROR", "CANCELLED").contains(order.get("status").asText())) return order;
            tick.run();
        }
        throw new IOException("order " + id + " did not end");
    }
}
