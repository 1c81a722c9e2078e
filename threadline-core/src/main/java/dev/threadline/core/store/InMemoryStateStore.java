package dev.threadline.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.InvalidInputException;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A store in process memory: fast, and gone when the process ends. For tests, demos and sessions that
 * need no durability. Thread-safe by one lock: every operation is short.
 */
public final class InMemoryStateStore implements StateStore {

    private static final class Row {
        final SessionInfo info;
        final List<StoredEvent> own = new ArrayList<>();
        final TreeMap<Long, StateSnapshot> snapshots = new TreeMap<>();
        long head;
        Instant updatedAt;

        Row(SessionInfo info, long head, Instant updatedAt) {
            this.info = info;
            this.head = head;
            this.updatedAt = updatedAt;
        }
    }

    private final Map<String, Row> sessions = new HashMap<>();
    private final Map<String, Map<String, JsonNode>> shared = new HashMap<>();
    private final Clock clock;

    public InMemoryStateStore() {
        this(Clock.systemUTC());
    }

    public InMemoryStateStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void create(SessionInfo info, List<StoredEvent> firstEvents) {
        if (sessions.containsKey(info.id())) {
            throw new SessionExistsException(info.id());
        }
        long base = 0;
        if (info.parentId() != null) {
            Row parent = row(info.parentId());
            StoreChecks.branchPoint(info, parent.head);
            base = info.parentSeq();
        }
        StoreChecks.batch(info.id(), base, firstEvents);
        Row r = new Row(info, base, clock.instant());
        r.own.addAll(firstEvents);
        r.head = base + firstEvents.size();
        sessions.put(info.id(), r);
    }

    @Override
    public synchronized long append(String sessionId, long expectedSeq, List<StoredEvent> events, List<ScopedWrite> writes) {
        Row r = row(sessionId);
        if (r.head != expectedSeq) {
            throw new VersionConflictException(sessionId, expectedSeq, r.head);
        }
        StoreChecks.batch(sessionId, expectedSeq, events);
        r.own.addAll(events);
        r.head = expectedSeq + events.size();
        r.updatedAt = clock.instant();
        for (ScopedWrite w : writes) {
            Map<String, JsonNode> vars = shared.computeIfAbsent(w.scope().wireName() + ":" + w.key(), k -> new HashMap<>());
            w.removed().forEach(vars::remove);
            vars.putAll(w.set());
        }
        return r.head;
    }

    @Override
    public synchronized long head(String sessionId) {
        return row(sessionId).head;
    }

    @Override
    public synchronized List<StoredEvent> readOwn(String sessionId, long fromSeq, long toSeq) {
        Row r = row(sessionId);
        return r.own.stream().filter(e -> e.seq() >= fromSeq && e.seq() <= toSeq).toList();
    }

    @Override
    public synchronized Optional<SessionInfo> session(String sessionId) {
        Row r = sessions.get(sessionId);
        return r == null ? Optional.empty() : Optional.of(r.info);
    }

    @Override
    public synchronized List<SessionSummary> list(SessionQuery query) {
        return sessions.values().stream()
                .filter(r -> r.info.tenant().equals(query.tenant()))
                .filter(r -> query.userId() == null || r.info.userId().equals(query.userId()))
                .sorted(Comparator.comparing((Row r) -> r.updatedAt).reversed().thenComparing(r -> r.info.id()))
                .limit(query.limit())
                .map(r -> new SessionSummary(r.info, r.head, r.updatedAt))
                .toList();
    }

    @Override
    public synchronized List<String> branches(String sessionId) {
        row(sessionId);
        return sessions.values().stream().filter(r -> sessionId.equals(r.info.parentId()))
                .map(r -> r.info.id()).sorted().toList();
    }

    @Override
    public synchronized void saveSnapshot(String sessionId, StateSnapshot snapshot) {
        row(sessionId).snapshots.put(snapshot.seq(), snapshot);
    }

    @Override
    public synchronized Optional<StateSnapshot> latestSnapshot(String sessionId, long maxSeq) {
        Map.Entry<Long, StateSnapshot> e = row(sessionId).snapshots.floorEntry(maxSeq);
        return e == null ? Optional.empty() : Optional.of(e.getValue());
    }

    @Override
    public synchronized Map<String, JsonNode> variables(VariableScope scope, String key) {
        return Map.copyOf(shared.getOrDefault(scope.wireName() + ":" + key, Map.of()));
    }

    @Override
    public synchronized void delete(String sessionId) {
        row(sessionId);
        List<String> children = branches(sessionId);
        if (!children.isEmpty()) {
            throw new InvalidInputException("session", "'" + sessionId + "' has branches " + children + " that share its"
                    + " journal; delete them first");
        }
        sessions.remove(sessionId);
    }

    @Override
    public String durability() {
        return "in-memory: nothing survives the process";
    }

    @Override
    public void close() {
    }

    private Row row(String sessionId) {
        Row r = sessions.get(sessionId);
        if (r == null) {
            throw new SessionNotFoundException(sessionId);
        }
        return r;
    }
}
