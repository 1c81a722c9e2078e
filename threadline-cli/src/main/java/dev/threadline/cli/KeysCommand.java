package dev.threadline.cli;

import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.store.Resealing;
import dev.threadline.core.store.StateStore;
import dev.threadline.server.keys.ApiKey;
import dev.threadline.server.keys.KeyStore;
import dev.threadline.server.keys.NewKey;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code threadline keys create|list|revoke --store URL}: the API keys of {@code threadline serve}, kept
 * (hashed) in the state store, so every server on that store sees them at once (ADR 0022); and
 * {@code threadline keys rotate-data|rewrap --store URL?keys=… --tenant T}, the data keys of encryption at rest (ADR 0049).
 */
@Command(name = "keys", description = {"Create, list and revoke the server's API keys;",
        "turn the keys of encryption at rest over (rotate-data, rewrap)."}, mixinStandardHelpOptions = true,
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class, KeysCommand.RotateData.class,
            KeysCommand.Rewrap.class})
final class KeysCommand {

    @Command(name = "create", description = {"Create a key for a tenant, or an admin key for the operator's routes",
            "(/v1/admin: erasure, legal holds); prints the key, and only the key, once."}, mixinStandardHelpOptions = true)
    static final class Create implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @ArgGroup(exclusive = true, multiplicity = "1")
        Whose whose;
        @Spec
        CommandSpec spec;

        /** A tenant's key, or an admin key. */
        static final class Whose {
            @Option(names = "--tenant", paramLabel = "T", required = true, description = "the tenant the key acts for")
            String tenant;
            @Option(names = "--admin", required = true, description = "an admin key: /v1/admin routes only, over every tenant")
            boolean admin;
        }

        @Override
        public Integer call() {
            String tenant = whose.admin ? KeyStore.ADMIN : whose.tenant;
            try (KeyStore keys = KeyStore.open(store.url())) {
                NewKey k = keys.create(tenant);
                spec.commandLine().getOut().println(k.secret());
                spec.commandLine().getErr().println("Created " + k.key().id() + (whose.admin ? " (an admin key)" : " for tenant " + tenant)
                        + "; it is not shown again.");
            }
            return 0;
        }
    }

    @Command(name = "list", description = "List the keys (id, tenant, the secret's first characters, created, revoked).",
            mixinStandardHelpOptions = true)
    static final class ListKeys implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (KeyStore keys = KeyStore.open(store.existingUrl())) {
                for (ApiKey k : keys.list()) {
                    out.println(k.id() + "  " + k.tenant() + "  " + k.hint() + "…  created " + k.createdAt()
                            + (k.active() ? "" : "  revoked " + k.revokedAt()));
                }
            }
            return 0;
        }
    }

    @Command(name = "revoke", description = "Revoke a key by its id; requests with it are refused from then on.",
            mixinStandardHelpOptions = true)
    static final class Revoke implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Parameters(paramLabel = "ID", description = "the key's id (key_...)")
        String id;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (KeyStore keys = KeyStore.open(store.existingUrl())) {
                if (!keys.revoke(id)) {
                    spec.commandLine().getErr().println("threadline: no valid key with id '" + id + "'");
                    return 1;
                }
                spec.commandLine().getOut().println("Revoked " + id + ".");
            }
            return 0;
        }
    }

    @Command(name = "rotate-data", description = {"Encryption at rest: start a new data key for the tenant, then seal",
            "every stored payload of the tenant again under it, in batches, while the",
            "store is in use. Also seals the rows written before the store had keys.",
            "The store URL carries its keys: ?keys=keyring:FILE or ?keys=env."},
            mixinStandardHelpOptions = true)
    static final class RotateData implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Option(names = "--batch", paramLabel = "N", defaultValue = "500", description = "payloads per write (default: ${DEFAULT-VALUE})")
        int batch;
        @Option(names = "--reseal-only", description = {"seal again under the newest data key without",
                "starting one (after a rotation: for rows other", "processes wrote before they saw it)"})
        boolean resealOnly;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if (batch < 1) {
                throw new ParameterException(spec.commandLine(), "--batch must be 1 or more, not " + batch);
            }
            String t = tenant.id(spec);
            PrintWriter out = spec.commandLine().getOut();
            try (StateStore s = store.openExisting()) {
                requireKeys(s, store, spec);
                if (!resealOnly) {
                    out.println("Data key " + s.rotateDataKey(t) + " is now the newest" + tenant.shown(spec)
                            + "; other processes seal under it within " + PayloadSealer.REFRESH_MILLIS / 1000 + " s.");
                }
                long[] shown = {0};
                Resealing.Resealed done = s.reseal(t, batch, r -> {
                    if (r.examined() - shown[0] >= 10_000) {
                        shown[0] = r.examined();
                        spec.commandLine().getErr().println("  " + r.resealed() + " payloads sealed again so far");
                    }
                });
                out.println("Sealed " + done.resealed() + " payloads" + tenant.shown(spec) + " again under data key " + done.dataKey()
                        + (done.examined() > done.resealed() ? " (" + (done.examined() - done.resealed())
                                + " changed by another process meanwhile, left as it wrote them)" : "") + ".");
                out.println(s.scrub()); // the plaintext the rows held before must not stay in a log or free page
            } finally {
                out.flush();
            }
            return 0;
        }
    }

    @Command(name = "rewrap", description = {"Encryption at rest: wrap the tenant's data keys again under the key",
            "provider's active key-encryption key, so that older ones can be retired.",
            "No payload is touched. The store URL carries its keys:",
            "?keys=keyring:FILE or ?keys=env."},
            mixinStandardHelpOptions = true)
    static final class Rewrap implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String t = tenant.id(spec);
            try (StateStore s = store.openExisting()) {
                requireKeys(s, store, spec);
                int n = s.rewrapDataKeys(t);
                spec.commandLine().getOut().println("Wrapped " + n + " data key" + (n == 1 ? "" : "s") + tenant.shown(spec)
                        + " again under the active key-encryption key; " + s.dataKeys(t).size() + " in all.");
            }
            return 0;
        }
    }

    /** Refuses, as a usage error naming the store, a store opened without keys (rotate-data and rewrap need them). */
    private static void requireKeys(StateStore s, StoreOptions store, CommandSpec spec) {
        if (!s.seals()) {
            throw new ParameterException(spec.commandLine(), "the store " + store.shown() + " is not opened with keys:"
                    + " add ?keys=keyring:FILE or ?keys=env to its URL (nothing was changed)");
        }
    }
}
