package dev.threadline.core.internal.engine;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Copies one tenant's sessions (or one session with its ancestors and branches) from one store to
 * another through the store SPI, so any two backends work: a first pass reads every session's events to
 * find each shared variable's last write ({@link SharedWrites}); then each session, parents first, up to
 * the head it had in that pass, goes through a {@link SessionWriter} (which makes a rerun resume and
 * compares each journal at the end). The source is only read. Used by one thread at a time (one instance per copy).
 */
public final class StoreCopy {
    private final StateStore from;
    private final StateStore to;
    private final Consumer<CopyReport.Copied> progress;
    private final Clock clock;

    /**
     * A copy from {@code from} to {@code to} that tells {@code progress} of each session once it is copied
     * and times the renewals of the destination's leases on {@code clock}.
     */
    public StoreCopy(StateStore from, StateStore to, Consumer<CopyReport.Copied> progress, Clock clock) {
        this.from = from;
        this.to = to;
        this.progress = progress;
        this.clock = clock;
    }

    /**
     * Copies the tenant's sessions, or, when {@code sessionId} is not null, that session with its ancestors
     * and its branches.
     *
     * @throws SessionNotFoundException when {@code sessionId} is not a session of the tenant in the source
     * @throws dev.threadline.core.error.ThreadlineException when a destination session differs from the source's, naming it
     */
    public CopyReport copy(String tenant, String sessionId) {
        List<SessionInfo> sessions = sessions(from, tenant, sessionId);
        List<SessionSource> sources = new ArrayList<>();
        SharedWrites shared = new SharedWrites();
        for (SessionInfo info : sessions) { // a first pass finds each shared variable's last write
            SessionSource s = SessionSource.of(from, info);
            for (long lo = s.start() + 1; lo <= s.head(); lo += SessionWriter.CHUNK) { // a pruned one's after its base
                s.readOwn(lo, Math.min(s.head(), lo + SessionWriter.CHUNK - 1)).forEach(e -> shared.see(info, e));
            }
            sources.add(s);
        }
        SessionWriter writer = new SessionWriter(to, shared, clock);
        for (SessionSource s : sources) {
            progress.accept(writer.write(s));
        }
        return writer.report(tenant);
    }

    /**
     * The tenant's sessions of {@code store} (or session {@code sessionId}, its ancestors and its branches),
     * every one after its parent, in id order otherwise.
     *
     * @throws SessionNotFoundException when {@code sessionId} is not a session of the tenant
     */
    static List<SessionInfo> sessions(StateStore store, String tenant, String sessionId) {
        Map<String, SessionInfo> found = sessionId == null ? all(store, tenant) : family(store, new SessionKey(tenant, sessionId));
        List<SessionInfo> out = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        for (String id : new TreeSet<>(found.keySet())) {
            place(store, tenant, id, found, placed, out);
        }
        return out;
    }

    private static Map<String, SessionInfo> all(StateStore store, String tenant) {
        Map<String, SessionInfo> out = new LinkedHashMap<>();
        Page<SessionSummary> page = store.list(SessionQuery.tenant(tenant));
        while (true) {
            page.items().forEach(s -> out.put(s.info().id(), s.info()));
            if (!page.hasNext()) {
                return out;
            }
            page = store.list(SessionQuery.tenant(tenant).at(page.nextCursor()));
        }
    }

    /** The session, its ancestors (added by {@link #place}) and every branch below it. */
    private static Map<String, SessionInfo> family(StateStore store, SessionKey key) {
        Map<String, SessionInfo> out = new LinkedHashMap<>();
        List<SessionKey> todo = new ArrayList<>(List.of(key));
        while (!todo.isEmpty()) {
            SessionKey k = todo.removeLast();
            out.put(k.id(), store.session(k).orElseThrow(() -> new SessionNotFoundException(k.id())));
            store.branches(k).forEach(b -> todo.add(k.sibling(b)));
        }
        return out;
    }

    private static void place(StateStore store, String tenant, String id, Map<String, SessionInfo> found, Set<String> placed,
                              List<SessionInfo> out) {
        if (!placed.add(id)) {
            return;
        }
        SessionInfo info = found.get(id);
        if (info == null) {
            info = store.session(new SessionKey(tenant, id)).orElseThrow(() -> new SessionNotFoundException(id));
        }
        if (info.parentId() != null) {
            place(store, tenant, info.parentId(), found, placed, out);
        }
        out.add(info);
    }
}
