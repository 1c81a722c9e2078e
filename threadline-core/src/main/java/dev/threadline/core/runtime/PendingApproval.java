package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.state.PendingToolCall;

/**
 * A tool call of a suspended turn that waits for a person: {@link Kind#APPROVAL} (approve or deny it)
 * or {@link Kind#QUESTION} (answer it; {@code question} is what the model asked). Immutable.
 *
 * @param toolUseId the id to approve, deny or answer
 * @param name      the tool the model called
 * @param arguments the arguments it asked for
 * @param kind      what the call waits for
 * @param question  the model's question for {@link Kind#QUESTION}, else null
 */
public record PendingApproval(String toolUseId, String name, JsonNode arguments, Kind kind, String question) {

    /** What a waiting call needs from a person. */
    public enum Kind {
        /** A yes ({@code approve}) or no ({@code deny}). */
        APPROVAL,
        /** An answer ({@code answer}). */
        QUESTION
    }

    /** The waiting call {@code p} as a person sees it. */
    public static PendingApproval of(PendingToolCall p) {
        boolean approval = p.awaiting() == PendingToolCall.Awaiting.APPROVAL;
        JsonNode q = p.input() == null ? null : p.input().get("question");
        return new PendingApproval(p.toolUseId(), p.name(), p.input(), approval ? Kind.APPROVAL : Kind.QUESTION,
                approval ? null : q != null && q.isTextual() ? q.asText() : String.valueOf(p.input()));
    }
}
