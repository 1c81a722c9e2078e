// Over 400 lines on purpose: the derived index, its Cut and its View share private arrays that must stay
// in one class for the write-once/read-without-lock reasoning (see the class comment) to hold in one place.
package dev.threadline.core.state;

import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The transcript as a model is shown it, worked out once per message and shared by every version of
 * a session's state: each message in the form sent (blank text blocks dropped, an assistant message
 * with nothing to say left out), where the turns begin, running token totals per counter, and what
 * {@link TranscriptValidator} would find wrong around each message. A context policy's view is then a
 * range of it, measured and validated in O(log n) however long the session is, instead of a walk over
 * the whole transcript at every model call (issue 39).
 *
 * <p><b>Design.</b> Like {@link ToolUseIds}, it hangs off the transcript's shared backing array
 * ({@link AppendOnlyList}): versions that share the array share it, and it grows lazily, under its own
 * lock, up to the longest version asked for. A slot of the array is written once, so what is derived
 * for index {@code i} holds for every version that has an index {@code i}; a version reads only the
 * messages below its own size. A transcript rebuilt from the journal, a fork or an edit gets a new
 * array and so a new instance, rebuilt once on first use. Nothing here is stored.
 *
 * <p>Thread-safe: every method may be called from any thread; a {@link Cut} and a {@link View} are
 * immutable.
 */
public final class ModelTranscript {
    private static final int MAX_COUNTERS = 4;

    private Message[] kept = new Message[16];
    private int[] keptIndex = new int[16];
    private int keptSize;
    /** Transcript messages folded in so far. */
    private int covered;
    /** Positions in {@link #kept} of user messages, ascending. */
    private int[] users = new int[8];
    private int userCount;
    /** bad[p + 1] - bad[p] = 1 when kept[p] is empty, holds blank text, or breaks the tool pairing with kept[p - 1]. */
    private int[] bad = new int[17];
    /** Each repeated tool_use id as {position, earlier position that used it} (the same position for a repeat within one message). */
    private final List<int[]> repeats = new ArrayList<>(0);
    /** The latest kept position of each id seen repeated. */
    private Map<String, Integer> repeatedAt;
    /** The latest message made by {@link Cut#derived}: its source, key, the message and its tokens. */
    private Object derivedSource;
    private Object derivedKey;
    private Counted derived;
    /** Running token totals of {@link #kept}, one per counter asked. */
    private final List<Tally> tallies = new ArrayList<>(1);

    /** The running token totals by one counter: prefix[p] = tokens of kept[0 .. p). */
    private static final class Tally {
        final Object key;
        long[] prefix = new long[17];
        int size;

        Tally(Object key) {
            this.key = key;
        }
    }

    ModelTranscript() {
    }

    /**
     * The model's form of {@code state}'s transcript, with token totals by {@code counter} (its identity
     * {@code key}: counts by one key must not change).
     *
     * @throws NullPointerException if an argument is null
     */
    public static Cut of(State state, Object key, ToLongFunction<Message> counter) {
        return state.transcript().modelTranscript().cut(state.messages(), state.toolUseIds(), key, counter);
    }

    /** The message as a model is sent it: without blank text blocks; null for an assistant message left with nothing to say. */
    public static Message sanitize(Message m) {
        if (m.role() == Role.TOOL) {
            return m;
        }
        boolean blank = false;
        for (ContentBlock b : m.content()) {
            blank |= b instanceof ContentBlock.Text t && t.text().isBlank();
        }
        if (!blank) {
            return m.content().isEmpty() && m.role() == Role.ASSISTANT ? null : m;
        }
        List<ContentBlock> left = m.content().stream().filter(b -> !(b instanceof ContentBlock.Text t && t.text().isBlank())).toList();
        if (left.isEmpty()) {
            return m.role() == Role.ASSISTANT ? null : m;
        }
        return new Message(m.role(), left, m.stopReason(), m.usage());
    }

    /** {@code messages} itself when it is a {@link View} (immutable already), else an immutable copy. */
    public static List<Message> frozen(List<Message> messages) {
        return messages instanceof View ? messages : List.copyOf(messages);
    }

    private synchronized Cut cut(List<Message> messages, ToolUseIds ids, Object key, ToLongFunction<Message> counter) {
        int n = messages.size();
        for (int i = covered; i < n; i++) {
            fold(messages.get(i), i, ids);
        }
        covered = Math.max(covered, n);
        int end = lowerBound(keptIndex, keptSize, n);
        Tally t = tally(key, counter, end);
        return new Cut(this, kept, keptIndex, end, users, lowerBound(users, userCount, end), t.prefix, key, bad);
    }

