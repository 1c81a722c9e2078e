package dev.threadline.core.runtime;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.Require;
import dev.threadline.core.ThreadlineException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.Checkpoint;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.Lineage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The {@link Session} implementation: a session id bound to a runtime. */
final class SessionHandle implements Session {
    private final Threadline runtime;
    private final String id;

    SessionHandle(Threadline runtime, String id) {
        this.runtime = runtime;
        this.id = id;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public SessionInfo info() {
        return runtime.states().info(id);
    }

    @Override
    public TurnResult submit(String text) {
        requireText(text);
        return inOrder(() -> runtime.loop().turn(id, text));
    }

    @Override
    public CompletableFuture<TurnResult> submitAsync(String text) {
        requireText(text);
        return runtime.runner().submit(id, () -> runtime.loop().turn(id, text));
    }

    private static void requireText(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidInputException("text", "a message must not be blank");
        }
    }

    /** Runs a command in the session's order, on this thread when the session is idle. */
    private <T> T inOrder(java.util.concurrent.Callable<T> command) {
        try {
            return runtime.runner().call(id, command);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for the session's command", e);
        } catch (Exception e) {
            throw new ThreadlineException(e.getMessage(), e);
        }
    }

    @Override
    public Commit update(Decider decider) {
        return inOrder(() -> runtime.states().update(id, CheckpointSource.EDIT, StateManager.newCommandId(), decider));
    }

    @Override
    public boolean interrupt() {
        return runtime.loop().interrupt(id, "interrupted by the user");
    }

    @Override
    public void clear() {
        update(s -> List.of(new Event.Cleared()));
    }

    @Override
    public CompactionResult compact() {
        return compact(null);
    }

    @Override
    public CompactionResult compact(String focus) {
        return inOrder(() -> runtime.loop().context().compactNow(id, focus));
    }

    @Override
    public ContextReport context() {
        return runtime.loop().context().report(id);
    }

    @Override
    public State state() {
        return runtime.states().get(id);
    }

    @Override
    public List<Checkpoint> checkpoints() {
        return Checkpoints.of(id, journal());
    }

    @Override
    public State stateAt(long seq) {
        return runtime.states().stateAt(id, seq);
    }

    @Override
    public List<StoredEvent> journal() {
        return Lineage.read(runtime.states().store(), id, 1, runtime.states().store().head(id));
    }

    @Override
    public Session fork(long seq, String newId) {
        return branch(seq, newId, "fork");
    }

    @Override
    public Session fork(long seq) {
        return branch(seq, freeId(".f"), "fork");
    }

    @Override
    public Session rewind(long seq) {
        return branch(seq, freeId(".r"), "rewind");
    }

    private Session branch(long seq, String newId, String reason) {
        SessionInfo.checkId(newId, "newId");
        List<Checkpoint> cps = checkpoints();
        if (cps.stream().noneMatch(c -> c.seq() == seq)) {
            throw new InvalidInputException("seq", seq + " is not a checkpoint of session '" + id + "'; checkpoints are at seq "
                    + cps.stream().map(Checkpoint::seq).toList());
        }
        State at = runtime.states().stateAt(id, seq);
        List<Event> events = new ArrayList<>();
        events.add(new Event.BranchCreated(id, seq, reason));
        events.addAll(AgentLoop.closingEvents(at, TurnResult.Outcome.INTERRUPTED,
                "this " + reason + " starts from a checkpoint taken while the call was running"));
        SessionInfo info = info().asBranch(newId, seq, runtime.states().clock().instant());
        State created = runtime.states().create(info, CheckpointSource.FORK, events).state();
        TranscriptValidator.check(created.messages(), TranscriptValidator.Mode.CHECKPOINT);
        Require.argument(created.pending().isEmpty(), "seq", "the branch at seq " + seq + " still has pending tool calls");
        runtime.loop().context().checkView(created, info.config());
        return new SessionHandle(runtime, newId);
    }

    private String freeId(String infix) {
        for (int n = 1; ; n++) {
            String candidate = id + infix + n;
            if (runtime.states().store().session(candidate).isEmpty()) {
                return candidate;
            }
        }
    }

    static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ThreadlineException("interrupted while waiting for the session's command", e);
        } catch (ExecutionException | CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new ThreadlineException(c.getMessage(), c);
        }
    }

    @Override
    public String toString() {
        return "Session[" + id + "]";
    }
}
