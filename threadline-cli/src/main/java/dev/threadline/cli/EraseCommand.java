package dev.threadline.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.server.keys.KeyStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code threadline erase --store URL --tenant T (--user U | --session S | --all) [--by NAME]}: removes
 * a subject's data everywhere in the store ({@code DataLifecycle.erase}) and prints the receipt as JSON.
 * {@code --all} also removes the tenant's server API keys. A legal hold refuses it, changing nothing;
 * a subject the store knows nothing of is refused too (a mistyped id erases nothing and says so).
 */
@Command(name = "erase", mixinStandardHelpOptions = true,
        description = {"Erase a user, a session (with its branches) or a whole tenant everywhere in the store:",
                "sessions, journals, snapshots, command records, variables (and, for --all, API keys);",
                "then scrub the store's files. Prints the erasure receipt (JSON), which the store keeps.",
                "Refused, with nothing changed, when a legal hold covers what it would remove."})
final class EraseCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;
    @Option(names = "--tenant", paramLabel = "T", required = true, description = "the tenant whose data it is")
    String tenant;
    @ArgGroup(exclusive = true, multiplicity = "1")
    Subject subject;
    @Option(names = "--by", paramLabel = "NAME", description = "who erases, as the receipt records it (default: $USER)")
    String by;
    @Spec
    CommandSpec spec;

    /** Exactly one of the three. */
    static final class Subject {
        @Option(names = "--user", paramLabel = "U", required = true, description = "every session of user U, and U's variables")
        String user;
        @Option(names = "--session", paramLabel = "S", required = true, description = "session S with all its branches")
        String session;
        @Option(names = "--all", required = true, description = "the whole tenant: every session, variable and API key")
        boolean all;
    }

    @Override
    public Integer call() {
        DataSubject s = subject(spec, tenant, subject.user, subject.session, subject.all);
        String actor = actor(spec, by);
        return store.withRuntime(spec, (tl, out) -> {
            if (!tl.lifecycle().holdsDataOf(s)) {
                throw new ThreadlineException(s + " has nothing in " + store.shown() + "; nothing was erased");
            }
            ErasureReceipt r = tl.lifecycle().erase(s, actor);
            ObjectNode json = (ObjectNode) Json.tree(r);
            if (subject.all) {
                json.put("apiKeys", KeyStore.on(tl).removeTenant(tenant, actor));
            }
            out.println(pretty(json));
        });
    }

    /** {@code json} indented, as a person reads it and {@code jq} takes it. */
    static String pretty(Object json) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a receipt always serialises", e);
        }
    }

    /** The subject the options name; bad usage (exit 2) when an id is malformed. */
    static DataSubject subject(CommandSpec spec, String tenant, String user, String session, boolean all) {
        try {
            SessionInfo.checkId(tenant, "--tenant");
            if (all) {
                return DataSubject.tenant(tenant);
            }
            return user != null ? DataSubject.user(tenant, user) : DataSubject.session(tenant, session);
        } catch (dev.threadline.core.error.InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** {@code --by}, else the login name, else "cli". */
    static String actor(CommandSpec spec, String by) {
        if (by != null) {
            if (by.isBlank()) {
                throw new ParameterException(spec.commandLine(), "--by must name someone");
            }
            return by;
        }
        String user = System.getenv("USER");
        return user == null || user.isBlank() ? "cli" : user;
    }
}
