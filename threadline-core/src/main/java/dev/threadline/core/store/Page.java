package dev.threadline.core.store;

import java.util.List;

/**
 * One page of a listing and the cursor of the next one. Immutable.
 *
 * @param items      this page's items
 * @param nextCursor what to pass to get the next page in the same direction, or null at the end
 */
public record Page<T>(List<T> items, String nextCursor) {
    public Page {
        items = List.copyOf(items);
    }

    /** Whether a next page may exist. */
    public boolean hasNext() {
        return nextCursor != null;
    }
}
