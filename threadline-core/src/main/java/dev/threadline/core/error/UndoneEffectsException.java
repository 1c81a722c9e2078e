package dev.threadline.core.error;

import java.util.List;

/**
 * A rewind or fork to a checkpoint before calls with side effects was refused: going back would not
 * undo them (a payment stays paid). Nothing was written. Repeat it acknowledging the effects
 * ({@code CommandOptions.acknowledgingEffects()}) to branch anyway.
 */
public final class UndoneEffectsException extends ThreadlineException {
    private final String sessionId;
    private final long seq;
    private final List<String> effects;

    /**
     * A refusal to {@code action} (rewind or fork) session {@code sessionId} to {@code seq} past {@code effects}.
     *
     * @param effects one line per side effect, oldest first (e.g. {@code pay (p1) at seq 7: ok: paid 7})
     */
    public UndoneEffectsException(String sessionId, long seq, String action, List<String> effects) {
        super(action + " of session '" + sessionId + "' to seq " + seq + " cannot undo " + effects.size() + " side effect(s): "
                + String.join("; ", effects) + ". Acknowledge them (CommandOptions.acknowledgingEffects()) to branch anyway");
        this.sessionId = sessionId;
        this.seq = seq;
        this.effects = List.copyOf(effects);
    }

    /** The session that was not branched. */
    public String sessionId() {
        return sessionId;
    }

    /** The checkpoint asked for. */
    public long seq() {
        return seq;
    }

    /** The effects that would stay, one line each, oldest first. */
    public List<String> effects() {
        return effects;
    }
}
