package dev.threadline.cli;

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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code threadline keys create|list|revoke --store URL}: the API keys of {@code threadline serve}, kept
 * (hashed) in the state store, so every server on that store sees them at once (ADR 0022).
 */
@Command(name = "keys", description = "Create, list and revoke the server's API keys.", mixinStandardHelpOptions = true,
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
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
}