    private void fold(Message raw, int index, ToolUseIds ids) {
        Message m = sanitize(raw);
        if (m == null) {
            return;
        }
        int p = keptSize;
        if (p == kept.length) {
            kept = Arrays.copyOf(kept, p * 2);
            keptIndex = Arrays.copyOf(keptIndex, p * 2);
        }
        if (p + 2 > bad.length) {
            bad = Arrays.copyOf(bad, bad.length * 2);
        }
        kept[p] = m;
        keptIndex[p] = index;
        boolean wrong = emptyOrBlank(m) || p > 0 && breaksPairing(kept[p - 1], m);
        bad[p + 1] = bad[p] + (wrong ? 1 : 0);
        if (m.role() == Role.USER) {
            if (userCount == users.length) {
                users = Arrays.copyOf(users, userCount * 2);
            }
            users[userCount++] = p;
        }
        noteRepeats(m, index, p, ids);
        keptSize = p + 1;
    }

    private void noteRepeats(Message m, int index, int p, ToolUseIds ids) {
        List<ContentBlock.ToolUse> uses = hasToolUse(m) ? m.toolUses() : List.of(); // a tool message's too, as the validator counts them
        Set<String> here = uses.size() > 1 ? new HashSet<>() : null;
        for (ContentBlock.ToolUse u : uses) {
            Integer before = repeatedAt == null ? null : repeatedAt.get(u.id());
            int first = ids.messageIndexOf(u.id());
            if (here != null && !here.add(u.id())) {
                repeats.add(new int[] {p, p});
            } else if (before != null) {
                repeats.add(new int[] {p, before});
            } else if (first >= 0 && first != index) {
                repeats.add(new int[] {p, lowerBound(keptIndex, p, first)});
            } else {
                continue;
            }
            if (repeatedAt == null) {
                repeatedAt = new HashMap<>();
            }
            repeatedAt.put(u.id(), p);
        }
    }

    private Tally tally(Object key, ToLongFunction<Message> counter, int end) {
        Tally t = null;
        for (Tally x : tallies) {
            if (x.key == key) {
                t = x;
            }
        }
        if (t == null) {
            if (tallies.size() == MAX_COUNTERS) {
                tallies.remove(0);
            }
            t = new Tally(key);
            tallies.add(t);
        }
        if (t.size < end) {
            if (t.prefix.length < end + 1) {
                t.prefix = Arrays.copyOf(t.prefix, Math.max(end + 1, t.prefix.length * 2));
            }
            for (int p = t.size; p < end; p++) {
                t.prefix[p + 1] = t.prefix[p] + counter.applyAsLong(kept[p]);
            }
            t.size = end;
        }
        return t;
    }

