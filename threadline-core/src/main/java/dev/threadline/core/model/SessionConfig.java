package dev.threadline.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.threadline.core.Require;
import java.util.List;

/**
 * How a session runs: the model, its system prompt, the skills it may call, the context policy, and
 * the limits of one turn. Fixed when the session is created.
 *
 * @param model            model name as the provider knows it ("scripted" for the offline demo)
 * @param systemPrompt     the system prompt; may be empty, never null
 * @param skills           names of enabled skills; empty means every registered skill
 * @param contextPolicy    name of the context policy ("full" for now)
 * @param maxIterations    model calls allowed in one turn before it stops with a clear reason
 * @param toolTimeoutMillis how long one skill run may take before it is recorded as timed out
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionConfig(String model, String systemPrompt, List<String> skills, String contextPolicy,
                            int maxIterations, long toolTimeoutMillis) {

    public static final SessionConfig DEFAULT = new SessionConfig("scripted", "", List.of(), "full", 16, 30_000);

    public SessionConfig {
        Require.nonBlank(model, "config.model");
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        skills = skills == null ? List.of() : List.copyOf(skills);
        contextPolicy = contextPolicy == null ? "full" : contextPolicy;
        Require.argument(maxIterations >= 1, "config.maxIterations", "must be at least 1, was " + maxIterations);
        Require.argument(toolTimeoutMillis >= 1, "config.toolTimeoutMillis", "must be at least 1 ms, was " + toolTimeoutMillis);
    }

    public SessionConfig withModel(String model) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis);
    }

    public SessionConfig withSystemPrompt(String prompt) {
        return new SessionConfig(model, prompt, skills, contextPolicy, maxIterations, toolTimeoutMillis);
    }

    public SessionConfig withSkills(List<String> skills) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis);
    }

    public SessionConfig withMaxIterations(int maxIterations) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, toolTimeoutMillis);
    }

    public SessionConfig withToolTimeoutMillis(long millis) {
        return new SessionConfig(model, systemPrompt, skills, contextPolicy, maxIterations, millis);
    }
}
