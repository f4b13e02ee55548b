package dev.dipswitch;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dipswitch.model.ErrorResponse;
import dev.dipswitch.model.ErrorResponseErrorsItem;
import dev.dipswitch.model.VerifyFailed;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * One call of one operation of the control API (its method and path from the generated {@link Operations}):
 * the path's parameters, a JSON body, the query; a refusal is a {@link ControlError}, a verify's
 * ({@code verification_failed}) a {@link VerificationError}. A server's address and the credentials calls act with.
 */
final class Core {
    static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL, true)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    final String url;
    final String key;
    final String adminToken;
    private final HttpClient http;

    Core(String url, String key, String adminToken, HttpClient http) {
        this.url = url.replaceAll("/+$", "");
        this.key = key;
        this.adminToken = adminToken;
        this.http = http;
    }

    /** The same server, acting with another account's key. */
    Core withKey(String otherKey) {
        return new Core(url, otherKey, adminToken, http);
    }

    <T> T call(Operation op, Map<String, String> path, Object body, Object query, Class<T> answer) {
        return send(op, path, body, query, JSON.constructType(answer));
    }

    <T> T call(Operation op, Map<String, String> path, Object body, Object query, TypeReference<T> answer) {
        return send(op, path, body, query, JSON.constructType(answer));
    }

    private <T> T send(Operation op, Map<String, String> path, Object body, Object query, JavaType answer) {
        String target = url + pathOf(op, path) + queryOf(query);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target)).timeout(TIMEOUT)
                .header("accept", "application/json");
        if (key != null) request.header("authorization", "Bearer " + key);
        if (adminToken != null) request.header("x-sim-admin-token", adminToken);
        if (body != null) {
            // the JDK sends no content type of its own: dipswitch refuses a JSON body without one
            request.header("content-type", "application/json");
            request.method(op.method(), HttpRequest.BodyPublishers.ofByteArray(write(body)));
        } else {
            request.method(op.method(), HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> res;
        try {
            res = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new DipswitchException(op.id() + ": no answer from " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DipswitchException(op.id() + ": interrupted", e);
        }
        String text = res.body();
        if (res.statusCode() / 100 != 2) refuse(op, res.statusCode(), text);
        Class<?> raw = answer.getRawClass();
        if (raw == Void.class) return null;
        if (raw == String.class) return asAnswer(text);
        try {
            return text.isEmpty() ? null : JSON.readValue(text, answer);
        } catch (JsonProcessingException e) {
            throw new DipswitchException(op.id() + " answered what is not its contract's: " + e.getOriginalMessage(), e);
        }
    }

    /** A text answer (the metrics, a YAML contract) as the method's answer, which is a String. */
    @SuppressWarnings("unchecked")
    private static <T> T asAnswer(String text) {
        return (T) text;
    }

    /** Throws a refusal as its exception: a verify's count that did not hold, or the error envelope. */
    private static void refuse(Operation op, int status, String text) {
        List<ErrorResponseErrorsItem> errors;
        VerifyFailed verify = null;
        try {
            ErrorResponse envelope = JSON.readValue(text, ErrorResponse.class);
            errors = envelope.errors() == null ? List.of() : envelope.errors();
            if (!errors.isEmpty() && "verification_failed".equals(errors.get(0).code())) verify = JSON.readValue(text, VerifyFailed.class);
        } catch (JsonProcessingException e) {
            String said = text.length() > 300 ? text.substring(0, 300) : text;
            errors = List.of(new ErrorResponseErrorsItem("not_json", said, "Not JSON", "none", null, null));
        }
        if (verify != null) throw new VerificationError(verify, op.id().equals("simVerifyDeliveries") ? "deliveries" : "calls", null, JSON);
        throw new ControlError(status, op.id(), errors);
    }

    private static String pathOf(Operation op, Map<String, String> params) {
        String path = op.path();
        for (Map.Entry<String, String> p : params.entrySet())
            path = path.replace("{" + p.getKey() + "}", URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8).replace("+", "%20"));
        return path;
    }

    /** A query record's values (absent ones left out), in the contract's names. */
    private static String queryOf(Object query) {
        if (query == null) return "";
        Map<String, Object> values = JSON.convertValue(query, new TypeReference<Map<String, Object>>() {});
        StringJoiner joined = new StringJoiner("&", "?", "");
        joined.setEmptyValue("");
        for (Map.Entry<String, Object> v : values.entrySet())
            joined.add(URLEncoder.encode(v.getKey(), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(String.valueOf(v.getValue()), StandardCharsets.UTF_8));
        return joined.toString();
    }

    static byte[] write(Object body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new DipswitchException("a body that is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
