package dev.threadline.langgraph4j;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable list that shares its elements with the lists it was extended from: a channel that only
 * grows (LangGraph4j's appender channels) costs its new items per checkpoint, not a copy of the whole
 * list. A version extends in place when it is the longest one of its backing array, else it copies.
 * Thread-safe.
 */
final class SharedList<T> extends AbstractList<T> implements RandomAccess {
    private static final class Backing {
        Object[] items;
        int used;

        Backing(Object[] items, int used) {
            this.items = items;
            this.used = used;
        }
    }

    private final Backing backing;
    private final Object[] items;
    private final int size;

    private SharedList(Backing backing, int size) {
        this.backing = backing;
        this.items = backing.items;
        this.size = size;
    }

    /** A shared list of the elements of {@code list} (itself when it already is one). */
    static <T> SharedList<T> of(List<T> list) {
        if (list instanceof SharedList<T> s) {
            return s;
        }
        Object[] arr = list.toArray();
        return new SharedList<>(new Backing(arr, arr.length), arr.length);
    }

    /** This list followed by {@code more}. */
    SharedList<T> plus(List<?> more) {
        synchronized (backing) {
            if (backing.used == size) {
                Object[] arr = backing.items;
                if (arr.length < size + more.size()) {
                    arr = Arrays.copyOf(arr, Math.max(8, Math.max(size * 2, size + more.size())));
                    backing.items = arr;
                }
                for (int i = 0; i < more.size(); i++) {
                    arr[size + i] = more.get(i);
                }
                backing.used = size + more.size();
                return new SharedList<>(backing, size + more.size());
            }
        }
        Object[] arr = Arrays.copyOf(items, size + more.size());
        for (int i = 0; i < more.size(); i++) {
            arr[size + i] = more.get(i);
        }
        return new SharedList<>(new Backing(arr, arr.length), arr.length);
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
