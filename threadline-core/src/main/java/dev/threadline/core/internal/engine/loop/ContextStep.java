package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.internal.engine.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.runtime.CompactionResult;
import dev.threadline.core.runtime.ContextReport;
import dev.threadline.core.context.CompactionPlan;
import dev.threadline.core.context.ContextLimits;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.context.ContextView;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.Usage;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.SessionKey;
import java.util.List;
import java.util.Optional;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * The context part of a model call: take the session's policy's view, compact first when the
 * auto-compact policy says it is due (a model call for the summary, then a {@code ContextCompacted}
 * step), measure the request, and refuse one that cannot fit the model's window instead of sending it.
 */
public final class ContextStep {
    private static final Logger LOG = Logs.get(ContextStep.class);
    /** Below this share of the input budget the local count is close enough; above it the provider counts, where it can. */
    private static final double ASK_PROVIDER_ABOVE = 0.5;

    private final StateManager states;
    private final ChatModel model;
    private final SkillRegistry skills;
    private final TokenCounter local;
    private final TokenCounter counter;
    private final Tracing tracing;
    private final RecallStep recall;
    private final dev.threadline.core.llm.PriceTable prices;

    public ContextStep(StateManager states, ChatModel model, SkillRegistry skills, TokenCounter local, Tracing tracing,
                       dev.threadline.core.internal.engine.state.JournalReader journal, dev.threadline.core.llm.PriceTable prices) {
        this.prices = prices;
        this.tracing = tracing;
        this.recall = new RecallStep(journal);
        this.states = states;
        this.model = model;
        this.skills = skills;
        this.local = local;
        this.counter = TokenCounter.of(model, local);
    }

    /** The next request, or why none can be sent; {@code spent} is what compaction cost on the way. */
    public sealed interface Prepared {
        Usage spent();

        record Send(ChatRequest request, ContextView view, TokenCounter.Measure measure, Usage spent) implements Prepared {
        }

        record Overflow(String reason, Usage spent) implements Prepared {
        }
    }

    /** The model this step prepares requests for. */
    public ChatModel model() {
        return model;
    }

    public ContextLimits limits(SessionConfig config) {
        List<dev.threadline.core.llm.ToolSpec> tools = skills.toolSpecs(config.skills());
        Fixed known = fixed;
        if (known == null || !known.system().equals(config.systemPrompt() == null ? "" : config.systemPrompt())
                || !known.tools().equals(tools)) {
            known = new Fixed(config.systemPrompt() == null ? "" : config.systemPrompt(), tools,
                    counter.count(config.systemPrompt(), tools, List.of()));
            fixed = known;
        }
        return new ContextLimits(model.contextWindowTokens(), config.maxOutputTokens(), known.tokens(), counter)
                .withRecall(config.recall());
    }

    /** The tokens of the latest system prompt and tools asked for: counted again only when they change (they rarely do). */
    private record Fixed(String system, List<dev.threadline.core.llm.ToolSpec> tools, long tokens) {
    }

    /** The latest {@link Fixed}; read and replaced whole, from any session's thread. */
    private volatile Fixed fixed;

    public Prepared prepare(SessionKey sessionId, Cmd commandId, SessionConfig config) {
        ContextLimits limits = limits(config);
        if (!limits.usable()) {
            return new Prepared.Overflow(noRoom(config, limits), Usage.ZERO);
        }
        State state = states.get(sessionId);
        Prepared.Send send = measure(state, config, limits, false);
        Usage spent = Usage.ZERO;
        Optional<CompactionPlan> plan = CompactionPlan.due(state, limits, config.contextPolicy(), send.measure().tokens());
        if (plan.isPresent()) {
            try {
                spent = compact(sessionId, commandId, CheckpointSource.LOOP, plan.get(), limits, config, null);
                send = measure(states.get(sessionId), config, limits, false);
            } catch (ModelException e) {
                if (send.measure().tokens() > limits.inputBudget()) {
                    throw e;
                }
                LOG.warn("session {}: compaction failed ({}); sending the uncompacted context, which still fits", sessionId, e.getMessage());
            }
        }
        if (config.recall() != null) {
            send = recall(sessionId, commandId, config, limits, send);
        }
        if (send.measure().tokens() > limits.inputBudget()) {
            return new Prepared.Overflow("context_overflow: the request holds " + send.measure().tokens() + " tokens ("
                    + send.measure().counter() + "), more than the " + limits.inputBudget() + " that model " + model.name()
                    + "'s window of " + limits.windowTokens() + " leaves for input beside a reply of up to " + config.maxOutputTokens()
                    + (send.view().warning() == null ? "" : "; " + send.view().warning())
                    + ". Nothing was sent. /compact or /clear the context, or start a session with a smaller maxOutputTokens", spent);
        }
        if (send.view().warning() != null) {
            LOG.warn("session {}: {}", sessionId, send.view().warning());
        }
        return new Prepared.Send(send.request(), send.view(), send.measure(), spent);
    }