    /** Providers refuse a message without content and a text block of whitespace only. */
    static boolean emptyOrBlank(Message m) {
        if (m.content().isEmpty()) {
            return true;
        }
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.Text t && t.text().isBlank()) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code next} following {@code prev} breaks invariant 3 (as {@link TranscriptValidator} reads it). */
    static boolean breaksPairing(Message prev, Message next) {
        boolean prevUses = prev.role() != Role.TOOL && hasToolUse(prev);
        if (next.role() == Role.TOOL && !(prev.role() == Role.ASSISTANT && prevUses)) {
            return true;
        }
        if (!prevUses) {
            return false;
        }
        if (next.role() != Role.TOOL) {
            return true;
        }
        List<ContentBlock.ToolUse> uses = prev.toolUses();
        List<ContentBlock.ToolResult> results = next.toolResults();
        if (uses.size() != results.size()) {
            return true;
        }
        for (int i = 0; i < uses.size(); i++) {
            if (!uses.get(i).id().equals(results.get(i).toolUseId())) {
                return true;
            }
        }
        return false;
    }

    static boolean hasToolUse(Message m) {
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.ToolUse) {
                return true;
            }
        }
        return false;
    }

    /** The first position below {@code size} whose value is at least {@code value} ({@code size} when none). */
    static int lowerBound(int[] a, int size, int value) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private synchronized boolean repeatsWithin(int from, int to) {
        for (int[] r : repeats) {
            if (r[0] < to && r[1] >= from) {
                return true;
            }
        }
        return false;
    }

    private synchronized long[] prefix(Object key, ToLongFunction<Message> counter, int end) {
        return tally(key, counter, end).prefix;
    }

    private synchronized Counted derived(Object source, Object key, Supplier<Message> make, ToLongFunction<Message> counter) {
        if (derived == null || derivedSource != source || derivedKey != key) {
            Message m = make.get();
            derived = new Counted(m, counter.applyAsLong(m));
            derivedSource = source;
            derivedKey = key;
        }
        return derived;
    }

    /**
     * A message and its tokens.
     *
     * @param message the message
     * @param tokens  its tokens by the counter asked
     */
    public record Counted(Message message, long tokens) {
    }

    /**
     * One state's transcript in the model's form: the kept messages {@code 0 .. end()} (positions), each
     * with its transcript index and running token total by the counter it was cut with. Immutable.
     */
    public static final class Cut {
        private final ModelTranscript owner;
        private final Message[] kept;
        private final int[] keptIndex;
        private final int end;
        private final int[] users;
        private final int userEnd;
        private final long[] prefix;
        private final Object key;
        private final int[] bad;

        Cut(ModelTranscript owner, Message[] kept, int[] keptIndex, int end, int[] users, int userEnd, long[] prefix, Object key,
            int[] bad) {
            this.bad = bad;
            this.owner = owner;
            this.kept = kept;
            this.keptIndex = keptIndex;
            this.end = end;
            this.users = users;
            this.userEnd = userEnd;
            this.prefix = prefix;
            this.key = key;
        }

        /** How many messages the model's form holds. */
        public int end() {
            return end;
        }

        /** The position of the first kept message at transcript index {@code index} or later. */
        public int positionOf(int index) {
            return lowerBound(keptIndex, end, index);
        }

        /** The kept message at {@code position}. */
        public Message message(int position) {
            return kept[position];
        }

        /** The transcript index of the kept message at {@code position}. */
        public int transcriptIndex(int position) {
            return keptIndex[position];
        }

        /** Tokens of the kept messages {@code from .. end()}. */
        public long tokensFrom(int from) {
            return prefix[end] - prefix[from];
        }

        /** How many user messages sit at positions {@code from .. end()}. */
        public int usersFrom(int from) {
            return userEnd - lowerBound(users, userEnd, from);
        }

        /** The position of the {@code k}-th user message at {@code from} or later. */
        public int userAt(int from, int k) {
            return users[lowerBound(users, userEnd, from) + k];
        }

        /**
         * The message the runtime makes from {@code source} (a compaction, for its summary) and its tokens by
         * this cut's counter: made and counted once while {@code source} stays the latest one asked for.
         */
        public Counted derived(Object source, Supplier<Message> make, ToLongFunction<Message> counter) {
            return owner.derived(source, key, make, counter);
        }

        /** The view {@code head} (a few messages of the runtime's own, user text) then the kept messages {@code from .. end()}. */
        public View view(List<Message> head, int from) {
            return new View(this, head.toArray(Message[]::new), from);
        }
    }

    /**
     * A model view: a few messages of the runtime's own, then a range of the kept transcript, shared, not
     * copied. Immutable; {@link TranscriptValidator} checks one in O(log n) and a local token counter measures
     * one in O(1).
     */
    public static final class View extends AbstractList<Message> implements RandomAccess {
        private final Cut cut;
        private final Message[] head;
        private final int from;

        View(Cut cut, Message[] head, int from) {
            this.cut = cut;
            this.head = head;
            this.from = from;
        }

        @Override
        public Message get(int i) {
            if (i < 0 || i >= size()) {
                throw new IndexOutOfBoundsException("index " + i + ", size " + size());
            }
            return i < head.length ? head[i] : cut.kept[from + i - head.length];
        }

        @Override
        public int size() {
            return head.length + cut.end - from;
        }

        /**
         * Tokens of the view by {@code counter}: the head counted, the rest from the running totals kept for
         * {@code key} (made on first use).
         */
        public long tokens(Object key, ToLongFunction<Message> counter) {
            long n = 0;
            for (Message m : head) {
                n += counter.applyAsLong(m);
            }
            long[] p = key == cut.key ? cut.prefix : cut.owner.prefix(key, counter, cut.end);
            return n + p[cut.end] - p[from];
        }

        /** Whether {@link TranscriptValidator} finds nothing wrong with this view as a model view. */
        boolean validModelView() {
            for (Message h : head) {
                if (h.role() != Role.USER || emptyOrBlank(h) || hasToolUse(h)) {
                    return TranscriptValidator.violations(this, TranscriptValidator.Mode.MODEL_VIEW).isEmpty();
                }
            }
            int end = cut.end;
            if (from >= end) {
                return true;
            }
            if (head.length == 0) {
                int p = from;
                while (p < end && cut.kept[p].role() == Role.SYSTEM) {
                    p++;
                }
                if (p < end && cut.kept[p].role() != Role.USER) {
                    return false;
                }
            }
            Message first = cut.kept[from];
            Message last = cut.kept[end - 1];
            int[] bad = cut.bad;
            return first.role() != Role.TOOL && !emptyOrBlank(first) && bad[end] - bad[from + 1] == 0
                    && (last.role() == Role.TOOL || !hasToolUse(last)) && !cut.owner.repeatsWithin(from, end);
        }
    }
}
