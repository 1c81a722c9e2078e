package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.State;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
            Tenant acme = tl.tenant("acme");
            Session s = acme.openOrCreate("s1", SessionConfig.DEFAULT);
            TurnResult r = s.with(CommandOptions.id("req-1")).submit("what is (2+3)*4");
            TurnResult retry = s.with(CommandOptions.id("req-1")).submit("what is (2+3)*4");
            State now = s.state();
            List<Checkpoint> cps = s.history().checkpoints();
            State then = s.history().stateAt(cps.get(1).seq());
            Session branch = s.rewind(cps.get(1).seq());
            List<StoredEvent> next = s.history().awaitEvents(now.seq(), Duration.ofMillis(10));

            assertThat(r.reply()).contains("20");
            assertThat(retry).isEqualTo(r);
            assertThat(now.messages()).hasSize(4);
            assertThat(then.messages()).hasSize(1);
            assertThat(branch.state().messages()).hasSize(1);
            assertThat(next).isEmpty();
            assertThat(tl.tenant("other").find("s1")).isEmpty();
        }
    }
}
