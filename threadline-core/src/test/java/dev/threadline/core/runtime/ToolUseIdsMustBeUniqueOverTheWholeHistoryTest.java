package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import org.junit.jupiter.api.Test;

/**
 * Regression, end to end: a model that reused a tool_use id 84 messages later got its reply accepted
 * (the reducer looked back only 64 messages) and every later turn of the session then failed the
 * transcript validator. Now the reply is refused, the turn ends as interrupted naming the id, and the
 * next turn works, also after the session is reloaded from a snapshot.
 */
class ToolUseIdsMustBeUniqueOverTheWholeHistoryTest {

    /** "call X": one echo call with tool_use id X; after tool results: "done"; anything else: "ok". */
    private static ScriptedModel model() {
        return ScriptedModel.of(req -> {
            Message last = req.messages().get(req.messages().size() - 1);
            if (!last.toolResults().isEmpty()) {
                return TestSkills.text("done");
            }
            String text = last.text();
            return text.startsWith("call ")
                    ? TestSkills.toolCall(text.substring(5), "echo", "{\"text\":\"x\"}")
                    : TestSkills.text("ok");
        });
    }

    @Test
    void toolUseIdsMustBeUniqueOverTheWholeHistory() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).snapshotEvery(5).skill(TestSkills.echo()).model(model()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            assertThat(s.submit("call c1").outcome()).isEqualTo(TurnResult.Outcome.COMPLETED); // tool_use c1 is message 1
            for (int i = 0; i < 40; i++) {
                s.submit("hello " + i);
            }
            assertThat(s.state().messages()).hasSize(84);

            TurnResult reused = s.submit("call c1"); // the reply would be message 85: 84 messages after the first use
            assertThat(reused.outcome()).isEqualTo(TurnResult.Outcome.INTERRUPTED);
            assertThat(reused.reason()).contains("'c1'").contains("already used");
            assertThat(s.state().messages()).hasSize(85); // the user message only: the reply was not recorded

            TurnResult next = s.submit("call c2");
            assertThat(next.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(next.reply()).isEqualTo("done");
            assertThat(TranscriptValidator.violations(s.state().messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();

            Engines.evict(tl, "s1");
            State loaded = s.state(); // from a snapshot and the transcript: the ids are derived again
            assertThat(loaded.toolUseIds().contains("c1")).isTrue();
            assertThat(s.submit("call c2").reason()).contains("'c2'");
            assertThat(s.submit("hello again").outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(store.latestSnapshot(Engines.key("s1"), Long.MAX_VALUE)).isPresent();
        }
    }
}
