package dev.threadline.server.webhooks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import java.util.List;
import java.util.Optional;

/**
 * The webhook event types and how journal events map to them: {@code SessionCreated} and
 * {@code BranchCreated} are {@code session.created}, {@code TurnCompleted} {@code turn.completed},
 * {@code TurnInterrupted} {@code turn.failed}, {@code TurnSuspended} {@code turn.awaiting_approval} or
 * {@code turn.awaiting_input} (after the status its reason names); {@code session.expired} and
 * {@code session.erased} are recorded when retention or an erasure removes a session. Every other journal
 * event is not delivered. A payload carries ids, seq, time and the event's reason, never message content.
 * Stateless and thread-safe.
 */
public final class WebhookEvents {
    /** A new session (or a fork or rewind's branch). */
    public static final String SESSION_CREATED = "session.created";
    /** A turn ended normally or at a limit. */
    public static final String TURN_COMPLETED = "turn.completed";
    /** A turn was cut short: interrupted, a model error, or a crash recovered. */
    public static final String TURN_FAILED = "turn.failed";
    /** A turn stopped until a person approves or denies a tool call. */
    public static final String TURN_AWAITING_APPROVAL = "turn.awaiting_approval";
    /** A turn stopped until a person answers the model's question. */
    public static final String TURN_AWAITING_INPUT = "turn.awaiting_input";
    /** A turn stopped because the session reached its budget, until the budget is raised. */
    public static final String TURN_BUDGET_EXCEEDED = "turn.budget_exceeded";
    /** Retention removed an expired session. */
    public static final String SESSION_EXPIRED = "session.expired";
    /** An erasure removed a session. */
    public static final String SESSION_ERASED = "session.erased";
    /** Every type a subscription may name, in the order the docs list them. */
    public static final List<String> TYPES = List.of(SESSION_CREATED, TURN_COMPLETED, TURN_FAILED, TURN_AWAITING_APPROVAL,
            TURN_AWAITING_INPUT, TURN_BUDGET_EXCEEDED, SESSION_EXPIRED, SESSION_ERASED);

    private WebhookEvents() {}

    /** The webhook type of a journal event, or empty when it is not delivered. */
    public static Optional<String> type(Event e) {
        return Optional.ofNullable(switch (e) {
            case Event.SessionCreated c -> SESSION_CREATED;
            case Event.BranchCreated b -> SESSION_CREATED;
            case Event.TurnCompleted c -> TURN_COMPLETED;
            case Event.TurnInterrupted i -> TURN_FAILED;
            case Event.TurnSuspended s -> s.reason().startsWith("awaiting_input") ? TURN_AWAITING_INPUT
                    : s.reason().startsWith("budget_exceeded") ? TURN_BUDGET_EXCEEDED : TURN_AWAITING_APPROVAL;
            default -> null;
        });
    }

    /** The message id of a journal event's delivery: the session and the event's seq, {@code <session>/<seq>} (a {@code /} is in no id). */
    public static String id(String sessionId, long seq) {
        return sessionId + "/" + seq;
    }

    /**
     * The body of a delivery, Standard Webhooks' shape: {@code {"type", "timestamp", "data": {"tenant",
     * "session", "seq", "step", "reason"?, "parentSession"?, "parentSeq"?}}}; {@code timestamp} is when the
     * event was recorded.
     */
    public static String body(String type, String tenant, StoredEvent e) {
        ObjectNode data = Json.object().put("tenant", tenant).put("session", e.sessionId()).put("seq", e.seq()).put("step", e.step());
        switch (e.event()) {
            case Event.TurnCompleted c -> data.put("reason", c.reason());
            case Event.TurnInterrupted i -> data.put("reason", i.reason());
            case Event.TurnSuspended s -> data.put("reason", s.reason());
            case Event.BranchCreated b -> data.put("parentSession", b.parentId()).put("parentSeq", b.parentSeq()).put("reason", b.reason());
            default -> { }
        }
        ObjectNode body = Json.object().put("type", type).put("timestamp", e.time().toString());
        body.set("data", data);
        return Json.write(body);
    }

    /** The body of a removal ({@code session.expired}, {@code session.erased}): {@code data} has the tenant, session and its last seq. */
    public static String removal(String type, String tenant, String sessionId, long lastSeq, java.time.Instant at) {
        ObjectNode data = Json.object().put("tenant", tenant).put("session", sessionId).put("seq", lastSeq);
        ObjectNode body = Json.object().put("type", type).put("timestamp", at.toString());
        body.set("data", data);
        return Json.write(body);
    }
}
