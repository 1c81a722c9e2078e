package dev.threadline.core.state;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable list whose {@link #plus} is amortised O(1): versions share one backing array, and a
 * version may write the slot after its own end only if no other version claimed it first (else it
 * copies). A slot is written once, before the version that owns it is published, so every version
 * reads exactly the elements it had when it was made. This keeps State immutable without copying
 * the transcript at every event.
 */
final class AppendOnlyList<T> extends AbstractList<T> implements RandomAccess {
    private static final AppendOnlyList<Object> EMPTY = new AppendOnlyList<>(new Shared<>(new Object[0]), 0);

    private static final class Shared<T> {
        volatile Object[] items;
        final AtomicInteger claimed = new AtomicInteger();
        /** What a model is shown of these items when they are a transcript; made on first use. */
        ModelTranscript modelTranscript;

        Shared(Object[] items) {
            this.items = items;
        }
    }

    private final Shared<T> shared;
    private final Object[] items;
    private final int size;

    private AppendOnlyList(Shared<T> shared, int size) {
        this.shared = shared;
        this.items = shared.items;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    static <T> AppendOnlyList<T> empty() {
        return (AppendOnlyList<T>) EMPTY;
    }

    static <T> AppendOnlyList<T> copyOf(List<T> list) {
        if (list instanceof AppendOnlyList<T> a) {
            return a;
        }
        Object[] arr = list.toArray();
        Shared<T> s = new Shared<>(arr);
        s.claimed.set(arr.length);
        return new AppendOnlyList<>(s, arr.length);
    }

    AppendOnlyList<T> plus(T item) {
        java.util.Objects.requireNonNull(item, "item");
        if (shared.claimed.compareAndSet(size, size + 1)) {
            synchronized (shared) {
                Object[] arr = shared.items;
                if (arr.length <= size) {
                    arr = Arrays.copyOf(arr, Math.max(8, size * 2));
                    shared.items = arr;
                }
                arr[size] = item;
                return new AppendOnlyList<>(shared, size + 1);
            }
        }
        Object[] arr = Arrays.copyOf(items, Math.max(8, size * 2));
        arr[size] = item;
        Shared<T> s = new Shared<>(arr);
        s.claimed.set(size + 1);
        return new AppendOnlyList<>(s, size + 1);
    }

    /**
     * The model's form of the transcript this array holds, shared by every version of it (see
     * {@link ModelTranscript}); only for lists of messages.
     */
    ModelTranscript modelTranscript() {
        synchronized (shared) {
            if (shared.modelTranscript == null) {
                shared.modelTranscript = new ModelTranscript();
            }
            return shared.modelTranscript;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        return (T) items[index];
    }

    @Override
    public int size() {
        return size;
    }
}
