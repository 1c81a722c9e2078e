package dev.threadline.core.store;

/**
 * Opens stores of one backend from a URL ({@code sqlite:PATH}, {@code postgresql://…}, {@code redis://…}).
 * Backends register an implementation with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/dev.threadline.core.store.StoreProvider} entry, and {@code provides} in a
 * module descriptor); {@link StateStores#open} picks the one that accepts a URL. Implementations are
 * stateless and thread-safe.
 */
public interface StoreProvider {

    /** Whether this backend opens {@code url} (judged by its scheme only; nothing is connected). */
    boolean accepts(String url);

    /**
     * Opens (creating or upgrading the schema where needed) the store {@code url} names.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the URL is malformed, naming what is wrong
     * @throws dev.threadline.core.error.StorageException      when the store cannot be reached or opened
     */
    StateStore open(String url);

    /** The URL forms this backend takes, for messages (e.g. {@code "sqlite:PATH"}). */
    String forms();
}
