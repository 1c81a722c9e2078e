package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.Usage;
import java.util.List;

/**
 * What a {@link Session#replay} found: each replayed user turn as it went in the original session and
 * on the replay's model, side by side. The replay's branch stays in the store for inspection. Immutable.
 *
 * @param sessionId the session replayed
 * @param branchId  the branch the replay ran on (a fork of the session before its first replayed turn)
 * @param model     the model the replay ran on
 * @param turns     the replayed turns, oldest first
 * @param stopped   why the replay stopped before its last turn, or null when every turn ran
 */
public record ReplayReport(String sessionId, String branchId, String model, List<Turn> turns, String stopped) {

    public ReplayReport {
        turns = List.copyOf(turns);
    }

    /** How many turns gave a different reply text on the replay's model. */
    public long changedReplies() {
        return turns.stream().filter(t -> !t.sameReply()).count();
    }

    /**
     * One user turn, both ways.
     *
     * @param seq      the seq of the user message in the original session
     * @param text     what the user said
     * @param original the turn as it went in the session
     * @param replayed the turn on the replay's model
     */
    public record Turn(long seq, String text, Side original, Side replayed) {
        /** Whether both replies have the same text. */
        public boolean sameReply() {
            return original.reply().equals(replayed.reply());
        }
    }

    /**
     * One way a turn went.
     *
     * @param reply     the assistant's last text of the turn ("" when it said nothing)
     * @param calls     the tool calls it made, in order
     * @param usage     the tokens of the turn's model calls
     * @param outcome   how it ended: a {@link TurnResult.Outcome} in lower case ({@code completed}, {@code awaiting_approval}, …)
     */
    public record Side(String reply, List<Call> calls, Usage usage, String outcome) {
        public Side {
            calls = List.copyOf(calls);
        }
    }

    /**
     * One tool call.
     *
     * @param name      the skill
     * @param arguments its arguments
     * @param how       in the original: {@code ran} or {@code error}; in the replay: {@code recorded} (the original's
     *                  result, nothing ran), {@code live} (the skill ran), {@code not run} (no record, and it could not run)
     *                  or {@code refused} (an unknown skill or invalid arguments)
     */
    public record Call(String name, JsonNode arguments, String how) {}
}
