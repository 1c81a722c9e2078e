package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool the model can call. A skill is stateless: one instance serves every session at once, it
 * reads state only through its {@link ExecutionContext} and proposes variable writes in its
 * {@link SkillResult}; it never holds per-session data in fields.
 *
 * <p>Arguments are validated against {@link #inputSchema()} before {@link #execute} runs; a skill may
 * throw to fail the call, and should return promptly once {@link ExecutionContext#isCancelled()}.
 */
public interface Skill {

    /** The name the model calls it by: {@code [a-zA-Z0-9_-]{1,64}}. */
    String name();

    /** What it does, for the model. */
    String description();

    /** JSON Schema (draft 2020-12) of the arguments object. */
    JsonNode inputSchema();

    /**
     * Runs the skill. Exceptions become an error result the model sees.
     *
     * @throws Exception any failure: it becomes an error result the model sees, never a crash of the turn
     */
    SkillResult execute(ExecutionContext context) throws Exception;

    /**
     * How the runtime treats its calls: by default they run as soon as the model asks. Must return
     * the same value every time (it is read on every call, in every process).
     */
    default SkillPolicy policy() {
        return SkillPolicy.DEFAULT;
    }
}
