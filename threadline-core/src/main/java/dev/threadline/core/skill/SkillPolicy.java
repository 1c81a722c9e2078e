package dev.threadline.core.skill;

import dev.threadline.core.error.Require;

/**
 * How the runtime treats calls of a skill, declared by the skill ({@link Skill#policy()}). Immutable.
 *
 * @param requiresApproval every call waits for a person's approval before it runs (a session config
 *                         can require it for more tools, never less)
 * @param answeredByUser   the call is a question to the user: it never runs; the turn suspends and the
 *                         user's answer becomes its result (the built-in {@code ask_user})
 * @param effect           what a call does outside the session; the default, {@link Effect#IDEMPOTENT},
 *                         asks for no acknowledgement on rewind: a skill with real, unrepeatable effects
 *                         must declare {@link Effect#SIDE_EFFECT}
 */
public record SkillPolicy(boolean requiresApproval, boolean answeredByUser, Effect effect) {
    /** Runs as soon as the model asks. */
    public static final SkillPolicy DEFAULT = new SkillPolicy(false, false, Effect.IDEMPOTENT);
    /** Waits for approval before each call. */
    public static final SkillPolicy REQUIRES_APPROVAL = new SkillPolicy(true, false, Effect.IDEMPOTENT);
    /** Answered by the user instead of run. */
    public static final SkillPolicy ANSWERED_BY_USER = new SkillPolicy(false, true, Effect.READ_ONLY);

    /** @throws dev.threadline.core.error.InvalidInputException when {@code effect} is null */
    public SkillPolicy {
        Require.nonNull(effect, "effect");
    }

    /** A policy without an effect declaration (idempotent). */
    public SkillPolicy(boolean requiresApproval, boolean answeredByUser) {
        this(requiresApproval, answeredByUser, Effect.IDEMPOTENT);
    }

    /** A copy declaring {@code effect}. */
    public SkillPolicy withEffect(Effect effect) {
        return new SkillPolicy(requiresApproval, answeredByUser, effect);
    }
}
