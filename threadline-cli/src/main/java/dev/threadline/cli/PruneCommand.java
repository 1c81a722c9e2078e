package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.PruneResult;
import dev.threadline.core.runtime.PruneSweep;
import dev.threadline.core.session.SessionInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code threadline sessions prune --store URL [--tenant T] [--session S] (--keep N | --days D)}: prunes
 * one session's history, or every session's of the tenant, to its latest N checkpoints or its last D days, or
 * (neither given) to each session's own policy (ADR 0045). A held session is refused (one session) or left as it is (a tenant).
 */
@Command(name = "prune", description = {"Prune sessions' history: keep the latest N checkpoints, or the last D days.",
        "Older checkpoints are folded into a base the session loads from; reading one afterwards is an error.",
        "Without --keep or --days, each session's own policy (metadata threadline.keep: \"100\" or \"30d\") applies.",
        "A fork keeps the history it branched from; a session under a legal hold is not pruned."},
        mixinStandardHelpOptions = true)
final class PruneCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;
    @Mixin
    TenantOption tenant;
    @Option(names = "--session", paramLabel = "ID", description = "prune this session only (default: every session of the tenant)")
    String session;
    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Keep keep;
    @Spec
    CommandSpec spec;

    /** Exactly one of the two. */
    static final class Keep {
        @Option(names = "--keep", paramLabel = "N", required = true, description = "keep the latest N checkpoints (N >= 1)")
        Integer checkpoints;
        @Option(names = "--days", paramLabel = "D", required = true, description = "keep the checkpoints of the last D days (D >= 1)")
        Integer days;
    }

    @Override
    public Integer call() {
        String t = tenant.id(spec);
        PrunePolicy policy;
        try {
            policy = keep == null ? null // each session's own (metadata threadline.keep)
                    : keep.checkpoints != null ? PrunePolicy.keepLatest(keep.checkpoints) : PrunePolicy.keepDays(keep.days);
            if (session != null) {
                SessionInfo.checkId(session, "--session");
            }
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return store.withRuntime(spec, (tl, out) -> {
            if (session != null) {
                PruneResult r = tl.lifecycle().prune(t, session, policy);
                out.println(r.pruned()
                        ? "Pruned session " + session + tenant.shown(spec) + " through seq " + r.prunedThrough() + " (" + r.policy()
                                + "): removed " + r.eventsRemoved() + " events" + (r.limitedBy() == null ? "." : "; limited: " + r.limitedBy() + ".")
                        : "Nothing to prune in session " + session + tenant.shown(spec) + " (" + r.policy() + ")"
                                + (r.limitedBy() == null ? "." : ": " + r.limitedBy() + "."));
            } else {
                PruneSweep r = tl.lifecycle().pruneTenant(t, policy);
                out.println("Pruned " + r.pruned() + " of " + r.examined() + " sessions" + tenant.shown(spec) + " ("
                        + (policy == null ? "each under its own policy" : policy.describe() + " unless a session has its own")
                        + "): removed " + r.eventsRemoved() + " events; " + r.unchanged() + " had nothing to prune, " + r.held()
                        + " under a legal hold, " + r.running() + " leased by another process.");
            }
        });
    }
}
