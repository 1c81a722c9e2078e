package dev.threadline.core.store;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The one way to choose a store everywhere (builder, CLI, server, bench): a URL. {@code memory:} is
 * core's own backend; {@code sqlite:PATH}, {@code postgresql://…} and {@code redis://…} /
 * {@code redis-cluster://host:port,…} come from the backends on the class or module path (see
 * {@link StoreProvider}). Stateless and thread-safe.
 */
public final class StateStores {
    private StateStores() {}

    /**
     * Opens the store {@code url} names.
     *
     * @throws InvalidInputException                when no backend takes the URL, naming the forms that are available
     * @throws dev.threadline.core.error.StorageException when the store cannot be reached or opened
     */
    public static StateStore open(String url) {
        dev.threadline.core.log.Logs.quietWithoutBinding(); // before a store's driver first logs through SLF4J
        Require.nonBlank(url, "store");
        String u = url.strip();
        List<String> forms = new ArrayList<>();
        for (StoreProvider p : Providers.ALL) {
            if (p.accepts(u)) {
                return p.open(u);
            }
            forms.add(p.forms());
        }
        throw new InvalidInputException("store", "'" + redact(u) + "' is not a store URL this build knows; use "
                + String.join(", ", forms));
    }

    /**
     * The backends on the class or module path, found once: looking them up reads every jar's service
     * files, about half a millisecond that each open paid before.
     */
    private static final class Providers {
        static final List<StoreProvider> ALL = List.copyOf(load());

        private static List<StoreProvider> load() {
            List<StoreProvider> out = new ArrayList<>();
            ServiceLoader.load(StoreProvider.class, StateStores.class.getClassLoader()).forEach(out::add);
            // core's own backend (memory:) first, so the list of forms in an error reads the same on every class path
            out.sort(java.util.Comparator.comparing((StoreProvider p) -> !p.getClass().getPackageName().startsWith("dev.threadline.core.")));
            return out;
        }
    }

    /** The URL with any password replaced by {@code ***}, for messages. */
    public static String redact(String url) {
        return url.replaceAll("(//[^/:@]*:)[^@/]*@", "$1***@");
    }
}
