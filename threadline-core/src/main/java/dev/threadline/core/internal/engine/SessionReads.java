package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.runtime.ContextReport;
import dev.threadline.core.runtime.PageRequest;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SharedVariables;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The reads of sessions: their description, current state, variables and context, and their past (the
 * journal across the lineage, checkpoints, states at a seq, the side-effect ledger). Every read is pure:
 * it changes nothing, in this process or the store. Thread-safe (stateless over its parts).
 */
public final class SessionReads {
    private final StateManager states;
    private final JournalReader reads;
    private final SharedVariables shared;
    private final AgentLoop loop;

    public SessionReads(StateManager states, JournalReader reads, SharedVariables shared, AgentLoop loop) {
        this.states = states;
        this.reads = reads;
        this.shared = shared;
        this.loop = loop;
    }

    SessionInfo info(SessionKey key) {
        return reads.info(key);
    }

    boolean exists(SessionKey key) {
        return reads.exists(key);
    }

    State state(SessionKey key) {
        return states.get(key);
    }

    List<PendingApproval> pendingApprovals(SessionKey key) {
        return state(key).awaiting().stream().map(PendingApproval::of).toList();
    }

    /** The variables of one scope as the session sees them (its own, its user's, its tenant's app ones). */
    Map<String, JsonNode> variables(SessionKey key, VariableScope scope) {
        Require.nonNull(scope, "scope");
        if (scope == VariableScope.SESSION) {
            return state(key).variables();
        }
        if (scope == VariableScope.TEMP) {
            return Map.of();
        }
        SessionInfo info = info(key);
        return scope == VariableScope.USER ? userVariables(info.tenant(), info.userId()) : appVariables(info.tenant());
    }

    Map<String, JsonNode> appVariables(String tenant) {
        return shared.variables(VariableScope.APP, ScopedWrite.appKey(tenant));
    }

    Map<String, JsonNode> userVariables(String tenant, String userId) {
        return shared.variables(VariableScope.USER, ScopedWrite.userKey(tenant, userId));
    }

    ContextReport context(SessionKey key) {
        return loop.context(states.config(key)).report(key);
    }

    List<Checkpoint> checkpoints(SessionKey key) {
        return Checkpoints.of(key.id(), reads.read(key, reads.firstSeq(key), reads.head(key))); // the kept ones, after a prune
    }

    Page<Checkpoint> checkpoints(SessionKey key, PageRequest page) {
        return Checkpoints.page(key, reads, Require.nonNull(page, "page"));
    }

    State stateAt(SessionKey key, long seq) {
        return states.stateAt(key, seq);
    }

    List<StoredEvent> journal(SessionKey key) {
        return reads.read(key, reads.firstSeq(key), reads.head(key)); // the kept ones, after a prune (as checkpoints)
    }

    List<dev.threadline.core.model.SearchHit> search(SessionKey key, String query, int limit) {
        dev.threadline.core.store.SearchText.terms(query, limit); // refused before the session is read
        return reads.search(key, reads.head(key), query, limit);
    }

    List<StoredEvent> events(SessionKey key, long afterSeq, int limit) {
        Require.argument(afterSeq >= 0, "after", "must not be negative, was " + afterSeq);
        Require.argument(limit >= 1 && limit <= 1000, "limit", "must be between 1 and 1000, was " + limit);
        long head = reads.head(key);
        return reads.read(key, afterSeq + 1, Math.min(head, afterSeq + limit));
    }

    List<StoredEvent> awaitEvents(SessionKey key, long afterSeq, Duration timeout) {
        Require.nonNull(timeout, "timeout");
        try {
            long head = reads.awaitHead(key, afterSeq, timeout);
            return head > afterSeq ? events(key, afterSeq, 1000) : List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for events of session '" + key.id() + "'", e);
        }
    }

    List<SideEffect> sideEffectsAfter(SessionKey key, long seq) {
        Require.argument(seq >= 0, "seq", "must not be negative, was " + seq);
        return SideEffects.after(reads, key, seq);
    }
}
