package dev.threadline.bench.kit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.List;

/**
 * One message of the benchmark's conversation, in a neutral form that each contender maps to its own
 * types, so every library stores the same messages. A turn is four messages: the user's question
 * (about 200 characters), the assistant's tool call, the tool's result, the assistant's answer (about
 * 200 characters).
 *
 * @param kind       what it is
 * @param text       the text (user, answer) or the tool result content
 * @param toolUseId  the tool call id (tool call and result)
 * @param toolName   the tool called
 * @param toolInput  the tool's arguments as JSON
 */
public record BenchMessage(Kind kind, String text, String toolUseId, String toolName, String toolInput) {

    /** The four kinds of a turn, in order. */
    public enum Kind { USER, TOOL_CALL, TOOL_RESULT, ANSWER }

    private static final String QUESTION = "could you look at the quarterly numbers again and tell me whether the"
            + " growth in the north region is explained by the new pricing, or by the two large accounts that"
            + " renewed early? Keep it short.";
    private static final String ANSWER = "Mostly pricing: the north region grew 12% and the two early renewals"
            + " account for about a third of it; the rest follows the new price list, which took effect in May.";

    /** Message {@code i} (0-based) of session conversation: a pure function of {@code i}. */
    public static BenchMessage at(long i) {
        long turn = i / 4;
        String id = "toolu_" + turn;
        return switch ((int) (i % 4)) {
            case 0 -> new BenchMessage(Kind.USER, "Turn " + turn + ": " + QUESTION, null, null, null);
            case 1 -> new BenchMessage(Kind.TOOL_CALL, null, id, "calculate",
                    "{\"expression\":\"(" + turn + "+3)*7\"}");
            case 2 -> new BenchMessage(Kind.TOOL_RESULT, String.valueOf((turn + 3) * 7), id, "calculate", null);
            default -> new BenchMessage(Kind.ANSWER, "(" + turn + "+3)*7 = " + (turn + 3) * 7 + ". " + ANSWER,
                    null, null, null);
        };
    }

    /** Messages {@code from} (inclusive) to {@code to} (exclusive). */
    public static List<BenchMessage> range(long from, long to) {
        List<BenchMessage> out = new ArrayList<>((int) (to - from));
        for (long i = from; i < to; i++) {
            out.add(at(i));
        }
        return out;
    }

    /**
     * The events of the Threadline step that records this message, as the agent loop writes them: the
     * tool call with its ToolCallStarted, the answer with its TurnCompleted (a tool result completes
     * the tool message).
     */
    public List<Event> toEvents() {
        return switch (kind) {
            case USER -> List.of(new Event.UserMessageReceived(Message.user(text)));
            case TOOL_CALL -> List.of(new Event.AssistantMessageReceived(Message.assistant(
                    List.of(new ContentBlock.ToolUse(toolUseId, toolName, input())), StopReason.TOOL_USE, Usage.of(900, 40))),
                    new Event.ToolCallStarted(toolUseId, toolName));
            case TOOL_RESULT -> List.of(new Event.ToolCallCompleted(toolUseId, text, false));
            case ANSWER -> List.of(new Event.AssistantMessageReceived(Message.assistant(
                    List.of(new ContentBlock.Text(text)), StopReason.END_TURN, Usage.of(950, 60))),
                    new Event.TurnCompleted("end_turn"));
        };
    }

    /** How many events the first {@code n} messages are journalled as (six per turn). */
    public static long eventCount(long n) {
        long[] perKind = {1, 2, 1, 2};
        long count = (n / 4) * 6;
        for (long i = 0; i < n % 4; i++) {
            count += perKind[(int) i];
        }
        return count;
    }

    /** Whether a session of {@code n} messages is between turns (idle). */
    public static boolean betweenTurns(long n) {
        return n % 4 == 0;
    }

    public JsonNode input() {
        return Json.parse(toolInput, "tool input");
    }
}
