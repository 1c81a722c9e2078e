package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import dev.threadline.core.session.DoubleTexting;
import java.util.Objects;
import java.util.Optional;

/**
 * How a session's commands run: the caller's command id, the double-texting strategy of a submit, who
 * hears a turn as it streams, and whether a fork or rewind acknowledges the side effects it cannot undo.
 * Given to a session once, with {@link Session#with(CommandOptions)}: every command of that view carries
 * them. Built with {@link #builder()}. Immutable and thread-safe.
 *
 * {@snippet :
 * Session retried = session.with(CommandOptions.id(idempotencyKey));
 * TurnResult r = retried.submit("what is (2+3)*4");   // a repeat returns the first outcome and appends nothing
 * }
 */
public final class CommandOptions {
    /** No options: no command id (commands are not deduplicated), the session's strategy, no listener. */
    public static final CommandOptions NONE = new CommandOptions(null, null, null, false);

    private final String commandId;
    private final DoubleTexting doubleTexting;
    private final TurnListener listener;
    private final boolean acknowledgeEffects;

    private CommandOptions(String commandId, DoubleTexting doubleTexting, TurnListener listener, boolean acknowledgeEffects) {
        this.commandId = commandId;
        this.doubleTexting = doubleTexting;
        this.listener = listener;
        this.acknowledgeEffects = acknowledgeEffects;
    }

    /**
     * Options with only a command id: the common case of a retried request, so
     * {@code session.with(CommandOptions.id(key)).submit(text)} reads as one step.
     *
     * @param id the caller's command id (see {@link #commandId()})
     * @return options carrying only that id
     * @throws dev.threadline.core.error.InvalidInputException when it is null, blank or longer than 255 characters
     */
    public static CommandOptions id(String id) {
        return builder().commandId(id).build();
    }

    /** A builder with nothing set. */
    public static Builder builder() {
        return new Builder(NONE);
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The caller's id for the command (e.g. an HTTP Idempotency-Key). Repeating a command with the same id
     * returns the first outcome and appends nothing; the same id with a different command is refused with
     * {@link dev.threadline.core.error.CommandConflictException}. Empty: the command is not deduplicated.
     */
    public Optional<String> commandId() {
        return Optional.ofNullable(commandId);
    }

    /**
     * For a submit: what the message does if a turn of the session is running, in this or another process.
     * Empty: the session config's strategy. Other commands always queue.
     */
    public Optional<DoubleTexting> doubleTexting() {
        return Optional.ofNullable(doubleTexting);
    }

    /** Who hears the text of a turn (submit, approve, deny, answer) as it streams; empty for no one. */
    public Optional<TurnListener> listener() {
        return Optional.ofNullable(listener);
    }

    /**
     * For a fork or rewind: whether to branch even to before calls with side effects, which the branch cannot
     * undo (they are named in its {@code BranchCreated} reason); without it such a branch is refused with
     * {@link dev.threadline.core.error.UndoneEffectsException}.
     */
    public boolean acknowledgesEffects() {
        return acknowledgeEffects;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommandOptions c && Objects.equals(commandId, c.commandId) && doubleTexting == c.doubleTexting
                && listener == c.listener && acknowledgeEffects == c.acknowledgeEffects;
    }

    @Override
    public int hashCode() {
        return Objects.hash(commandId, doubleTexting, System.identityHashCode(listener), acknowledgeEffects);
    }

    @Override
    public String toString() {
        return "CommandOptions[commandId=" + commandId + ", doubleTexting=" + doubleTexting + ", listener=" + listener
                + ", acknowledgeEffects=" + acknowledgeEffects + "]";
    }

    /** Builds {@link CommandOptions}; each setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private String commandId;
        private DoubleTexting doubleTexting;
        private TurnListener listener;
        private boolean acknowledgeEffects;

        private Builder(CommandOptions from) {
            this.commandId = from.commandId;
            this.doubleTexting = from.doubleTexting;
            this.listener = from.listener;
            this.acknowledgeEffects = from.acknowledgeEffects;
        }

        /**
         * The caller's command id, 1-255 characters (see {@link CommandOptions#commandId()}).
         *
         * @throws dev.threadline.core.error.InvalidInputException when it is null, blank or longer than 255 characters
         */
        public Builder commandId(String id) {
            Require.nonBlank(id, "command id");
            Require.argument(id.length() <= 255, "command id", "must be at most 255 characters, was " + id.length());
            this.commandId = id;
            return this;
        }

        /**
         * The double-texting strategy of a submit (see {@link CommandOptions#doubleTexting()}).
         *
         * @throws dev.threadline.core.error.InvalidInputException when it is null
         */
        public Builder doubleTexting(DoubleTexting strategy) {
            this.doubleTexting = Require.nonNull(strategy, "doubleTexting");
            return this;
        }

        /**
         * Who hears a turn's text as it streams (see {@link CommandOptions#listener()}).
         *
         * @throws dev.threadline.core.error.InvalidInputException when it is null
         */
        public Builder listener(TurnListener listener) {
            this.listener = Require.nonNull(listener, "listener");
            return this;
        }

        /** Whether a fork or rewind acknowledges the side effects it cannot undo (see {@link CommandOptions#acknowledgesEffects()}). */
        public Builder acknowledgeEffects(boolean acknowledge) {
            this.acknowledgeEffects = acknowledge;
            return this;
        }

        /** The options. */
        public CommandOptions build() {
            return new CommandOptions(commandId, doubleTexting, listener, acknowledgeEffects);
        }
    }
}
