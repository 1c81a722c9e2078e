package dev.threadline.examples.plain;

import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The plain Java API: a runtime on a SQLite file with the offline scripted model and the built-in
 * skills; two turns, a retried command, a second runtime (as after a restart) that finds everything,
 * and a rewind onto a branch. Argument: a folder for the database (default: a new temporary one).
 */
public final class Main {
    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-plain");
        Path db = dir.resolve("agents.db");

        try (Threadline tl = runtime(db, dir)) {
            Session s = tl.tenant("acme").openOrCreate("s1", SessionConfig.DEFAULT);
            TurnResult sum = s.with(CommandOptions.id("req-1")).submit("what is (2+3)*4");
            TurnResult retry = s.with(CommandOptions.id("req-1")).submit("what is (2+3)*4"); // same id: runs nothing again
            s.submit("note buy milk");
            System.out.println("reply: " + sum.reply());
            System.out.println("retry gave the first result: " + retry.equals(sum));
        }

        try (Threadline again = runtime(db, dir)) {                                         // as after a restart
            Session s = again.tenant("acme").open("s1");
            List<Checkpoint> checkpoints = s.history().checkpoints();
            System.out.println("after restart: " + s.state().messages().size() + " messages, "
                    + checkpoints.size() + " checkpoints, notes " + s.state().variable("meeting_notes"));
            Checkpoint afterFirstAnswer = checkpoints.stream()
                    .filter(c -> s.history().stateAt(c.seq()).messages().size() == 4).findFirst().orElseThrow();
            Session branch = s.rewind(afterFirstAnswer.seq());
            TurnResult power = branch.submit("what is 2^10");
            System.out.println("branch " + branch.id() + ": " + power.reply() + "; notes there: " + branch.state().variable("meeting_notes"));
            System.out.println("original still has " + s.state().messages().size() + " messages");
        }
    }

    private static Threadline runtime(Path db, Path workspace) {
        return Threadline.builder()
                .store(SqliteStateStore.open(db))
                .model(ScriptedModel.demo())           // offline: Threadline's scripted demo model, not an LLM
                .skills(Builtins.all(workspace))
                .build();
    }
}
