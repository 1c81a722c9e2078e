package dev.threadline.examples.modular;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Threadline in a modular application: prints how each of Threadline's modules was resolved (explicit or
 * automatic, and what it exports), the store URL forms the ServiceLoader found, then runs a turn on a SQLite
 * store opened by URL. Argument: a folder for the database (default: a new temporary one).
 */
public final class Main {
    private static final List<String> MODULES = List.of("dev.threadline.core", "dev.threadline.store.jdbc",
            "dev.threadline.store.sqlite", "dev.threadline.store.postgres", "dev.threadline.store.redis");

    private Main() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-modular");
        System.out.println("application module: " + Main.class.getModule().getName());
        for (String name : MODULES) {
            ModuleDescriptor d = ModuleLayer.boot().findModule(name)
                    .orElseThrow(() -> new IllegalStateException(name + " is not resolved")).getDescriptor();
            System.out.println("module " + name + (d.isAutomatic() ? ": automatic" : ": exports " + exports(d)));
        }
        try {
            StateStores.open("nosuch:x");
        } catch (InvalidInputException e) {
            System.out.println("store URLs: " + e.getMessage());
        }

        StateStore store = StateStores.open("sqlite:" + dir.resolve("agents.db"));
        System.out.println("store: " + store.getClass().getSimpleName() + " from " + store.getClass().getModule().getName());
        try (Threadline tl = Threadline.builder().store(store).model(ScriptedModel.demo()).skills(Builtins.all(dir)).build()) {
            Session s = tl.tenant("acme").openOrCreate("s1", SessionConfig.DEFAULT);
            System.out.println("reply: " + s.submit("what is (2+3)*4").reply());
        }
        System.out.println("engine exported: "
                + Threadline.class.getModule().isExported("dev.threadline.core.internal.engine.loop"));
    }

    private static String exports(ModuleDescriptor d) {
        return d.exports().stream()
                .map(e -> e.source() + (e.isQualified() ? " to " + String.join(" ", e.targets().stream().sorted().toList()) : ""))
                .sorted().collect(Collectors.joining(", "));
    }
}
