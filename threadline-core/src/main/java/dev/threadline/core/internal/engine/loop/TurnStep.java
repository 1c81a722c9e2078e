package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.runtime.TurnResult;

/**
 * What one step of the agent loop decided: go on to the next model call, suspend the turn for a person,
 * or end it. The loop switches over it; nothing stands for "go on" by being null. Immutable.
 */
sealed interface TurnStep {
    /** The loop calls the model again. */
    record GoOn() implements TurnStep {
        static final GoOn INSTANCE = new GoOn();
    }

    /** The turn waits, durably, for a person (approvals or answers); {@code result} says for what. */
    record Suspend(TurnResult result) implements TurnStep {}

    /** The turn ended (completed, a limit, an interrupt, a refused reply); {@code result} says how. */
    record End(TurnResult result) implements TurnStep {}
}
