package dev.dipswitch;

import java.util.ArrayList;
import java.util.List;

/**
 * DIPSWITCH_COMMAND split into words as every client of dipswitch splits it (docs/clients.md, the cases of
 * clients/shell_words.json), the way a POSIX shell splits words and Python's shlex.split does: whitespace
 * separates words; '…' keeps everything in it; "…" keeps everything but \" and \\, which stand for " and \;
 * a backslash outside quotes keeps the character after it. Nothing else is expanded.
 */
public final class ShellWords {
    private ShellWords() {}

    /** The words of {@code line}; an IllegalArgumentException for an unclosed quote or a backslash at the end. */
    public static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) throw new IllegalArgumentException("no closing quotation in " + line);
                word.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                boolean closed = false;
                for (i++; i < line.length(); i++) {
                    char d = line.charAt(i);
                    if (d == '"') {
                        closed = true;
                        break;
                    }
                    if (d == '\\' && i + 1 < line.length() && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) d = line.charAt(++i);
                    word.append(d);
                }
                if (!closed) throw new IllegalArgumentException("no closing quotation in " + line);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 == line.length()) throw new IllegalArgumentException("no escaped character in " + line);
                word.append(line.charAt(++i));
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) words.add(word.toString());
        return words;
    }
}
