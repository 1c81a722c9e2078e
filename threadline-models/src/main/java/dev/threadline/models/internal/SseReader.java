package dev.threadline.models.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Reads a server-sent event stream (the WHATWG format both providers use): {@code event:} and
 * {@code data:} lines up to a blank line make one event; several data lines are joined by newlines;
 * comment lines ({@code :...}) and other fields are skipped. Events go to a handler as they arrive.
 * Stateless: each call reads its own stream.
 */
public final class SseReader {

    /** One event: its type ({@code message} when the server named none) and its data. */
    public record Event(String type, String data) {
    }

    private SseReader() {}

    /**
     * Reads events from {@code in} and hands each to {@code handler} until it returns false or the
     * stream ends; returns whether the handler asked to stop (false = the stream simply ended).
     *
     * @throws IOException when reading the stream fails
     */
    public static boolean read(InputStream in, Predicate<Event> handler) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String type = null;
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null && !handler.test(new Event(type == null ? "message" : type, data.toString()))) {
                    return true;
                }
                type = null;
                data = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (field.equals("event")) {
                type = value;
            } else if (field.equals("data")) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return data != null && !handler.test(new Event(type == null ? "message" : type, data.toString()));
    }
}
