package dev.threadline.cli;

import dev.threadline.core.SessionCopy;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code threadline sessions copy --from URL --to URL [--tenant T] [--session S]}: copies sessions with their
 * branches, variables and command records from one store to another ({@link SessionCopy}), then compares
 * every copied journal in both stores. A rerun after a crash resumes. The source is checked (it exists,
 * the tenant or session is there) before the destination is opened, so a refused copy creates nothing.
 */
@Command(name = "copy", mixinStandardHelpOptions = true,
        description = {"Copy sessions with their branches, variables and command records to another store,",
                "then compare their journals in both stores. Rerun it after a crash: it resumes."})
final class CopyCommand implements Callable<Integer> {
    @Option(names = "--from", required = true, paramLabel = "URL", description = "the store to copy from (only read)")
    String from;
    @Option(names = "--to", required = true, paramLabel = "URL", description = "the store to copy to (a SQLite file is created)")
    String to;
    @Mixin
    TenantOption tenant;
    @Option(names = "--session", paramLabel = "ID",
            description = "copy only this session, with the sessions it branched from and its branches")
    String session;
    @Option(names = "--progress", description = "print a line for each session once it is copied")
    boolean progress;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String t = tenant.id(spec);
        if (session != null) {
            try {
                SessionInfo.checkId(session, "--session");
            } catch (InvalidInputException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        if (from.strip().equals(to.strip())) {
            throw new ParameterException(spec.commandLine(), "--from and --to name the same store");
        }
        PrintWriter out = spec.commandLine().getOut();
        StoreOptions source = new StoreOptions();
        source.store = from;
        try (StateStore src = StateStores.open(source.existingUrl())) {
            String shownFrom = StateStores.redact(from);
            if (session != null && src.session(new SessionKey(t, session)).isEmpty()) {
                throw new ThreadlineException("no session '" + session + "'" + tenant.shown(spec) + " in " + shownFrom + "; nothing was copied");
            }
            if (session == null && src.list(new SessionQuery(t, null, null, 1, null)).items().isEmpty()) {
                throw new ThreadlineException("tenant " + t + " has no sessions in " + shownFrom + "; nothing was copied");
            }
            try (StateStore dst = StateStores.open(to)) {
                SessionCopy copy = SessionCopy.between(src, dst).tenant(t);
                if (session != null) {
                    copy = copy.session(session);
                }
                if (progress) {
                    copy = copy.onCopied(c -> {
                        out.println("copied " + c.sessionId() + ": head " + c.head() + ", " + c.events() + " events written, "
                                + c.eventsPresent() + " already there");
                        out.flush();
                    });
                }
                CopyReport r = copy.run();
                out.println("Copied " + r.sessions() + " session(s) of tenant " + t + " from " + shownFrom + " to "
                        + StateStores.redact(to) + ": " + r.created() + " new, " + r.resumed() + " resumed, " + r.unchanged()
                        + " already there; " + r.events() + " events written, " + r.eventsPresent() + " already there, "
                        + r.commands() + " command record(s).");
                out.println("Compared " + r.sessions() + " journal(s) in both stores: equal (" + r.eventsCompared() + " events).");
            }
        } finally {
            out.flush();
        }
        return 0;
    }
}
