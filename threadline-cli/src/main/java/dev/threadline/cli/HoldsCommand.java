package dev.threadline.cli;

import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.runtime.LegalHold;
import dev.threadline.core.json.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code threadline holds place|lift|list} and {@code threadline holds receipts}: legal holds on a
 * tenant, a user or a session ({@code DataLifecycle}), which retention skips and erasure refuses, and
 * the receipts of the erasures done. Placing and lifting are recorded with who did it.
 */
@Command(name = "holds", description = "Place, lift and list legal holds; list erasure receipts.", mixinStandardHelpOptions = true,
        subcommands = {HoldsCommand.Place.class, HoldsCommand.Lift.class, HoldsCommand.ListHolds.class, HoldsCommand.Receipts.class})
final class HoldsCommand {

    /** What a hold is on: exactly one of user, session, or the whole tenant. */
    static final class Subject {
        @Option(names = "--user", paramLabel = "U", required = true, description = "user U and every session of theirs")
        String user;
        @Option(names = "--session", paramLabel = "S", required = true, description = "session S and its branches")
        String session;
        @Option(names = "--all", required = true, description = "the whole tenant")
        boolean all;
    }

    /** Options every hold change takes. */
    abstract static class Change implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Option(names = "--tenant", paramLabel = "T", required = true, description = "the tenant")
        String tenant;
        @ArgGroup(exclusive = true, multiplicity = "1")
        Subject subject;
        @Option(names = "--by", paramLabel = "NAME", description = "who does it, as the record keeps it (default: $USER)")
        String by;
        @Spec
        CommandSpec spec;

        DataSubject subject() {
            return EraseCommand.subject(spec, tenant, subject.user, subject.session, subject.all);
        }
    }

    @Command(name = "place", description = "Place a legal hold: the subject is never swept nor erased until it is lifted.",
            mixinStandardHelpOptions = true)
    static final class Place extends Change {
        @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "why, e.g. a case number")
        String reason;

        @Override
        public Integer call() {
            DataSubject s = subject();
            String actor = EraseCommand.actor(spec, by);
            return store.withRuntime(spec, (tl, out) -> {
                boolean there = tl.lifecycle().holds(s.tenant()).stream().anyMatch(h -> h.subject().equals(s));
                LegalHold h = tl.lifecycle().placeHold(s, reason, actor);
                out.println((there ? "Already in place: " : "Placed ") + h.describe() + ".");
            });
        }
    }

    @Command(name = "lift", description = "Lift the legal hold on a subject.", mixinStandardHelpOptions = true)
    static final class Lift extends Change {
        @Override
        public Integer call() {
            DataSubject s = subject();
            String actor = EraseCommand.actor(spec, by);
            return store.withRuntime(spec, (tl, out) -> {
                if (!tl.lifecycle().liftHold(s, actor)) {
                    throw new dev.threadline.core.error.ThreadlineException("there is no legal hold on " + s + " in " + store.shown());
                }
                out.println("Lifted the legal hold on " + s + ".");
            });
        }
    }

    @Command(name = "list", description = "List the holds on a tenant and its users and sessions, oldest first.",
            mixinStandardHelpOptions = true)
    static final class ListHolds implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String t = tenant.id(spec);
            return store.withRuntime(spec, (tl, out) -> {
                for (LegalHold h : tl.lifecycle().holds(t)) {
                    out.println(h.placedAt() + "  " + h.subject() + "  by " + h.placedBy() + ": " + h.reason());
                }
            });
        }
    }

    @Command(name = "receipts", description = "Print the tenant's erasure receipts, oldest first, one JSON object per line.",
            mixinStandardHelpOptions = true)
    static final class Receipts implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String t = tenant.id(spec);
            return store.withRuntime(spec, (tl, out) -> {
                for (ErasureReceipt r : tl.lifecycle().receipts(t)) {
                    out.println(Json.write(r));
                }
            });
        }
    }
}
