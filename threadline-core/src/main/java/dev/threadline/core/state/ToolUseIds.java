package dev.threadline.core.state;

import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tool_use ids of a transcript's first {@link #messageCount()} messages, each with the index of
 * the message that first used it: what the reducer asks to keep ids unique over the whole history
 * (invariant 3) without scanning the transcript.
 *
 * <p><b>Design.</b> Like {@link AppendOnlyList}, versions share one structure: a map from id to the
 * index of the message that used it, plus a claim counter. A version covering {@code n} messages
 * trusts only entries whose index is below {@code n}; entries at {@code n} or later belong to a
 * later version and are invisible to it. {@link #plus} extends the shared map in place when the
 * version is the newest one that shares it (it wins the claim {@code n -> n + 1}, then records the
 * message's ids at index {@code n}); otherwise another version already extended the map from the
 * same point (a step that was staged and dropped, a refused decider, a second branch of one state)
 * and this one copies the entries below {@code n} into a fresh map first — unless the other extended it with the
 * very same message object at {@code n}, or with another message without tool_use as {@code next} has none, and
 * nothing since (a step's events folded twice from one state, as {@code Session.recordStep} checks them before the
 * step folds them again; the reducer builds a tool-results message anew at each fold): the two versions then hold
 * the same ids and share the map. So a linear history costs
 * one compare-and-set and one map insertion per tool_use (amortised O(1) per event, nothing copied),
 * and only a divergence pays an O(history) copy, once. Entries are written before the version that
 * covers them is created, so every version sees exactly the ids of its own messages.
 *
 * <p>Nothing here is stored: the ids are a function of the messages, rebuilt by {@link #of} when a
 * state is loaded from a snapshot, so snapshots do not grow with history. When a transcript already
 * holds a repeated id (a journal written before ids were checked over the whole history), the first
 * use is the one recorded.
 *
 * <p>Thread-safe and immutable from the outside: versions may be read and extended from any thread.
 * Equality compares the ids each version trusts and the message count (so it costs a pass over the
 * ids; it is meant for tests and diagnostics, not the hot path).
 */
public final class ToolUseIds {
    /** No messages, no ids. Its first extension always starts a fresh map, so it never holds a session's ids. */
    static final ToolUseIds EMPTY = new ToolUseIds(null, 0);

    private static final class Shared {
        final Map<String, Integer> firstUse = new ConcurrentHashMap<>();
        final AtomicInteger claimed;
        volatile Message last; // the message recorded at lastIndex by the latest claim (written after its ids)
        volatile boolean lastWithoutIds; // whether that message had no tool_use
        volatile int lastIndex = -1;

        Shared(int claimed) {
            this.claimed = new AtomicInteger(claimed);
        }
    }

    private final Shared shared;
    private final int messageCount;

    private ToolUseIds(Shared shared, int messageCount) {
        this.shared = shared;
        this.messageCount = messageCount;
    }

    /**
     * The ids of {@code messages}, built in one pass (used when a state is rebuilt from a snapshot).
     *
     * @throws NullPointerException if {@code messages} or one of them is null
     */
    public static ToolUseIds of(List<Message> messages) {
        if (messages.isEmpty()) {
            return EMPTY;
        }
        Shared s = new Shared(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            record(s, messages.get(i), i);
        }
        return new ToolUseIds(s, messages.size());
    }

    /** Whether one of the covered messages holds a tool_use with this id. */
    public boolean contains(String id) {
        return messageIndexOf(id) >= 0;
    }

    /** The index of the first covered message with a tool_use of this id, or -1 when there is none. */
    public int messageIndexOf(String id) {
        if (shared == null) {
            return -1;
        }
        Integer at = shared.firstUse.get(id);
        return at != null && at < messageCount ? at : -1;
    }

    /** How many messages these ids cover (always the size of the transcript they belong to). */
    public int messageCount() {
        return messageCount;
    }

    /**
     * These ids and those of {@code next}, the message at index {@link #messageCount()}. Amortised
     * O(number of its blocks); this version stays as it was.
     */
    ToolUseIds plus(Message next) {
        java.util.Objects.requireNonNull(next, "next");
        Shared target;
        if (shared != null && shared.claimed.compareAndSet(messageCount, messageCount + 1)) {
            target = shared;
        } else if (shared != null && shared.claimed.get() == messageCount + 1 && shared.lastIndex == messageCount
                && (shared.last == next || shared.lastWithoutIds && !hasToolUse(next))) {
            return new ToolUseIds(shared, messageCount + 1); // the same ids at this index: those of one message folded twice
        } else {
            target = new Shared(messageCount + 1);
            if (shared != null) {
                for (Map.Entry<String, Integer> e : shared.firstUse.entrySet()) {
                    if (e.getValue() < messageCount) {
                        target.firstUse.put(e.getKey(), e.getValue());
                    }
                }
            }
        }
        record(target, next, messageCount);
        target.lastIndex = -1;
        target.last = next;
        target.lastWithoutIds = !hasToolUse(next);
        target.lastIndex = messageCount;
        return new ToolUseIds(target, messageCount + 1);
    }

    /** Whether this version and {@code other} share one structure (tests: a fold repeated from one version copies nothing). */
    boolean sharesWith(ToolUseIds other) {
        return shared != null && shared == other.shared;
    }

    private static boolean hasToolUse(Message m) {
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.ToolUse) {
                return true;
            }
        }
        return false;
    }

    private static void record(Shared s, Message m, int index) {
        List<ContentBlock> content = m.content();
        for (int i = 0; i < content.size(); i++) { // plain loop: this runs for every message of every load
            if (content.get(i) instanceof ContentBlock.ToolUse u) {
                s.firstUse.putIfAbsent(u.id(), index);
            }
        }
    }

    private int trustedCount() {
        if (shared == null) {
            return 0;
        }
        int n = 0;
        for (Integer at : shared.firstUse.values()) {
            if (at < messageCount) {
                n++;
            }
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ToolUseIds other) || other.messageCount != messageCount) {
            return false;
        }
        if (shared == other.shared) {
            return true;
        }
        if (trustedCount() != other.trustedCount()) {
            return false;
        }
        if (shared != null) {
            for (Map.Entry<String, Integer> e : shared.firstUse.entrySet()) {
                if (e.getValue() < messageCount && other.messageIndexOf(e.getKey()) != e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(messageCount);
    }

    @Override
    public String toString() {
        return "ToolUseIds[" + trustedCount() + " ids over " + messageCount + " messages]";
    }
}
