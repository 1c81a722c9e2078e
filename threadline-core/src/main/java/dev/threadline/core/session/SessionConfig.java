package dev.threadline.core.session;

import dev.threadline.core.state.Budget;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.threadline.core.error.Require;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.context.ContextRecall;
import java.util.List;

/**
 * How a session runs: the model, its system prompt, the skills it may call, the context policy, and
 * the limits of one turn. Fixed when the session is created, except the model and its base URL: a
 * {@code StateEdited} step with an {@code Edit.SetModel} changes them from then on ({@code
 * SessionConfig.withModelChange(state.modelChange())} is the config a session runs with now).
 *
 * @param model             model name as the provider knows it ("scripted" for the offline demo)
 * @param systemPrompt      the system prompt; may be empty, never null
 * @param skills            names of enabled skills; empty means every registered skill
 * @param contextPolicy     what part of the transcript the model sees (default: auto-compact at 90% of the window)
 * @param maxIterations     model calls allowed in one turn before it stops with a clear reason
 * @param toolTimeoutMillis how long one skill run may take before it is recorded as timed out
 * @param maxOutputTokens   the output limit of each model call ({@code max_tokens}); the context
 *                          policies keep this much of the window free for the reply
 * @param turnTokenBudget   tokens one turn may spend over all its model calls (input and output,
 *                          summaries included) before it stops with a clear reason; 0 for no budget
 * @param requireApproval   names of tools whose calls wait for a person's approval before they run
 *                          (besides skills whose own policy requires it); empty for none. Absent
 *                          from configs stored before humans in the loop: read as empty
 * @param doubleTexting     what a new message does while a turn runs (default {@link DoubleTexting#ENQUEUE};
 *                          absent from older stored configs: read as the default)
 * @param baseUrl           the API root of the model's server (e.g. {@code http://127.0.0.1:11434/v1} for a local
 *                          OpenAI-compatible server), kept with the session so every process reaches the same
 *                          endpoint; null for the resolver's default. An http(s) URL with a host; absent from older
 *                          stored configs: read as null
 * @param recall            the recall of older messages into the model's view ({@link ContextRecall}, ADR 0042), or
 *                          null when it is off (the default; absent from older stored configs: read as off)
 * @param budget            what the whole session may spend ({@link Budget}) until it is set again
 *                          ({@code Session.setBudget}); null for no limit (the default; absent from older stored configs)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionConfig(String model, String systemPrompt, List<String> skills, ContextPolicy contextPolicy,
                            int maxIterations, long toolTimeoutMillis, int maxOutputTokens, long turnTokenBudget,
                            List<String> requireApproval, DoubleTexting doubleTexting, String baseUrl, ContextRecall recall,
                            Budget budget) {

    /** The output token limit of a model call unless a session sets its own. */
    public static final int DEFAULT_MAX_OUTPUT_TOKENS = 4096;
    /**
     * The config of a session that sets nothing: model {@code scripted}, no system prompt, every skill, auto-compact,
     * 16 model calls a turn, 30 s per tool call.
     */
    public static final SessionConfig DEFAULT = new SessionConfig("scripted", "", List.of(), ContextPolicy.autoCompact(),
            16, 30_000, DEFAULT_MAX_OUTPUT_TOKENS, 0);

    @com.fasterxml.jackson.annotation.JsonCreator
    public SessionConfig {
        Require.nonBlank(model, "config.model");
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        skills = skills == null ? List.of() : List.copyOf(skills);
        contextPolicy = contextPolicy == null ? ContextPolicy.autoCompact() : contextPolicy;
        Require.argument(maxIterations >= 1, "config.maxIterations", "must be at least 1, was " + maxIterations);
        Require.argument(toolTimeoutMillis >= 1, "config.toolTimeoutMillis", "must be at least 1 ms, was " + toolTimeoutMillis);
        Require.argument(maxOutputTokens >= 1, "config.maxOutputTokens", "must be at least 1, was " + maxOutputTokens);
        Require.argument(turnTokenBudget >= 0, "config.turnTokenBudget", "must be 0 (no budget) or more, was " + turnTokenBudget);
        requireApproval = requireApproval == null ? List.of() : List.copyOf(requireApproval);
        for (String name : requireApproval) {
            Require.nonBlank(name, "config.requireApproval");
        }
        doubleTexting = doubleTexting == null ? DoubleTexting.ENQUEUE : doubleTexting;
        baseUrl = Require.httpUrl(baseUrl, "config.baseUrl");
    }

    /** The shape before session budgets: no limit. */
    public SessionConfig(String model, String systemPrompt, List<String> skills, ContextPolicy contextPolicy,
                         int maxIterations, long toolTimeoutMillis, int maxOutputTokens, long turnTokenBudget,
                         List<String> requireApproval, DoubleTexting doubleTexting, String baseUrl, ContextRecall recall) {
        this(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, null);
    }

    /** This config with session budget {@code budget} (null or {@link Budget#NONE}: no limit). */
    public SessionConfig withBudget(Budget budget) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens,
                turnTokenBudget, requireApproval, doubleTexting, baseUrl, recall, Budget.NONE.equals(budget) ? null : budget);
    }

    /** The shape before recall (ADR 0042): recall off. */
    public SessionConfig(String model, String systemPrompt, List<String> skills, ContextPolicy contextPolicy,
                         int maxIterations, long toolTimeoutMillis, int maxOutputTokens, long turnTokenBudget,
                         List<String> requireApproval, DoubleTexting doubleTexting, String baseUrl) {
        this(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, null);
    }

    /** The shape before the base URL was kept with the session: none (the resolver's default). */
    public SessionConfig(String model, String systemPrompt, List<String> skills, ContextPolicy contextPolicy,
                         int maxIterations, long toolTimeoutMillis, int maxOutputTokens, long turnTokenBudget,
                         List<String> requireApproval, DoubleTexting doubleTexting) {
        this(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, null);
    }


    /** The shape of schema version 2 before humans in the loop: no tool needs approval, second messages queue. */
    public SessionConfig(String model, String systemPrompt, List<String> skills, ContextPolicy contextPolicy,
                         int maxIterations, long toolTimeoutMillis, int maxOutputTokens, long turnTokenBudget) {
        this(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                List.of(), DoubleTexting.ENQUEUE);
    }

    /** The shape of schema version 1: a policy given by its text form, default output limit, no token budget. */
    public SessionConfig(String model, String systemPrompt, List<String> skills, String contextPolicy, int maxIterations,
                         long toolTimeoutMillis) {
        this(model, systemPrompt, skills, contextPolicy == null ? null : ContextPolicy.parse(contextPolicy), maxIterations,
                toolTimeoutMillis, DEFAULT_MAX_OUTPUT_TOKENS, 0);
    }

    /**
     * This config with model spec {@code model} (see {@code ModelResolver}) at API root {@code baseUrl} (null: the
     * resolver's default).
     */
    public SessionConfig withModel(String model, String baseUrl) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /**
     * This config with the model and base URL {@code change} sets (a session's latest model edit), or this
     * config when {@code change} is null: the config a session runs with now.
     */
    public SessionConfig withModelChange(dev.threadline.core.state.Edit.SetModel change) {
        return change == null ? this : withModel(change.model(), change.baseUrl());
    }

    /** This config with model spec {@code model} (see {@code ModelResolver}) and the same base URL. */
    public SessionConfig withModel(String model) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with system prompt {@code prompt}. */
    public SessionConfig withSystemPrompt(String prompt) {
        return new SessionConfig(model, prompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with only the named skills enabled (empty: every skill of the runtime). */
    public SessionConfig withSkills(List<String> skills) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with context policy {@code policy}. */
    public SessionConfig withContextPolicy(ContextPolicy policy) {
        return new SessionConfig(model, systemPrompt, skills, Require.nonNull(policy, "contextPolicy"), maxIterations,
                toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with at most {@code maxIterations} model calls a turn. */
    public SessionConfig withMaxIterations(int maxIterations) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with a deadline of {@code millis} per tool call. */
    public SessionConfig withToolTimeoutMillis(long millis) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, millis, maxOutputTokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with an output token limit of {@code tokens} per model call. */
    public SessionConfig withMaxOutputTokens(int tokens) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, tokens, turnTokenBudget,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** This config with a budget of {@code tokens} per turn (0: no budget). */
    public SessionConfig withTurnTokenBudget(long tokens) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens, tokens,
                requireApproval, doubleTexting, baseUrl, recall, budget);
    }

    /** A copy in which calls of these tools wait for approval. */
    public SessionConfig withRequireApproval(List<String> toolNames) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens,
                turnTokenBudget, toolNames, doubleTexting, baseUrl, recall);
    }

    /** A copy with this double-texting strategy. */
    public SessionConfig withDoubleTexting(DoubleTexting strategy) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens,
                turnTokenBudget, requireApproval, Require.nonNull(strategy, "doubleTexting"), baseUrl, recall);
    }

    /**
     * This config with recall on: before each model call the {@code k} messages older than the view that best
     * match the turn's latest user message are placed after the summary, within {@code tokenBudget} tokens
     * ({@link ContextRecall}).
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code k} or the budget is out of range
     */
    public SessionConfig withRecall(int k, int tokenBudget) {
        return withRecall(new ContextRecall(k, tokenBudget));
    }

    /** This config with this recall setting (null: recall off). */
    public SessionConfig withRecall(ContextRecall setting) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis, maxOutputTokens,
                turnTokenBudget, requireApproval, doubleTexting, baseUrl, setting, budget);
    }
}
