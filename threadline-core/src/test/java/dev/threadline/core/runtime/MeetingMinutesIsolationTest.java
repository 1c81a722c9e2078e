package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeetingMinutesIsolationTest {
    @TempDir
    Path workspace;

    @Test
    void twoSessionsTakingNotesAtTheSameTimeNeverSeeEachOthersNotes() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(ScriptedModel.demo())
                .skills(Builtins.all(workspace)).build()) {
            Session a = tl.defaultTenant().create("a", SessionConfig.DEFAULT);
            Session b = tl.defaultTenant().create("b", SessionConfig.DEFAULT);
            List<CompletableFuture<TurnResult>> turns = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                turns.add(a.async().submit("note alpha " + i));
                turns.add(b.async().submit("note beta " + i));
            }
            turns.forEach(CompletableFuture::join);

            List<String> notesA = notes(a);
            List<String> notesB = notes(b);
            assertThat(notesA).hasSize(20).allMatch(n -> n.startsWith("alpha "));
            assertThat(notesB).hasSize(20).allMatch(n -> n.startsWith("beta "));
            assertThat(notesA).containsExactly(expected("alpha"));

            TurnResult listA = a.submit("notes");
            assertThat(listA.reply()).contains("alpha 19").doesNotContain("beta");
        }
    }

    @Test
    void aSessionOfAnotherTenantIsInvisible() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).build()) {
            Tenant acme = tl.tenant("acme");
            Tenant other = tl.tenant("other");
            acme.create("secret", SessionConfig.DEFAULT);
            Assertions.assertThatThrownBy(() -> other.open("secret")).isInstanceOf(SessionNotFoundException.class)
                    .hasMessage(Assertions.catchThrowable(() -> other.open("never-created")).getMessage().replace("never-created", "secret"));
            assertThat(other.sessions().items()).isEmpty();
            assertThat(acme.sessions().items()).hasSize(1);
            other.create("secret", SessionConfig.DEFAULT); // ids are unique per tenant: no hint that acme has one
            assertThat(other.open("secret").state().messages()).isEmpty();
        }
    }

    private static String[] expected(String prefix) {
        String[] out = new String[20];
        for (int i = 0; i < 20; i++) {
            out[i] = prefix + " " + i;
        }
        return out;
    }

    private static List<String> notes(Session s) {
        List<String> out = new ArrayList<>();
        s.state().variable("meeting_notes").forEach(n -> out.add(n.asText()));
        return out;
    }
}
