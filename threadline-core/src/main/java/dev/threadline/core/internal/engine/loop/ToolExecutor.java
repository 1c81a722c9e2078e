package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.internal.engine.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import dev.threadline.core.internal.engine.live.TurnControl;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.ToolAnswers;
import dev.threadline.core.internal.engine.state.StateManager;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.SimpleExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SharedVariables;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.time.Instant;
import dev.threadline.core.internal.engine.live.Waits;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the skills of one assistant message in parallel, each in its own {@link SimpleExecutionContext}
 * with a deadline, and records each result as soon as it is known (so a crash loses no finished call).
 * Exceptions, timeouts and cancellations become error results the model sees. A skill's variable
 * writes are handed over as proposed; they apply to the variables as they are when its result is
 * recorded (see {@link VariableWrites}), so parallel calls' writes to one variable merge.
 */
public final class ToolExecutor {
    private final StateManager states;
    private final SkillRegistry skills;
    private final SharedVariables shared;
    private final ExecutorService executor;
    private final Waits waits;
    private final dev.threadline.core.internal.engine.state.JournalReader journal;
    private final Tracing tracing;

    /**
     * Skills run on {@code executor}'s threads and see the {@code shared} variables of their user and tenant;
     * their deadlines are read from {@code waits}' clock and kept by its scheduler.
     */
    public ToolExecutor(StateManager states, SkillRegistry skills, SharedVariables shared, ExecutorService executor, Waits waits,
                        Tracing tracing, dev.threadline.core.internal.engine.state.JournalReader journal) {
        this.journal = journal;
        this.tracing = tracing;
        this.states = states;
        this.skills = skills;
        this.shared = shared;
        this.executor = executor;
        this.waits = waits;
    }

    /** Why this call cannot run (unknown or disabled skill, invalid arguments), or null when it can. */
    public String problem(ContentBlock.ToolUse use, SessionConfig config) {
        Optional<Skill> skill = skills.find(use.name());
        if (skill.isEmpty() || !(config.skills().isEmpty() || config.skills().contains(use.name()))) {
            return "unknown tool '" + use.name() + "'; available tools: "
                    + skills.toolSpecs(config.skills()).stream().map(t -> t.name()).toList();
        }
        List<String> problems = skills.validator().validate(skill.get(), use.input());
        return problems.isEmpty() ? null : "invalid arguments for " + use.name() + ": " + String.join("; ", problems);
    }

    /** The journal the skills search (and the recall of a session's context). */
    public dev.threadline.core.internal.engine.state.JournalReader journal() {
        return journal;
    }

    /**
     * How a requested call enters the journal: failed when it cannot run ({@link #problem}), waiting
     * for an answer when its skill is answered by the user, waiting for approval when its skill or the
     * session config requires it, else started.
     */
    public Event admission(ContentBlock.ToolUse use, SessionConfig config) {
        return admission(use, config, null);
    }

    /**
     * {@link #admission(ContentBlock.ToolUse, SessionConfig)} for a command that may replay: a call with a
     * recorded result in {@code answers} starts at once (nothing will run, so nothing waits for a person, it
     * reads as read-only, and its skill need not be registered here); one without a record fails unless live
     * tools may run it (no side effect, no person).
     */
    public Event admission(ContentBlock.ToolUse use, SessionConfig config, ToolAnswers answers) {
        if (answers != null && answers.take(use.id(), use.name(), use.input()).isPresent()) {
            // the original session ran this very call: its result stands, even where the skill is not registered here
            return new Event.ToolCallStarted(use.id(), use.name(), dev.threadline.core.skill.Effect.READ_ONLY);
        }
        String problem = problem(use, config);
        if (problem != null) {
            return new Event.ToolCallFailed(use.id(), problem);
        }
        SkillPolicy policy = skills.find(use.name()).orElseThrow().policy();
        if (answers != null) {
            if (!answers.liveTools() || policy.effect() == dev.threadline.core.skill.Effect.SIDE_EFFECT
                    || policy.answeredByUser() || policy.requiresApproval() || config.requireApproval().contains(use.name())) {
                answers.note(use.id(), ToolAnswers.How.NOT_RUN);
                return new Event.ToolCallFailed(use.id(), "not run in a replay: the original session made no call of " + use.name()
                        + " with these arguments" + (answers.liveTools() ? ", and this skill is not read-only or idempotent without a person"
                        : " (live tools are off)"));
            }
            answers.note(use.id(), ToolAnswers.How.LIVE);
        }
        if (policy.answeredByUser()) {
            JsonNode q = use.input().get("question");
            return new Event.InputRequested(use.id(), q != null && q.isTextual() ? q.asText() : use.input().toString());
        }
        if (policy.requiresApproval() || config.requireApproval().contains(use.name())) {
            return new Event.ApprovalRequested(use.id(), use.name(), use.input());
        }
        return new Event.ToolCallStarted(use.id(), use.name(), policy.effect());
    }

    /** The effect a skill declares (idempotent for one no longer registered). */
    public dev.threadline.core.skill.Effect effectOf(String name) {
        return skills.find(name).map(s -> s.policy().effect()).orElse(dev.threadline.core.skill.Effect.IDEMPOTENT);
    }

