package dev.threadline.core.runtime;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.Require;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fork and rewind of one session: a new session that shares the source's journal up to a checkpoint,
 * checked before anything is written (a valid checkpoint, a valid model view, side effects after it
 * acknowledged), idempotent by the caller's command id recorded on the source. Thread-safe.
 */
final class Branches {
    private final Engine engine;
    private final SessionKey key;

    Branches(Engine engine, SessionKey key) {
        this.engine = engine;
        this.key = key;
    }

    /**
     * Creates the branch after checking it: the state it starts from must be a valid checkpoint and a
     * valid model view, so a refused branch leaves nothing behind. Idempotent by the caller's command
     * id, recorded on this (the source) session with the branch's id.
     */
    Session branch(long seq, String newId, String reason, String infix, CommandOptions options) {
        if (newId != null) {
            SessionInfo.checkId(newId, "newId");
        }
        Cmd probe = Cmd.of(options, reason, seq + "|" + (newId == null ? "" : newId));
        if (probe.hasCallerId()) {
            Optional<CommandRecord> seen = engine.store().command(key, probe.id());
            if (seen.isPresent()) {
                return open(CommandGate.checked(key, seen.get(), probe).result());
            }
        }
        SessionInfo source = engine.states().info(key);
        long head = engine.store().head(key);
        if (seq < 1 || seq > head || Checkpoints.page(key, engine.store(), PageRequest.after(seq - 1, 1)).items().stream()
                .noneMatch(c -> c.seq() == seq)) {
            throw new InvalidInputException("seq", seq + " is not a checkpoint of session '" + key.id() + "' (its journal has seq 1.."
                    + head + "; checkpoints lists them)");
        }
        List<SideEffect> effects = SideEffects.after(engine.store(), key, seq);
        if (!effects.isEmpty() && (options == null || !options.acknowledgeEffects())) {
            throw new dev.threadline.core.UndoneEffectsException(key.id(), seq, reason, effects.stream().map(SideEffect::describe).toList());
        }
        State at = engine.states().stateAt(key, seq);
        List<Event> events = new ArrayList<>();
        events.add(new Event.BranchCreated(key.id(), seq, effects.isEmpty() ? reason : reason + " (acknowledged " + effects.size()
                + " side effect(s) it cannot undo: " + String.join("; ", effects.stream().map(SideEffect::describe).toList()) + ")"));
        events.addAll(AgentLoop.closingEvents(at, TurnResult.Outcome.INTERRUPTED,
                "this " + reason + " starts from a checkpoint taken while the call was running"));
        for (int n = 1; ; n++) {
            String id = newId != null ? newId : key.id() + infix + n;
            if (newId == null && engine.store().session(key.sibling(id)).isPresent()) {
                continue;
            }
            SessionInfo info = source.asBranch(id, seq, engine.clock().instant());
            Cmd cmd = probe.withResult(id).recordOn(key, seq);
            try {
                engine.states().create(info, CheckpointSource.FORK, cmd, events, created -> {
                    TranscriptValidator.check(created.messages(), TranscriptValidator.Mode.CHECKPOINT);
                    Require.argument(created.pending().isEmpty(), "seq", "the branch at seq " + seq + " still has pending tool calls");
                    engine.loop().context(info.config()).checkView(created, info.config());
                });
                return new SessionHandle(engine, key.sibling(id));
            } catch (SessionExistsException e) {
                if (newId != null) {
                    throw e;
                } // another caller took this generated id first: try the next
            } catch (dev.threadline.core.DuplicateCommandException d) {
                return open(CommandGate.checked(key, d.existing(), probe).result());
            }
        }
    }

    private Session open(String id) {
        SessionKey k = key.sibling(id);
        engine.store().session(k).orElseThrow(() -> new SessionNotFoundException(id));
        return new SessionHandle(engine, k);
    }

}