    /**
     * Chooses what the next model call recalls (ADR 0042) and journals the choice when it differs from the
     * state's, as its own step ({@code ContextRecalled}), so a reload folds the same view; returns the request then.
     */
    private Prepared.Send recall(SessionKey sessionId, Cmd commandId, SessionConfig config, ContextLimits limits, Prepared.Send send) {
        State state = states.get(sessionId);
        List<dev.threadline.core.state.RecalledMessage> chosen = recall.choose(sessionId, state, config.recall(), send.view(),
                limits.counter());
        if (chosen.equals(state.recalled())) {
            return send;
        }
        states.update(sessionId, CheckpointSource.LOOP, commandId, st -> List.of(new Event.ContextRecalled(chosen)));
        LOG.debug("session {}: recalled {} earlier messages into the context", sessionId, chosen.size());
        return measure(states.get(sessionId), config, limits, false);
    }

    /** The view of {@code state} as a request, validated and measured ({@code exact}: always ask the provider). */
    public Prepared.Send measure(State state, SessionConfig config, ContextLimits limits, boolean exact) {
        ContextPolicy policy = config.contextPolicy();
        ContextView view = policy.view(state, limits);
        if (state.pending().isEmpty()) {
            TranscriptValidator.check(view.messages(), TranscriptValidator.Mode.MODEL_VIEW);
        }
        ChatRequest request = new ChatRequest(config.model(), config.systemPrompt(), view.messages(),
                skills.toolSpecs(config.skills()), config.maxOutputTokens());
        boolean ask = exact || view.tokens() >= ASK_PROVIDER_ABOVE * limits.inputBudget();
        TokenCounter.Measure m = ask ? counter.measure(request) : new TokenCounter.Measure(view.tokens(), false, local.name());
        return new Prepared.Send(request, view, m, Usage.ZERO);
    }

    /** Throws {@code InvalidInputException} when the view the next model call would send for {@code state} is not valid. */
    public void checkView(State state, SessionConfig config) {
        measure(state, config, limits(config), false);
    }

    /** Summarises what {@code plan} covers with the model and records it as one step; returns the call's usage. */
    public Usage compact(SessionKey sessionId, Cmd commandId, CheckpointSource source, CompactionPlan plan, ContextLimits limits,
                  SessionConfig config, String focus) {
        int maxTokens = CompactionPlan.summaryMaxTokens(limits);
        ChatRequest request = SummaryPrompt.request(config.model(), plan.previousSummary(), plan.messages(), focus, maxTokens,
                limits.windowTokens() - maxTokens, counter);
        Span span = tracing.start("threadline.compaction", sessionId);
        span.setAttribute(Tracing.EVENTS, (long) plan.messages().size());
        try (Scope scope = tracing.enter(span)) {
            ChatResponse response = summarise(sessionId, request);
            String summary = SummaryPrompt.summaryOf(response);
            Usage usage = prices.priced(config.model(), response.usage());
            CrashPoint.COMPACTION_BEFORE_APPEND.reach();
            states.update(sessionId, source, commandId, st -> List.of(new Event.ContextCompacted(summary, plan.boundary(), usage)));
            LOG.debug("session {}: compacted {} messages into a summary of {} characters", sessionId, plan.messages().size(), summary.length());
            return usage;
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    /** The summary's model call, as a {@code chat} span. */
    private ChatResponse summarise(SessionKey sessionId, ChatRequest request) {
        Span span = tracing.chat(sessionId, model, request);
        try (Scope scope = tracing.enter(span)) {
            ChatResponse response = model.complete(request);
            Tracing.answered(span, response);
            return response;
        } catch (RuntimeException e) {
            Tracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    /** On demand: summarise the whole context (between turns) as an {@code edit} step. */
    public CompactionResult compactNow(SessionKey sessionId, Cmd cmd, String focus) {
        SessionConfig config = states.config(sessionId);
        ContextLimits limits = limits(config);
        State state = states.get(sessionId);
        long before = measure(state, config, limits, false).measure().tokens();
        Optional<CompactionPlan> plan = CompactionPlan.all(state, limits);
        if (plan.isEmpty()) {
            return new CompactionResult(false, 0, before, before, Usage.ZERO);
        }
        Usage usage = compact(sessionId, cmd, CheckpointSource.EDIT, plan.get(), limits, config, focus);
        long after = measure(states.get(sessionId), config, limits, false).measure().tokens();
        return new CompactionResult(true, plan.get().messages().size(), before, after, usage);
    }

    /** The context as the next model call would see it, counted by the provider where it offers a count. */
    public ContextReport report(SessionKey sessionId) {
        SessionConfig config = states.config(sessionId);
        ContextLimits limits = limits(config);
        Prepared.Send s = measure(states.get(sessionId), config, limits, true);
        return new ContextReport(config.contextPolicy(), s.view().messages().size(), s.view().omitted(), s.measure().tokens(),
                s.measure().exact(), s.measure().counter(), limits.windowTokens(), config.maxOutputTokens(), s.view().budget(),
                s.view().warning());
    }

    public static String noRoom(SessionConfig config, ContextLimits limits) {
        return "context_overflow: the reply limit maxOutputTokens=" + config.maxOutputTokens() + " leaves no room for input in the"
                + " model's window of " + limits.windowTokens() + " tokens (the system prompt and tools alone take "
                + limits.fixedTokens() + "); start a session with a smaller maxOutputTokens";
    }
}
