package dev.threadline.core.runtime;

import dev.threadline.core.EngineAccess;

import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.CommandGate;
import dev.threadline.core.internal.engine.SessionHandle;
import dev.threadline.core.Threadline;
import dev.threadline.core.internal.engine.state.ToolResultOutcome;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import java.util.List;

/** Test access to a runtime's engine: steps written the way the runtime writes them, inside a command holding the lease. */
final class Engines {
    private Engines() {}

    static SessionKey key(String id) {
        return new SessionKey(SessionInfo.DEFAULT_TENANT, id);
    }

    /** Runs {@code body} as one command of session {@code id} (mailbox, lease, take-over) of the default tenant. */
    static <T> T inCommand(Threadline tl, String id, CommandGate.Body<T> body) {
        return EngineAccess.gate(tl).call(key(id), Cmd.internal(), body, first -> {
            throw new AssertionError("an internal command is never replayed");
        });
    }

    /** One step decided by {@code decider}, recorded with {@code source}. */
    static Commit update(Threadline tl, String id, CheckpointSource source, Decider decider) {
        return inCommand(tl, id, c -> EngineAccess.states(tl).update(key(id), source, c, decider));
    }

    /** One raw step on a session handle, as {@code Session.update} did before it left the public API. */
    static Commit update(Session s, Decider decider) {
        return dev.threadline.core.testkit.RawSteps.update(s, decider);
    }

    /** Hands a tool result to the state manager, as the tool executor does. */
    static ToolResultOutcome result(Threadline tl, String id, Event.ToolCallEnded result) {
        return inCommand(tl, id, c -> EngineAccess.states(tl).handleToolResult(key(id), c, result, List.of()));
    }

    /** Drops a session from the runtime's cache. */
    static void evict(Threadline tl, String id) {
        EngineAccess.states(tl).evict(key(id));
    }

    static Event user(String text) {
        return new Event.UserMessageReceived(dev.threadline.core.model.Message.user(text));
    }

    static CheckpointSource loop() {
        return CheckpointSource.LOOP;
    }
}
