package dev.threadline.core.internal.json;

import dev.threadline.core.json.Json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Journals written by earlier schema versions must stay readable: each fixture under
 * {@code fixtures/vN/} was exported by that version and is decoded and folded by today's code.
 */
class StoredFixturesTest {

    private static List<StoredEvent> load(String resource) throws IOException {
        try (InputStream in = StoredFixturesTest.class.getResourceAsStream(resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.lines().filter(l -> !l.isBlank()).map(l -> RecordCodec.importLine(Json.parse(l, "fixture"))).toList();
        }
    }

    @Test
    void version1ExportOfACalculationAndANoteStillFoldsToTheSameState() throws IOException {
        List<StoredEvent> journal = load("/fixtures/v1/calc-and-note.jsonl");
        State s = Reducer.fold(journal);

        assertThat(journal.get(0).event()).isInstanceOfSatisfying(Event.SessionCreated.class,
                c -> assertThat(c.session().id()).isEqualTo("s1"));
        assertThat(s.seq()).isEqualTo(journal.size());
        assertThat(s.isIdle()).isTrue();
        assertThat(s.messages()).extracting(Message::text)
                .containsExactly("what is (2+3)*4", "", "", "(2+3)*4 = 20", "note buy milk", "", "", "Noted (1 note): buy milk");
        assertThat(s.messages().get(2).toolResults().get(0).content()).isEqualTo("20");
        assertThat(s.variable("meeting_notes").get(0).asText()).isEqualTo("buy milk");
        assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }
}
