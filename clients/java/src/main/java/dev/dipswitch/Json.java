package dev.dipswitch;

import com.fasterxml.jackson.databind.JsonNode;

/** JSON a test builds for a pattern's {@code body} ({@code withBody(Json.of(Map.of("data", Map.of("text", "hi"))))}). */
public final class Json {
    private Json() {}

    /** A value (maps, lists, strings, numbers, booleans, records) as JSON. */
    public static JsonNode of(Object value) {
        return Core.JSON.valueToTree(value);
    }

    /** JSON text, parsed; an {@link IllegalArgumentException} naming the problem when it is not JSON. */
    public static JsonNode parse(String text) {
        try {
            return Core.JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
