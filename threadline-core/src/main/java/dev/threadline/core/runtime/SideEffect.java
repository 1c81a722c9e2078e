package dev.threadline.core.runtime;

/**
 * A call of a {@code side_effect} skill that the journal records as started: an effect on the world
 * that rewinding or forking to before it cannot undo. Immutable.
 *
 * @param toolUseId the call
 * @param name      its tool
 * @param seq       where its start is journalled
 * @param outcome   its recorded result ("ok: …", "error: …"), or "no result recorded" (e.g. still waiting
 *                  or cut off by a crash: it may or may not have taken effect)
 */
public record SideEffect(String toolUseId, String name, long seq, String outcome) {

    /** One line for a person: {@code pay (toolu_1) at seq 7: ok: paid 7}. */
    public String describe() {
        return name + " (" + toolUseId + ") at seq " + seq + ": " + outcome;
    }
}
