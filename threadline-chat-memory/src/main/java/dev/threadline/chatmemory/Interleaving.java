package dev.threadline.chatmemory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * A view's entries in order, as {@link MemoryLayout#interleave} places them (an item's entries after the system
 * messages placed at or before it, the rest of the system messages at the end), remembering where each item's part
 * began, so that the interleaving of a later view that shares its first items continues from this one instead of
 * starting over: the shared part is copied, not rebuilt. Immutable once built, so thread-safe.
 *
 * @param <T> the entry type
 */
public final class Interleaving<T> {
    private final int start;
    private final List<SystemPlacement> systems;
    private final List<T> entries;
    private final int[] entriesBefore; // per item, and for the end: the entries placed before its system messages
    private final int[] systemsBefore; // per item, and for the end: the system messages placed before it

    private Interleaving(int start, List<SystemPlacement> systems, List<T> entries, int[] entriesBefore, int[] systemsBefore) {
        this.start = start;
        this.systems = systems;
        this.entries = entries;
        this.entriesBefore = entriesBefore;
        this.systemsBefore = systemsBefore;
    }

    /**
     * The interleaving of items at transcript indexes {@code at} with {@code systems}, continuing {@code prev} for
     * the first {@code keep} items when it was built with the same start and system messages (the caller vouches
     * that those items, and their indexes, are the same); else built from the first item.
     *
     * @param prev    an earlier interleaving, or null
     * @param keep    how many first items are those of {@code prev}
     * @param start   the transcript index the view starts at
     * @param at      the transcript index of each item
     * @param systems the system messages, in order
     * @param item    adds item {@code i}'s entries to the list
     * @param system  the entry of system message {@code s} (by position in {@code systems})
     * @param <T>     the entry type
     * @throws NullPointerException when a list or function is null
     */
    public static <T> Interleaving<T> build(Interleaving<T> prev, int keep, int start, List<Integer> at, List<SystemPlacement> systems,
                                            BiConsumer<Integer, List<T>> item, IntFunction<T> system) {
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(system, "system");
        List<T> out = new ArrayList<>();
        int[] eb = new int[at.size() + 1];
        int[] sb = new int[at.size() + 1];
        int from = 0;
        int s = 0;
        if (prev != null && keep > 0 && keep < prev.entriesBefore.length && keep <= at.size() && prev.start == start
                && prev.systems.equals(systems)) {
            out.addAll(prev.entries.subList(0, prev.entriesBefore[keep]));
            System.arraycopy(prev.entriesBefore, 0, eb, 0, keep);
            System.arraycopy(prev.systemsBefore, 0, sb, 0, keep);
            from = keep;
            s = prev.systemsBefore[keep];
        }
        for (int i = from; i < at.size(); i++) {
            eb[i] = out.size();
            sb[i] = s;
            while (s < systems.size() && start + systems.get(s).offset() <= at.get(i)) {
                out.add(system.apply(s++));
            }
            item.accept(i, out);
        }
        eb[at.size()] = out.size();
        sb[at.size()] = s;
        while (s < systems.size()) {
            out.add(system.apply(s++));
        }
        return new Interleaving<>(start, List.copyOf(systems), Collections.unmodifiableList(out), eb, sb);
    }

    /** The entries, in order (unmodifiable). */
    public List<T> entries() {
        return entries;
    }
}
