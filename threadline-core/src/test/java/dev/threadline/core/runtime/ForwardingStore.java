package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A store that hands every call to another; tests override the calls they observe or disturb. */
class ForwardingStore implements StateStore {
    private final StateStore inner;

    ForwardingStore(StateStore inner) {
        this.inner = inner;
    }

    @Override public void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command) { inner.create(info, firstEvents, command); }
    @Override public Optional<SessionInfo> session(SessionKey key) { return inner.session(key); }
    @Override public Page<SessionSummary> list(SessionQuery query) { return inner.list(query); }
    @Override public List<String> branches(SessionKey key) { return inner.branches(key); }
    @Override public void delete(SessionKey key) { inner.delete(key); }
    @Override public List<SessionKey> expired(java.time.Instant now, int limit) { return inner.expired(now, limit); }
    @Override public long append(AppendRequest request) { return inner.append(request); }
    @Override public long head(SessionKey key) { return inner.head(key); }
    @Override public List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) { return inner.readOwn(key, fromSeq, toSeq); }
    @Override public long awaitHead(SessionKey key, long afterSeq, Duration timeout) throws InterruptedException { return inner.awaitHead(key, afterSeq, timeout); }
    @Override public void saveSnapshot(SessionKey key, StateSnapshot snapshot) { inner.saveSnapshot(key, snapshot); }
    @Override public Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) { return inner.latestSnapshot(key, maxSeq); }
    @Override public Map<String, JsonNode> variables(VariableScope scope, String key) { return inner.variables(scope, key); }
    @Override public LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) { return inner.acquire(key, owner, ttl, deadHolder); }
    @Override public Lease renew(Lease lease, Duration ttl) { return inner.renew(lease, ttl); }
    @Override public void release(Lease lease) { inner.release(lease); }
    @Override public Optional<Lease> lease(SessionKey key) { return inner.lease(key); }
    @Override public Optional<CommandRecord> command(SessionKey key, String commandId) { return inner.command(key, commandId); }
    @Override public String durability() { return inner.durability(); }
    @Override public void close() { inner.close(); }
}
