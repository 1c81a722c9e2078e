package dev.threadline.models.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {
    static List<SseReader.Event> read(String text) throws IOException {
        List<SseReader.Event> events = new ArrayList<>();
        SseReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), events::add);
        return events;
    }

    @Test
    void eventsDataLinesCommentsAndALastEventWithoutABlankLine() throws IOException {
        assertThat(read(": keep-alive\n\nevent: ping\ndata: {}\n\ndata: a\ndata: b\nid: 7\n\r\ndata:no-space\n"))
                .containsExactly(new SseReader.Event("ping", "{}"), new SseReader.Event("message", "a\nb"),
                        new SseReader.Event("message", "no-space"));
    }

    @Test
    void theHandlerCanStopTheStream() throws IOException {
        List<String> seen = new ArrayList<>();
        boolean stopped = SseReader.read(new ByteArrayInputStream("data: 1\n\ndata: 2\n\n".getBytes(StandardCharsets.UTF_8)), e -> {
            seen.add(e.data());
            return false;
        });
        assertThat(stopped).isTrue();
        assertThat(seen).containsExactly("1");
    }
}
