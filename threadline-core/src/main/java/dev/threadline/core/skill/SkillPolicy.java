package dev.threadline.core.skill;

/**
 * How the runtime treats calls of a skill, declared by the skill ({@link Skill#policy()}). Immutable.
 *
 * @param requiresApproval every call waits for a person's approval before it runs (a session config
 *                         can require it for more tools, never less)
 * @param answeredByUser   the call is a question to the user: it never runs; the turn suspends and the
 *                         user's answer becomes its result (the built-in {@code ask_user})
 */
public record SkillPolicy(boolean requiresApproval, boolean answeredByUser) {
    /** Runs as soon as the model asks. */
    public static final SkillPolicy DEFAULT = new SkillPolicy(false, false);
    /** Waits for approval before each call. */
    public static final SkillPolicy REQUIRES_APPROVAL = new SkillPolicy(true, false);
    /** Answered by the user instead of run. */
    public static final SkillPolicy ANSWERED_BY_USER = new SkillPolicy(false, true);
}
