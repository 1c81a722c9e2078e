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
    @Option(names = "--tenant", paramLabel = "T", description = "the tenant whose data it is")
    String tenant;
    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Subject subject;
    @Option(names = "--replay", paramLabel = "FILE", description = {"apply again the erasures whose receipts FILE holds",
            "(JSON Lines, as holds receipts prints them): after restoring an older backup"})
    java.nio.file.Path replay;
    @Option(names = "--by", paramLabel = "NAME", description = "who erases, as the receipt records it (default: $USER)")
    String by;
    @Option(names = "--verify", description = {"erase nothing: look for what is left of the subject (and of --text)",
            "and print each place; exit 1 when anything is found"})
    boolean verify;
    @Option(names = "--text", paramLabel = "TEXT", description = "with --verify: a text from the erased data to look for"
            + " (in every session and variable of the tenant, and in a SQLite store's files)")
    String text;
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
        if (replay != null) {
            if (tenant != null || subject != null || verify) {
                throw new ParameterException(spec.commandLine(), "--replay takes the subjects from the receipts: give no --tenant,"
                        + " --user, --session, --all or --verify with it");
            }
            return replay(actor(spec, by));
        }
        if (tenant == null || subject == null) {
            throw new ParameterException(spec.commandLine(), "name what to erase: --tenant T and one of --user U, --session S, --all"
                    + " (or --replay FILE)");
        }
        DataSubject s = subject(spec, tenant, subject.user, subject.session, subject.all);
        if (text != null && (!verify || text.isBlank())) {
            throw new ParameterException(spec.commandLine(), verify ? "--text must not be blank" : "--text goes with --verify");
        }
        if (verify) {
            return verify(s);
        }
        String actor = actor(spec, by);
        return store.withRuntime(spec, (tl, out) -> {
            if (!tl.lifecycle().holdsDataOf(s) && tl.lifecycle().unfinished(s).isEmpty()) {
                throw new ThreadlineException(s + " has nothing in " + store.shown() + "; nothing was erased");
            }
            ErasureReceipt r = tl.lifecycle().erase(s, actor);
            ObjectNode json = (ObjectNode) Json.tree(r);
            if (subject.all) {
                json.put("apiKeys", KeyStore.on(tl).removeTenant(tenant, actor));
                json.put("webhooks", new dev.threadline.server.webhooks.WebhookStore(tl, java.time.Clock.systemUTC()).removeTenant(tenant));
            }
            out.println(pretty(json));
        });
    }

    /** Applies each receipt of the file again, in order; one line each. Reads the whole file first: a damaged line changes nothing. */
    private int replay(String actor) {
        java.util.List<ErasureReceipt> receipts = new java.util.ArrayList<>();
        java.util.List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(replay, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new ThreadlineException("cannot read the receipts " + replay + ": " + e.getMessage());
        }
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                receipts.add(Json.read(lines.get(i), ErasureReceipt.class));
            } catch (RuntimeException e) {
                throw new ThreadlineException("line " + (i + 1) + " of " + replay + " is not an erasure receipt (" + e.getMessage()
                        + "); nothing was erased");
            }
        }
        if (receipts.isEmpty()) {
            throw new ThreadlineException(replay + " holds no receipt; nothing was erased");
        }
        return store.withRuntime(spec, (tl, out) -> {
            for (ErasureReceipt r : receipts) {
                out.println(tl.lifecycle().replay(r, actor).map(again -> r.id() + ": erased again as " + again.id() + ", "
                        + again.sessions() + " session(s), " + again.userVariables() + " user variable(s)")
                        .orElse(r.id() + ": nothing of it is in the store"));
            }
        });
    }

    /** Prints what is left of {@code s}; 1 when anything is, 0 when nothing. */
    private int verify(DataSubject s) {
        java.util.List<String> hits = new java.util.ArrayList<>();
        store.withRuntime(spec, (tl, out) -> hits.addAll(tl.lifecycle().verify(s, text)));
        String url = store.url();
        if (text != null && url.startsWith("sqlite:")) {
            byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                java.nio.file.Path f = java.nio.file.Path.of(StoreOptions.sqlitePath(url) + suffix);
                if (java.nio.file.Files.isRegularFile(f) && contains(f, needle)) {
                    hits.add("the file " + f + " holds the text's bytes");
                }
            }
        }
        java.io.PrintWriter out = spec.commandLine().getOut();
        hits.forEach(out::println);
        out.println(hits.isEmpty() ? "Nothing of " + s + (text == null ? "" : " nor the text") + " found in " + store.shown() + "."
                : hits.size() + " place(s) still hold " + s + (text == null ? "" : " or the text") + " in " + store.shown() + ".");
        return hits.isEmpty() ? 0 : 1;
    }

    private static boolean contains(java.nio.file.Path f, byte[] needle) {
        byte[] hay;
        try {
            hay = java.nio.file.Files.readAllBytes(f);
        } catch (java.io.IOException e) {
            throw new ThreadlineException("cannot read " + f + " to look for the text: " + e.getMessage());
        }
        // ISO-8859-1 maps each byte to one char, so a substring search is a byte search
        return new String(hay, java.nio.charset.StandardCharsets.ISO_8859_1)
                .contains(new String(needle, java.nio.charset.StandardCharsets.ISO_8859_1));
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
