package dev.threadline.cli;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.RecordCodec;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Threadline;
import dev.threadline.core.store.SessionSummary;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code threadline sessions list|show|export|delete}. */
@Command(name = "sessions", description = "List, show, export and delete sessions.", mixinStandardHelpOptions = true,
        subcommands = {SessionsCommand.ListSessions.class, SessionsCommand.Show.class, SessionsCommand.Export.class,
                SessionsCommand.Delete.class})
final class SessionsCommand {

    @Command(name = "list", description = "List the sessions, most recently updated first.", mixinStandardHelpOptions = true)
    static final class ListSessions implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (Threadline tl = Threadline.builder().store(store.open()).build()) {
                PrintWriter out = spec.commandLine().getOut();
                List<SessionSummary> rows = tl.sessions();
                if (rows.isEmpty()) {
                    out.println("No sessions in " + store.path() + ".");
                }
                rows.forEach(r -> out.println(Printer.summaryLine(r)));
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "show", description = "Show a session: its description, state and transcript.", mixinStandardHelpOptions = true)
    static final class Show implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Parameters(paramLabel = "ID", description = "session id")
        String id;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (Threadline tl = Threadline.builder().store(store.open()).build()) {
                Session s = tl.open(id);
                PrintWriter out = spec.commandLine().getOut();
                Printer.describe(out, s);
                Printer.history(out, s.state());
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "export", description = "Write the session's journal to stdout as JSON Lines, one event a line.",
            mixinStandardHelpOptions = true)
    static final class Export implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Parameters(paramLabel = "ID", description = "session id")
        String id;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (Threadline tl = Threadline.builder().store(store.open()).build()) {
                PrintWriter out = spec.commandLine().getOut();
                for (StoredEvent e : tl.open(id).journal()) {
                    out.println(RecordCodec.exportLine(e));
                }
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "delete", description = "Delete a session (refused while branches depend on it).", mixinStandardHelpOptions = true)
    static final class Delete implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Parameters(paramLabel = "ID", description = "session id")
        String id;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (Threadline tl = Threadline.builder().store(store.open()).build()) {
                tl.delete(id);
                spec.commandLine().getOut().println("Deleted session " + id + ".");
                spec.commandLine().getOut().flush();
                return 0;
            }
        }
    }
}
