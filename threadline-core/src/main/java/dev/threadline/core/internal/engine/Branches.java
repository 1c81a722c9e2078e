package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import java.time.Clock;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.PageRequest;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
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
public final class Branches {
    private final StateManager states;
    private final AgentLoop loop;
    private final JournalReader reads;
    private final CommandGate gate;
    private final Tracing tracing;
    private final Clock clock;

    public Branches(StateManager states, AgentLoop loop, JournalReader reads, CommandGate gate, Clock clock, Tracing tracing) {
        this.tracing = tracing;
        this.states = states;
        this.loop = loop;
        this.reads = reads;
        this.gate = gate;
        this.clock = clock;
    }

    /**
     * Creates the branch after checking it: the state it starts from must be a valid checkpoint and a
     * valid model view, so a refused branch leaves nothing behind. Idempotent by the caller's command
     * id, recorded on this (the source) session with the branch's id.
     */
    public SessionKey branch(SessionKey key, long seq, String newId, String reason, String infix, CommandOptions options) {
        Span span = tracing.start("threadline." + reason, key); // threadline.fork, threadline.rewind, threadline.rollback
        span.setAttribute(Tracing.SEQ, seq);
        try (Scope scope = tracing.enter(span)) {
            SessionKey branch = create(key, seq, newId, reason, infix, options);
            span.setAttribute("threadline.branch.id", branch.id());
            return branch;
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private SessionKey create(SessionKey key, long seq, String newId, String reason, String infix, CommandOptions options) {
        if (newId != null) {
            SessionInfo.checkId(newId, "newId");
        }
        Cmd probe = Cmd.of(options, reason, seq + "|" + (newId == null ? "" : newId));
        Optional<CommandRecord> seen = gate.seen(key, probe);
        if (seen.isPresent()) {
            return existing(key, seen.get().result());
        }
        SessionInfo source = states.info(key);
        long head = reads.head(key);
        if (seq >= 1) {
            reads.base(key).filter(b -> seq <= b.seq()).ifPresent(b -> { // a pruned checkpoint (ADR 0045)
                throw b.pruned(key.id(), seq);
            });
        }
        if (seq < 1 || seq > head || Checkpoints.page(key, reads, PageRequest.after(seq - 1, 1)).items().stream()
                .noneMatch(c -> c.seq() == seq)) {
            throw new InvalidInputException("seq", seq + " is not a checkpoint of session '" + key.id() + "' (its journal has seq 1.."
                    + head + "; checkpoints lists them)");
        }
        List<SideEffect> effects = SideEffects.after(reads, key, seq);
        if (!effects.isEmpty() && !options.acknowledgesEffects()) {
            throw new dev.threadline.core.error.UndoneEffectsException(key.id(), seq, reason, effects.stream().map(SideEffect::describe).toList());
        }
        State at = states.stateAt(key, seq);
        List<Event> events = new ArrayList<>();
        events.add(new Event.BranchCreated(key.id(), seq, effects.isEmpty() ? reason : reason + " (acknowledged " + effects.size()
                + " side effect(s) it cannot undo: " + String.join("; ", effects.stream().map(SideEffect::describe).toList()) + ")"));
        events.addAll(AgentLoop.closingEvents(at, TurnResult.Outcome.INTERRUPTED,
                "this " + reason + " starts from a checkpoint taken while the call was running"));
        for (int n = 1; ; n++) {
            String id = newId != null ? newId : key.id() + infix + n;
            if (newId == null && reads.exists(key.sibling(id))) {
                continue;
            }
            SessionInfo info = source.asBranch(id, seq, clock.instant());
            Cmd cmd = probe.withResult(id).recordOn(key, seq);
            try {
                states.create(info, CheckpointSource.FORK, cmd, events, created -> {
                    TranscriptValidator.check(created.messages(), TranscriptValidator.Mode.CHECKPOINT);
                    Require.argument(created.pending().isEmpty(), "seq", "the branch at seq " + seq + " still has pending tool calls");
                    SessionConfig config = info.config().withModelChange(created.modelChange()); // a model edit before seq applies
                    loop.context(config).checkView(created, config);
                });
                return key.sibling(id);
            } catch (SessionExistsException e) {
                if (newId != null) {
                    throw e;
                } // another caller took this generated id first: try the next
            } catch (dev.threadline.core.store.DuplicateCommandException d) {
                return existing(key, CommandGate.checked(key, d.existing(), probe).result());
            }
        }
    }

    /** The branch a repeated command made first. */
    private SessionKey existing(SessionKey key, String id) {
        SessionKey k = key.sibling(id);
        if (!reads.exists(k)) {
            throw new SessionNotFoundException(id);
        }
        return k;
    }

}
