package dev.dipswitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DIPSWITCH_COMMAND is split into words alike in every client (clients/shell_words.json), and settings resolved alike. */
class ShellWordsTest {
    private static JsonNode cases() throws IOException {
        return Core.JSON.readTree(Path.of(System.getProperty("dipswitch.clients", "..")).resolve("shell_words.json").toFile());
    }

    @Test
    void everyCaseIsSplitAsEveryClientSplitsIt() throws IOException {
        JsonNode all = cases();
        assertFalse(all.get("cases").isEmpty());
        for (JsonNode c : all.get("cases")) {
            List<String> words = new ArrayList<>();
            c.get("words").forEach(w -> words.add(w.asText()));
            assertEquals(words, ShellWords.split(c.get("line").asText()), c.get("line").asText());
        }
        for (JsonNode line : all.get("refused"))
            assertThrows(IllegalArgumentException.class, () -> ShellWords.split(line.asText()), line.asText());
    }

    @Test
    void aCommandThatCannotBeSplitOrAGateOutOfRangeIsRefusedNamingItsSetting() {
        DipswitchException unclosed = assertThrows(DipswitchException.class,
                () -> Settings.of().resolve(Map.of("DIPSWITCH_COMMAND", "node 'unclosed")));
        assertEquals("DIPSWITCH_COMMAND cannot be split into words (no closing quotation in node 'unclosed)", unclosed.getMessage());
        assertThrows(DipswitchException.class, () -> Settings.of().resolve(Map.of("DIPSWITCH_FAIL_UNDER", "101")));
        assertThrows(DipswitchException.class, () -> Settings.of().resolve(Map.of("DIPSWITCH_CONTAINER_ENGINE", "lxc")));
        Settings given = Settings.of().withRun("in code").resolve(Map.of("DIPSWITCH_RUN", "from the environment", "DIPSWITCH_URL", ""));
        assertEquals("in code", given.run());
        assertEquals(null, given.url(), "an empty variable is unset");
    }

    @Test
    void everyOperationIsAMethodOrOmittedWithAReason() {
        for (Operation op : Operations.ALL) {
            boolean offered = Operations.METHODS.containsKey(op.id());
            boolean omitted = Operations.OMITTED.containsKey(op.id());
            assertEquals(true, offered ^ omitted, op.id());
        }
        assertFalse(Operations.OMITTED.isEmpty());
    }
}
