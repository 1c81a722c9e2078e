package dev.threadline.core.store;

import dev.threadline.core.error.HistoryPrunedException;
import dev.threadline.core.error.Require;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.State;
import dev.threadline.core.state.StateSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * The base a pruned session's journal starts from (ADR 0045): the whole state at seq {@code seq}, its
 * transcript included, which stands for the events {@code 1..seq} that pruning removed. A load starts
 * from it and folds the events after it. Immutable.
 *
 * @param seq      the last seq pruning folded into the base: the session's events start at {@code seq + 1}
 * @param policy   the policy that pruned, as a person reads it ("keep the latest 100 checkpoints")
 * @param prunedAt when it was pruned, by the runtime's clock
 * @param snapshot the state at {@code seq} without its messages
 * @param messages the transcript at {@code seq}, as many as {@code snapshot.messageCount()}
 */
public record HistoryBase(long seq, String policy, Instant prunedAt, StateSnapshot snapshot, List<Message> messages) {
    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing or the parts disagree */
    public HistoryBase {
        Require.argument(seq >= 1, "seq", "must be at least 1, was " + seq);
        Require.nonBlank(policy, "policy");
        Require.nonNull(prunedAt, "prunedAt");
        Require.nonNull(snapshot, "snapshot");
        messages = List.copyOf(Require.nonNull(messages, "messages"));
        Require.argument(snapshot.seq() == seq, "snapshot", "is of seq " + snapshot.seq() + ", not the base's " + seq);
        Require.argument(snapshot.messageCount() == messages.size(), "messages",
                "are " + messages.size() + " but the snapshot counts " + snapshot.messageCount());
    }

    /** The base of {@code state} (its seq), pruned under {@code policy} at {@code at}. */
    public static HistoryBase of(State state, String policy, Instant at) {
        return new HistoryBase(state.seq(), policy, at, state.snapshot(), state.messages());
    }

    /** The state at {@link #seq()}. */
    public State state() {
        return State.fromSnapshot(snapshot, messages);
    }

    /** The error a read of {@code seq} (at or before the base) of session {@code sessionId} meets. */
    public HistoryPrunedException pruned(String sessionId, long readSeq) {
        return new HistoryPrunedException(sessionId, readSeq, seq, policy, prunedAt);
    }
}
