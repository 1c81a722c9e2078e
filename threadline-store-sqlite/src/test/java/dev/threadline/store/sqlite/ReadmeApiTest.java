package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.state.Checkpoint;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java API example, kept compiling and true. */
class ReadmeApiTest {
    @TempDir
    Path dir;

    @Test
    void theReadmeExampleRunsAsWritten() {
        try (Threadline tl = Threadline.builder()
                .store(SqliteStateStore.open(dir.resolve("agents.db")))
                .model(ScriptedModel.demo())
                .skills(Builtins.all(dir))
                .build()) {
            Session s = tl.openOrCreate("s1", SessionConfig.DEFAULT);
            TurnResult r = s.submit("what is (2+3)*4");
            State now = s.state();
            List<Checkpoint> cps = s.checkpoints();
            State then = s.stateAt(cps.get(1).seq());
            Session branch = s.rewind(cps.get(1).seq());
            s.update(state -> List.of(new Event.VariablesChanged(VariableScope.SESSION, Map.of("k", TextNode.valueOf("v")), List.of())));

            assertThat(r.reply()).contains("20");
            assertThat(now.messages()).hasSize(4);
            assertThat(then.messages()).hasSize(1);
            assertThat(branch.state().messages()).hasSize(1);
            assertThat(s.state().variable("k").asText()).isEqualTo("v");
        }
    }
}
