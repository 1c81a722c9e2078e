package dev.threadline.cli;

import dev.threadline.core.export.ExportLines;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.SweepResult;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code threadline sessions list|show|export|delete}, each on one tenant ({@code --tenant}, default
 * {@code default}), {@code sweep}, one retention pass over every tenant, {@code prune} (history), and {@code copy} to another store.
 */
@Command(name = "sessions", description = "List, show, export, delete, sweep, prune and copy sessions.", mixinStandardHelpOptions = true,
        subcommands = {SessionsCommand.ListSessions.class, SessionsCommand.Show.class, SessionsCommand.Export.class,
                SessionsCommand.Delete.class, SessionsCommand.Search.class, ReplayCommand.class, SessionsCommand.Sweep.class, PruneCommand.class,
                CopyCommand.class})
final class SessionsCommand {

    @Command(name = "list", description = "List the sessions, most recently updated first.", mixinStandardHelpOptions = true)
    static final class ListSessions implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            tenant.id(spec); // a malformed id is bad usage before the store is opened
            return store.withRuntime(spec, (tl, out) -> {
                Tenant t = tenant.of(tl, spec);
                Page<SessionSummary> page = t.sessions();
                if (page.items().isEmpty()) {
                    out.println("No sessions" + tenant.shown(spec) + " in " + store.shown() + ".");
                }
                while (true) {
                    page.items().forEach(r -> out.println(Printer.summaryLine(t, r)));
                    if (!page.hasNext()) {
                        break;
                    }
                    page = t.sessions(SessionFilter.FIRST_PAGE.at(page.nextCursor()));
                }
            });
        }
    }

    /**
     * A sessions subcommand on one session: the store, the tenant and the session's id, and what it does
     * with them once the runtime is open.
     */
    abstract static class OneSession implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Parameters(index = "0", paramLabel = "ID", description = "session id")
        String id;
        @Spec
        CommandSpec spec;

        @Override
        public final Integer call() {
            tenant.id(spec);
            return store.withRuntime(spec, (tl, out) -> run(tenant.of(tl, spec), out));
        }

        /** The command's work on the tenant's view; output to {@code out}. */
        abstract void run(Tenant t, PrintWriter out);
    }

    @Command(name = "show", description = "Show a session: its description, state and transcript.", mixinStandardHelpOptions = true)
    static final class Show extends OneSession {
        @Override
        void run(Tenant t, PrintWriter out) {
            Session s = t.open(id);
            Printer.describe(out, t, s);
            Printer.history(out, s.state());
        }
    }

    @Command(name = "export", description = "Write the session's journal to stdout as JSON Lines, one event a line.",
            mixinStandardHelpOptions = true)
    static final class Export extends OneSession {
        @Override
        void run(Tenant t, PrintWriter out) {
            for (StoredEvent e : t.open(id).history().journal()) {
                out.println(ExportLines.of(e));
            }
        }
    }

    @Command(name = "search", description = {"Search everything said in a session (its branch's shared prefix included),",
            "best first: seq, role, time and an excerpt of each matching message."}, mixinStandardHelpOptions = true)
    static final class Search extends OneSession {
        @Parameters(index = "1", paramLabel = "QUERY", description = "the words to look for")
        String query;
        @picocli.CommandLine.Option(names = "--limit", paramLabel = "N", defaultValue = "10",
                description = "at most N hits (1 to 100, default ${DEFAULT-VALUE})")
        int limit;

        @Override
        void run(Tenant t, PrintWriter out) {
            Printer.searchHits(out, id, tenant.shown(spec), query, t.open(id).history().search(query, limit));
        }
    }

    @Command(name = "delete", description = "Delete a session (refused while branches depend on it).", mixinStandardHelpOptions = true)
    static final class Delete extends OneSession {
        @Override
        void run(Tenant t, PrintWriter out) {
            t.delete(id);
            out.println("Deleted session " + id + tenant.shown(spec) + ".");
        }
    }

    @Command(name = "sweep", description = {"Delete the expired sessions of every tenant: one retention pass, oldest expiry first.",
            "Keeps a session whose lease is held (a turn may be running) and one that live branches depend on."},
            mixinStandardHelpOptions = true)
    static final class Sweep implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Option(names = "--limit", paramLabel = "N", defaultValue = "1000",
                description = "look at N expired sessions at most (1 to 1000, default ${DEFAULT-VALUE})")
        int limit;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if (limit < 1 || limit > 1000) {
                throw new ParameterException(spec.commandLine(), "--limit must be 1 to 1000, was " + limit);
            }
            return store.withRuntime(spec, (tl, out) -> {
                SweepResult r = tl.sweep(limit);
                out.println("Swept " + store.shown() + ": removed " + r.removed() + ", kept " + r.running()
                        + " leased (a turn may be running) and " + r.withBranches() + " with live branches"
                        + (r.held() > 0 ? ", and " + r.held() + " under a legal hold." : "."));
            });
        }
    }
}
