package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26 item 5: a session's model is changed by a typed, journalled edit; its turns run on the new
 * model (at the base URL the edit names) from then on, and a rewind or fork to a checkpoint before the
 * edit runs on the model the session had there.
 */
class ModelEditsTest {
    /** Which (spec, base URL) each resolution asked for. */
    private final List<String> resolved = new CopyOnWriteArrayList<>();
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final ModelResolver models = new ModelResolver() {
        @Override
        public Optional<ChatModel> find(String spec) {
            return find(spec, null);
        }

        @Override
        public Optional<ChatModel> find(String spec, String baseUrl) {
            resolved.add(spec + "@" + baseUrl);
            return spec.equals("alpha") || spec.equals("beta") ? Optional.of(named(spec, baseUrl)) : Optional.empty();
        }
    };
    private final Threadline tl = Threadline.builder().store(store).models(models).snapshotEvery(2)
            .leaseLinger(java.time.Duration.ZERO).build();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void aModelEditIsOneJournalledStepAndTheNextTurnsRunOnTheNewModelAtItsBaseUrl() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel("alpha"));
        assertThat(s.submit("hi").reply()).isEqualTo("alpha@null says hi");

        Commit c = s.edit("cli", "chat --model beta", List.of(Edit.setModel("beta", "http://127.0.0.1:9/v1")));

        assertThat(c.events()).singleElement().satisfies(e -> assertThat(e.event()).isEqualTo(new Event.StateEdited("cli",
                "chat --model beta", List.of(new Edit.SetModel("beta", "http://127.0.0.1:9/v1")))));
        assertThat(s.info().config().model()).isEqualTo("alpha"); // the description keeps what it was created with
        assertThat(s.config().model()).isEqualTo("beta");
        assertThat(s.config().baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
        assertThat(s.submit("again").reply()).isEqualTo("beta@http://127.0.0.1:9/v1 says again");

        try (Threadline other = Threadline.builder().store(store).models(models).leaseLinger(java.time.Duration.ZERO).build()) { // another process: from the journal
            Session again = other.defaultTenant().open("s1");
            assertThat(again.config().model()).isEqualTo("beta");
            assertThat(again.submit("third").reply()).isEqualTo("beta@http://127.0.0.1:9/v1 says third");
        }
    }

    @Test
    void rewindingOrForkingToACheckpointBeforeTheEditRunsOnTheEarlierModel() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel("alpha"));
        s.submit("one");
        long before = s.state().seq();
        s.edit("cli", "", List.of(Edit.setModel("beta", null)));
        s.submit("two");
        s.submit("three"); // past a snapshot (every 2 events): the model change must be in it

        Session rewound = s.rewind(before);
        Session forked = s.fork(s.state().seq());

        assertThat(rewound.config().model()).isEqualTo("alpha");
        assertThat(rewound.submit("again").reply()).isEqualTo("alpha@null says again");
        assertThat(forked.config().model()).isEqualTo("beta");
        assertThat(forked.submit("later").reply()).isEqualTo("beta@null says later");
        assertThat(s.info().config().withModelChange(s.history().stateAt(before).modelChange()).model()).isEqualTo("alpha");
        try (Threadline other = Threadline.builder().store(store).models(models).leaseLinger(java.time.Duration.ZERO).build()) { // loaded from a snapshot
            assertThat(other.defaultTenant().open("s1").config().model()).isEqualTo("beta");
        }
    }

    @Test
    void aModelTheRuntimeDoesNotKnowIsRefusedAndNothingIsWritten() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel("alpha"));
        long head = s.state().seq();

        assertThatThrownBy(() -> s.edit("cli", "", List.of(Edit.setModel("gamma", null))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("no model is configured for 'gamma'");
        assertThatThrownBy(() -> Edit.setModel("beta", "file:///etc/passwd"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("baseUrl");

        assertThat(s.state().seq()).isEqualTo(head);
        assertThat(s.config().model()).isEqualTo("alpha");
    }

    @Test
    void aResolverWithFixedEndpointsKnowsNoModelAtAnotherBaseUrl() {
        ModelResolver fixed = ModelResolver.of(List.of(named("alpha", null)));
        assertThat(fixed.find("alpha", null)).isPresent();
        assertThatThrownBy(() -> fixed.resolve("alpha", "http://127.0.0.1:9/v1")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no model is configured for 'alpha' at http://127.0.0.1:9/v1");
        assertThat(fixed.orElse(models).find("beta", "http://h/v1").orElseThrow().name()).isEqualTo("beta");
    }

    private static ChatModel named(String name, String baseUrl) {
        ScriptedModel inner = ScriptedModel.of(req -> TestSkills.text(name + "@" + baseUrl + " says "
                + req.messages().get(req.messages().size() - 1).text()));
        return new ChatModel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public ChatResponse complete(ChatRequest request) {
                return inner.complete(request);
            }
        };
    }
}
