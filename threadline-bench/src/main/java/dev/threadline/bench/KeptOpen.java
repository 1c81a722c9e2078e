package dev.threadline.bench;

import dev.threadline.core.store.StateStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * A view of a store whose {@code close} does nothing, for a runtime built on a store that outlives it:
 * a runtime closes its store when it closes, and a cold load measured on an open store builds a new
 * runtime (an empty cache) each time. A reflective proxy: a few µs over a load's dozen calls.
 * Thread-safe as the store is.
 */
final class KeptOpen {
    private KeptOpen() {}

    /** {@code store}, whose {@code close()} the view ignores. */
    static StateStore view(StateStore store) {
        return (StateStore) Proxy.newProxyInstance(KeptOpen.class.getClassLoader(), new Class<?>[] {StateStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        return null;
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
