package dev.threadline.core.runtime;

import dev.threadline.core.model.SearchHit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 38, first step: {@code History.search} finds what was said long ago in the journal, after the
 * window moved on and after the context was cleared, ranks the message that says it first, follows
 * forks (a branch finds its shared prefix, not its sibling's later turns), and refuses bad queries.
 */
class JournalSearchTest {
    private final TestClock clock = new TestClock();

    private Threadline runtime() {
        return Threadline.builder().store(new InMemoryStateStore(clock)).clock(clock)
                .model(ScriptedModel.of(r -> ScriptedModel.text("noted: " + r.messages().getLast().text()))).build();
    }

    @Test
    void theDoorCodeSaidInTurnThreeIsTheFirstHitAfterTwoHundredTurnsAndAClear() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("long", SessionConfig.DEFAULT);
            for (int i = 0; i < 200; i++) {
                s.submit(i == 3 ? "remember this: the door code is 4712" : "turn " + i + " talks about the door and the weather");
                if (i == 100) {
                    s.clear();
                }
            }
            List<SearchHit> hits = s.history().search("What was the door CODE?", 5);
            assertThat(hits).hasSize(5);
            SearchHit first = hits.getFirst();
            assertThat(first.role()).isEqualTo(Role.USER);
            assertThat(first.snippet()).isEqualTo("remember this: the door code is 4712");
            assertThat(s.history().journal()).filteredOn(e -> e.seq() == first.seq()).singleElement()
                    .satisfies(e -> assertThat(e.event().toString()).contains("4712"));
            assertThat(hits.get(1).snippet()).as("the assistant's echo of it comes second").contains("4712");
            assertThat(hits).extracting(SearchHit::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
            assertThat(s.history().search("4712", 10)).hasSize(2);
            assertThat(s.history().search("zebra", 10)).isEmpty();
        }
    }

    @Test
    void aBranchFindsItsSharedPrefixButNotWhatItsParentSaidLater() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("root", SessionConfig.DEFAULT);
            s.submit("the launch is on tuesday");
            long at = s.state().seq();
            s.submit("actually the launch moved to friday");
            Session fork = s.fork(at, "fork");
            fork.submit("and the budget is small");

            assertThat(fork.history().search("launch", 10)).extracting(SearchHit::snippet)
                    .anyMatch(t -> t.contains("tuesday")).noneMatch(t -> t.contains("friday"));
            assertThat(fork.history().search("tuesday", 10)).allMatch(h -> h.session().equals("root"));
            assertThat(fork.history().search("budget", 10)).allMatch(h -> h.session().equals("fork")).isNotEmpty();
            assertThat(s.history().search("budget", 10)).isEmpty();
        }
    }

    @Test
    void aLongMessageGivesASnippetAroundTheMatch() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
            s.submit("x ".repeat(300) + "the needle is here " + "y ".repeat(300));
            SearchHit h = s.history().search("needle", 1).getFirst();
            assertThat(h.snippet()).startsWith("…").endsWith("…").contains("the needle is here").hasSizeLessThanOrEqualTo(SearchHit.SNIPPET);
        }
    }

    @Test
    void badQueriesAreRefusedNamingTheField() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
            s.submit("hello");
            long head = s.state().seq();
            assertThatThrownBy(() -> s.history().search("  ?! ", 5)).isInstanceOf(InvalidInputException.class).hasMessageContaining("no word");
            assertThatThrownBy(() -> s.history().search("a".repeat(1001), 5)).isInstanceOf(InvalidInputException.class).hasMessageContaining("1001");
            assertThatThrownBy(() -> s.history().search("hello", 0)).isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
            assertThat(s.state().seq()).as("reads change nothing").isEqualTo(head);
        }
    }

    @Test
    void anEmptyAHugeQueryAndAnotherTenantsSessionAreClearErrorsThatChangeNothing() {
        try (Threadline tl = runtime()) {
            Session s = tl.tenant("acme").create("s", SessionConfig.DEFAULT);
            s.submit("the door code is 4712");
            long head = s.state().seq();
            assertThatThrownBy(() -> s.history().search("", 5)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("query").hasMessageContaining("empty");
            assertThatThrownBy(() -> s.history().search("door ".repeat(2_000), 5)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("query").hasMessageContaining("10000 characters").hasMessageContaining("1000");
            assertThatThrownBy(() -> tl.tenant("globex").open("s").history().search("door", 5))
                    .isInstanceOf(dev.threadline.core.error.SessionNotFoundException.class).hasMessageContaining("s")
                    .hasMessageNotContaining("4712");
            assertThat(tl.tenant("globex").find("s")).isEmpty();
            assertThat(s.state().seq()).as("bad searches change nothing").isEqualTo(head);
        }
    }
}
