package dev.threadline.core.skill;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a skill's call does outside the session's own journalled state, declared in its
 * {@link SkillPolicy}. Recorded with each call's start, so the journal knows which calls changed the
 * world: rewinding or forking to before a {@link #SIDE_EFFECT} call is refused unless the caller
 * acknowledges that the effect stays. Immutable.
 */
public enum Effect {
    /** No effect outside the session (reads, computations, writes only through proposed variable writes). */
    READ_ONLY,
    /** May change things outside, but running it again with the same arguments changes nothing more. */
    IDEMPOTENT,
    /** Changes things outside that a rewind cannot undo (a payment, an email, a deletion). */
    SIDE_EFFECT;

    /** The stored form: {@code read_only}, {@code idempotent}, {@code side_effect}. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