    public void runAll(SessionKey key, Cmd cmd, List<ContentBlock.ToolUse> uses, SessionConfig config, TurnControl control) {
        if (uses.isEmpty()) {
            return;
        }
        State state = states.get(key);
        SessionInfo info = states.info(key);
        Map<VariableScope, Map<String, JsonNode>> vars = new EnumMap<>(VariableScope.class);
        vars.put(VariableScope.SESSION, state.variables());
        vars.put(VariableScope.USER, shared.variables(VariableScope.USER, ScopedWrite.userKey(info.tenant(), info.userId())));
        vars.put(VariableScope.APP, shared.variables(VariableScope.APP, ScopedWrite.appKey(info.tenant())));
        vars.put(VariableScope.TEMP, Map.copyOf(control.temp));
        List<Future<?>> supervisors = new ArrayList<>();
        for (ContentBlock.ToolUse use : uses) {
            supervisors.add(executor.submit(tracing.wrap(() -> traced(key, cmd, use, config, control, vars, state))));
        }
        for (Future<?> f : supervisors) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                control.interrupt("the turn's thread was interrupted");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r && (r instanceof dev.threadline.core.error.LeaseLostException
                        || r instanceof dev.threadline.core.error.StorageException)) {
                    throw r; // fencing or the store refused the write: the turn stops here, as it would inline
                }
                throw new IllegalStateException("recording a tool result failed: " + e.getCause().getMessage(), e.getCause());
            }
        }
    }

    /** One call under its {@code execute_tool} span, which ends once its result is recorded. */
    private void traced(SessionKey key, Cmd cmd, ContentBlock.ToolUse use, SessionConfig config,
                        TurnControl control, Map<VariableScope, Map<String, JsonNode>> vars, State state) {
        Span span = tracing.tool(key, use.name(), use.id());
        try (Scope scope = tracing.enter(span)) {
            Event.ToolCallEnded ended = runOne(key, cmd, use, config, control, vars, state);
            switch (ended) {
                case Event.ToolCallCompleted c when c.error() -> Tracing.failed(span, "tool_error");
                case Event.ToolCallCompleted c -> span.setAttribute(Tracing.OUTCOME, "completed");
                case Event.ToolCallTimedOut t -> Tracing.failed(span, "timed_out");
                default -> Tracing.failed(span, "failed");
            }
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private Event.ToolCallEnded runOne(SessionKey key, Cmd cmd, ContentBlock.ToolUse use, SessionConfig config,
                        TurnControl control, Map<VariableScope, Map<String, JsonNode>> vars, State state) {
        Optional<ToolAnswers.Recorded> answered = cmd.answers() == null ? Optional.empty() : cmd.answers().given(use.id());
        if (answered.isPresent()) { // a replay: the original call's result, and nothing runs
            Event.ToolCallEnded recorded = new Event.ToolCallCompleted(use.id(), answered.get().content(), answered.get().error());
            synchronized (control) {
                states.handleToolResult(key, cmd, recorded, List.of(), control.temp);
            }
            return recorded;
        }
        Skill skill = skills.find(use.name()).orElseThrow();
        long timeout = config.toolTimeoutMillis();
        Instant deadline = waits.now().plusMillis(timeout);
        AtomicBoolean timedOut = new AtomicBoolean();
        ExecutionContext ctx = new SearchingContext(new SimpleExecutionContext(key.id(), use.id(), use.input(), vars, state.messages(),
                deadline, () -> timedOut.get() || control.interrupted() || Thread.currentThread().isInterrupted()),
                // before the user message that began this turn: a skill searching "what was said earlier" must not
                // find the question it is answering (which would rank first, being short and on topic)
                (q, n) -> journal.search(key, journal.before(key, e -> e instanceof Event.UserMessageReceived), q, n));
        Future<SkillResult> run = executor.submit(tracing.wrap(() -> skill.execute(ctx)));
        control.track(run);
        ScheduledFuture<?> alarm = waits.after(Duration.ofMillis(timeout), () -> {
            timedOut.set(true); // before the cancel, so the waiting thread sees why it was cancelled
            run.cancel(true);
        });
        Event.ToolCallEnded ended;
        List<VariableWrite> writes = List.of();
        try {
            SkillResult r = run.get();
            CrashPoint.TOOL_AFTER_CALL.reach();
            if (r == null) {
                ended = new Event.ToolCallFailed(use.id(), "the skill returned no result");
            } else {
                ended = new Event.ToolCallCompleted(use.id(), editedNote(state, use) + r.content(), r.isError());
                writes = r.writes();
            }
        } catch (CancellationException e) {
            ended = timedOut.get() && !control.interrupted() ? new Event.ToolCallTimedOut(use.id(), timeout)
                    : new Event.ToolCallFailed(use.id(), "cancelled: " + (control.reason() == null ? "the turn was interrupted" : control.reason()));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String msg = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            ended = new Event.ToolCallFailed(use.id(), use.name() + " failed: " + msg);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.cancel(true);
            ended = new Event.ToolCallFailed(use.id(), "cancelled: the turn was interrupted");
        } finally {
            alarm.cancel(false);
            control.untrack(run);
        }
        synchronized (control) { // one result of a turn at a time, so temp writes build on each other like journalled ones
            states.handleToolResult(key, cmd, ended, writes, control.temp);
        }
        return ended;
    }

    /** For a call run with arguments a person edited at approval: a line telling the model so. */
    private static String editedNote(State state, ContentBlock.ToolUse use) {
        for (int i = state.messages().size() - 1; i >= 0; i--) {
            for (ContentBlock.ToolUse asked : state.messages().get(i).toolUses()) {
                if (asked.id().equals(use.id())) {
                    return asked.input().equals(use.input()) ? ""
                            : "(the user approved this call with edited arguments: " + use.input() + ")\n";
                }
            }
        }
        return "";
    }
}
