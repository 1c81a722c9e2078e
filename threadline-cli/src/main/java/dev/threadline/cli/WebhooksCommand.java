package dev.threadline.cli;

import dev.threadline.server.webhooks.Failure;
import dev.threadline.server.webhooks.Subscription;
import dev.threadline.server.webhooks.WebhookEvents;
import dev.threadline.server.webhooks.WebhookSettings;
import dev.threadline.server.webhooks.Webhooks;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code threadline webhooks add|list|remove --store URL --tenant T}: a tenant's webhook subscriptions,
 * kept in the state store (ADR 0041), so every {@code threadline serve} on it delivers them (one node
 * per tenant at a time).
 */
@Command(name = "webhooks", description = "Add, list and remove a tenant's webhook subscriptions (delivered by threadline serve).",
        mixinStandardHelpOptions = true,
        subcommands = {WebhooksCommand.Add.class, WebhooksCommand.ListHooks.class, WebhooksCommand.Remove.class})
final class WebhooksCommand {

    private static Webhooks open(String url) {
        return Webhooks.manual(url, Clock.systemUTC(), WebhookSettings.DEFAULTS); // edits only: nothing is delivered from here
    }

    @Command(name = "add", description = {"Subscribe URL to the tenant's session events; prints the subscription's id and,",
            "once, its whsec_ signing secret."}, mixinStandardHelpOptions = true)
    static final class Add implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Parameters(paramLabel = "URL", description = "the receiver's absolute http(s) URL")
        String url;
        @Option(names = "--events", split = ",", paramLabel = "TYPE", description = {"the event types, comma-separated (default: all):",
                "session.created, turn.completed, turn.failed,", "turn.awaiting_approval, turn.awaiting_input,",
                "session.expired, session.erased"})
        List<String> events;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String t = tenant.id(spec);
            try (Webhooks hooks = open(store.url())) {
                Subscription s = hooks.records().add(t, url, events == null ? WebhookEvents.TYPES : events);
                PrintWriter out = spec.commandLine().getOut();
                out.println(s.id() + "  " + s.secret());
                spec.commandLine().getErr().println("Added " + s.id() + " for tenant " + t + " (" + String.join(", ", s.events())
                        + "); the secret is not shown again here.");
            }
            return 0;
        }
    }

    @Command(name = "list", description = "List the tenant's subscriptions (id, URL, events, created) and their failed deliveries.",
            mixinStandardHelpOptions = true)
    static final class ListHooks implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            String t = tenant.id(spec);
            try (Webhooks hooks = open(store.existingUrl())) {
                for (Subscription s : hooks.records().list(t)) {
                    out.println(s.id() + "  " + s.url() + "  " + String.join(",", s.events()) + "  created " + s.createdAt());
                    for (Failure f : hooks.records().failures(t, s.id())) {
                        out.println("  failed: " + f.session() + "/" + f.seq() + " " + f.type() + " after " + f.attempts() + " tries ("
                                + f.lastError() + ") at " + f.failedAt());
                    }
                }
            }
            return 0;
        }
    }

    @Command(name = "remove", description = "Remove a subscription by its id; nothing more is delivered to it.", mixinStandardHelpOptions = true)
    static final class Remove implements Callable<Integer> {
        @Mixin
        StoreOptions store;
        @Mixin
        TenantOption tenant;
        @Parameters(paramLabel = "ID", description = "the subscription's id (wh_...)")
        String id;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String t = tenant.id(spec);
            try (Webhooks hooks = open(store.existingUrl())) {
                if (!hooks.records().remove(t, id)) {
                    spec.commandLine().getErr().println("threadline: tenant " + t + " has no webhook with id '" + id + "'");
                    return 1;
                }
                spec.commandLine().getOut().println("Removed " + id + ".");
            }
            return 0;
        }
    }
}
