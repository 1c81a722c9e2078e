package dev.threadline.harness.history;

import java.util.Objects;

/**
 * One client operation as recorded by a test: a submission of {@code text} to {@code session}
 * under {@code commandId}, its outcome, and the process it ran in. Immutable.
 *
 * @param session   the session id the text was submitted to
 * @param commandId the caller's command id (operations repeating one id are retries of one command), or null
 * @param text      the submitted user text
 * @param outcome   what the client learned
 * @param process   a name for the process (or client) the call ran in, for reports
 */
public record Operation(String session, String commandId, String text, Outcome outcome, String process) {
    /** @throws NullPointerException when session, text, outcome or process is null */
    public Operation {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(process, "process");
    }

    /**
     * The command this operation belongs to: its command id, or its text when it has none. Operations
     * with one key are attempts of one command, which may take effect at most once.
     */
    public String commandKey() {
        return commandId != null ? "id:" + commandId : "text:" + text;
    }

    @Override
    public String toString() {
        return outcome.wireName() + " " + session + " " + (commandId == null ? "-" : commandId) + " '" + text + "' in " + process;
    }
}
