package dev.threadline.store.tck;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builders of sessions and stored events for store tests. Every time is derived from {@link #T0}
 * (never the wall clock), so fixtures are equal from run to run. Stateless: its fixtures are immutable values.
 */
public final class StoreFixtures {
    /** The instant every fixture time is derived from (with nanoseconds, to catch truncation). */
    public static final Instant T0 = Instant.parse("2025-01-15T10:00:00.123456789Z");

    private StoreFixtures() {}

    /** Root session {@code id} of the default tenant and user {@code local}, created at {@link #T0}. */
    public static SessionInfo root(String id) {
        return root(id, SessionInfo.DEFAULT_TENANT, "local");
    }

    /** Root session {@code id} of {@code tenant} and {@code userId}, created at {@link #T0}. */
    public static SessionInfo root(String id, String tenant, String userId) {
        return new SessionInfo(id, tenant, userId, SessionConfig.DEFAULT, Map.of(), T0, null, null, 0);
    }

    /** A branch of {@code parent} sharing its journal up to {@code atSeq}. */
    public static SessionInfo branch(SessionInfo parent, String id, long atSeq) {
        return parent.asBranch(id, atSeq, T0.plusSeconds(1));
    }

    /** The first event of a root session (seq 1) or of a branch (seq parentSeq + 1). */
    public static StoredEvent first(SessionInfo info) {
        Event e = info.isBranch()
                ? new Event.BranchCreated(info.parentId(), info.parentSeq(), "fork")
                : new Event.SessionCreated(info);
        return at(info.id(), info.parentSeq() + 1, info.isBranch() ? CheckpointSource.FORK : CheckpointSource.INPUT, e);
    }

    /** A user message event at {@code seq} of session {@code sessionId}. */
    public static StoredEvent user(String sessionId, long seq, String text) {
        return at(sessionId, seq, CheckpointSource.INPUT, new Event.UserMessageReceived(Message.user(text)));
    }

    /** An assistant text event at {@code seq} of session {@code sessionId}. */
    public static StoredEvent assistant(String sessionId, long seq, String text) {
        return at(sessionId, seq, CheckpointSource.LOOP, new Event.AssistantMessageReceived(Message.assistantText(text)));
    }

    /** A non-transcript event (a turn boundary). */
    public static StoredEvent turnCompleted(String sessionId, long seq) {
        return at(sessionId, seq, CheckpointSource.LOOP, new Event.TurnCompleted("end_turn"));
    }

    /** An event at {@code seq}, its own step, written {@code seq} milliseconds after {@link #T0}. */
    public static StoredEvent at(String sessionId, long seq, CheckpointSource source, Event event) {
        return new StoredEvent(sessionId, seq, seq, T0.plusMillis(seq), "cmd-" + sessionId + "-" + seq, source, event);
    }

    /** {@code count} events from {@code fromSeq}: user and assistant messages in turn. */
    public static List<StoredEvent> messages(String sessionId, long fromSeq, int count) {
        List<StoredEvent> out = new ArrayList<>(count);
        for (long seq = fromSeq; seq < fromSeq + count; seq++) {
            out.add((seq - fromSeq) % 2 == 0
                    ? user(sessionId, seq, "question " + seq + " of " + sessionId)
                    : assistant(sessionId, seq, "answer " + seq + " of " + sessionId));
        }
        return out;
    }

    /** Puts {@code name = json} in a user's shared variables. */
    public static ScopedWrite setUserVar(String tenant, String userId, String name, String json) {
        return new ScopedWrite(VariableScope.USER, ScopedWrite.userKey(tenant, userId), Map.of(name, parse(json)), List.of());
    }

    /** Puts {@code name = json} in a tenant's app variables. */
    public static ScopedWrite setAppVar(String tenant, String name, String json) {
        return new ScopedWrite(VariableScope.APP, ScopedWrite.appKey(tenant), Map.of(name, parse(json)), List.of());
    }

    /** {@code json} as a tree (fixtures' own JSON, never malformed). */
    public static JsonNode parse(String json) {
        return Json.parse(json, "fixture");
    }
}
