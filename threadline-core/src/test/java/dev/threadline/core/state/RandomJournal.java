package dev.threadline.core.state;

import dev.threadline.core.internal.state.Reducer;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a list of random choices into a valid event sequence, grouped into steps, by simulating a
 * session: at each point it picks among the events that may follow the current state (turns with
 * text or parallel tool calls answered in any order with any outcome, empty replies, replies cut at
 * max_tokens or refused, variable changes, typed edits, clears, compactions between and within
 * turns, interrupts, and calls that wait for a person: the turn suspends, then is approved, denied,
 * answered or superseded by a new message).
 */
public final class RandomJournal {
    private RandomJournal() {}

    /** Steps of events; the first step is empty of content and stands for the session's creation. */
    public static List<List<Event>> steps(List<Integer> choices) {
        List<List<Event>> steps = new ArrayList<>();
        simulate(choices, steps);
        return steps;
    }

    /** The state the events of {@link #steps} fold into. */
    public static State state(List<Integer> choices) {
        return simulate(choices, new ArrayList<>());
    }

    private static State simulate(List<Integer> choices, List<List<Event>> steps) {
        State s = State.EMPTY;
        int i = 0;
        int toolId = 0;
        long seq = 0;
        List<long[]> turnStarts = new ArrayList<>(); // {seq before a turn's step, index into idleStates}
        List<State> idleStates = new ArrayList<>();
        while (i < choices.size()) {
            int c = Math.floorMod(choices.get(i++), 100);
            List<Event> step = new ArrayList<>();
            if (!s.pending().isEmpty()) {
                // answer one or more pending calls, in a chosen order and outcome, or interrupt; calls that
                // wait for a person are approved, denied, answered or superseded once the turn suspends
                List<PendingToolCall> open = s.pending().stream().filter(p -> !p.answered() && !p.waitsForAPerson()).toList();
                if (c < 8) {
                    s.pending().stream().filter(p -> !p.answered())
                            .forEach(p -> step.add(new Event.ToolCallFailed(p.toolUseId(), "cancelled: interrupted")));
                    step.add(new Event.TurnInterrupted("interrupted by the user"));
                } else if (open.isEmpty() && !s.isSuspended()) {
                    step.add(new Event.TurnSuspended("awaiting: " + s.awaiting().size()));
                } else if (open.isEmpty()) {
                    humanStep(s, c, step);
                } else {
                    PendingToolCall p = open.get(c % open.size());
                    step.add(switch (c % 3) {
                        case 0 -> new Event.ToolCallCompleted(p.toolUseId(), "result " + c, c % 2 == 0);
                        case 1 -> new Event.ToolCallFailed(p.toolUseId(), "failed " + c);
                        default -> new Event.ToolCallTimedOut(p.toolUseId(), c);
                    });
                    if (c % 4 == 0) {
                        step.add(new Event.VariablesChanged(VariableScope.SESSION, Map.of("v" + (c % 5), IntNode.valueOf(c)), List.of()));
                    }
                }
            } else if (s.isIdle()) {
                if (c >= 66 && c < 70 && !turnStarts.isEmpty()) {
                    long[] at = turnStarts.get(c % turnStarts.size());
                    State before = idleStates.get((int) at[1]);
                    step.add(new Event.TurnRolledBack(Math.max(1, at[0]), "s.rb" + c, before.messages().size(), before.variables(),
                            before.contextStart(), before.compaction(), "double texting " + c));
                    turnStarts.removeIf(t -> t[0] >= at[0]);
                } else if (c >= 62 && c < 66 && s.messages().stream().anyMatch(m -> !m.toolUses().isEmpty())) {
                    List<String> ids = s.messages().stream().flatMap(m -> m.toolUses().stream()).map(ContentBlock.ToolUse::id).toList();
                    step.add(new Event.EffectCompensated(ids.get(c % ids.size()), "tool0", "undone " + c, c % 2 == 0));
                } else if (c < 70) {
                    if (seq > 0) {
                        turnStarts.add(new long[] {seq, idleStates.size()});
                        idleStates.add(s);
                    }
                    step.add(new Event.UserMessageReceived(Message.user("user says " + c + filler(c))));
                } else if (c < 75) {
                    step.add(new Event.VariablesChanged(VariableScope.SESSION, Map.of("k" + (c % 3), TextNode.valueOf("x" + c)),
                            c % 2 == 0 ? List.of("v1") : List.of()));
                } else if (c < 80) {
                    List<Edit> edits = new ArrayList<>(List.of(Edit.set("e" + (c % 3), IntNode.valueOf(c))));
                    boolean userInContext = s.messages().subList(s.contextStart(), s.messages().size()).stream()
                            .anyMatch(m -> m.role() == dev.threadline.core.model.Role.USER);
                    edits.add(Edit.append(c % 2 == 0 || !userInContext ? Message.user("edited " + c) : Message.system("note " + c)));
                    if (c % 3 == 0) {
                        edits.add(Edit.remove("k1"));
                    }
                    step.add(new Event.StateEdited("ops", "edit " + c, edits));
                } else if (c < 88 && !s.messages().isEmpty()) {
                    step.add(new Event.Cleared());
                } else if (!s.messages().isEmpty()) {
                    step.add(compaction(s, c));
                } else {
                    step.add(new Event.UserMessageReceived(Message.user("first " + c)));
                }
            } else {
                // running, nothing pending: the model replies with text, with tool calls, or the turn is cut
                if (c < 45) {
                    int n = 1 + c % 3;
                    List<ContentBlock> blocks = new ArrayList<>();
                    if (c % 2 == 0) {
                        blocks.add(new ContentBlock.Thinking("thinking " + c, null));
                    }
                    for (int k = 0; k < n; k++) {
                        blocks.add(new ContentBlock.ToolUse("tu" + (toolId++), "tool" + k, Json.parse("{\"a\":" + c + "}", "input")));
                    }
                    step.add(new Event.AssistantMessageReceived(Message.assistant(blocks, StopReason.TOOL_USE, Usage.of(c, k(c)))));
                    if (c % 2 == 0) { // some calls wait for a person
                        List<ContentBlock.ToolUse> uses = blocks.stream().filter(b -> b instanceof ContentBlock.ToolUse)
                                .map(b -> (ContentBlock.ToolUse) b).toList();
                        for (int k = 0; k < uses.size(); k++) {
                            ContentBlock.ToolUse u = uses.get(k);
                            if ((c + k) % 3 == 0) {
                                step.add(new Event.ApprovalRequested(u.id(), u.name(), u.input()));
                            } else if ((c + k) % 5 == 0) {
                                step.add(new Event.InputRequested(u.id(), "question " + c));
                            }
                        }
                    }
                    if (c % 2 == 1) {
                        blocks.stream().filter(b -> b instanceof ContentBlock.ToolUse).map(b -> (ContentBlock.ToolUse) b)
                                .forEach(u -> step.add(new Event.ToolCallStarted(u.id(), u.name(),
                                        c % 3 == 0 ? null : dev.threadline.core.skill.Effect.values()[c % 3])));
                    }
                } else if (c < 78) {
                    step.add(new Event.AssistantMessageReceived(Message.assistant(List.of(ContentBlock.text("reply " + c + filler(c))),
                            StopReason.END_TURN, Usage.of(c, 1))));
                    step.add(new Event.TurnCompleted("end_turn"));
                } else if (c < 82) {
                    // models do return empty replies; providers refuse them in a later request
                    List<ContentBlock> empty = c % 2 == 0 ? List.of() : List.of(ContentBlock.text(" \n"));
                    step.add(new Event.AssistantMessageReceived(Message.assistant(empty, StopReason.END_TURN, Usage.of(c, 0))));
                    step.add(new Event.TurnCompleted("end_turn"));
                } else if (c < 86) {
                    // cut at max_tokens or refused: a tool call in it is never run, it fails
                    StopReason stop = c % 2 == 0 ? StopReason.MAX_TOKENS : StopReason.REFUSAL;
                    List<ContentBlock> blocks = new ArrayList<>(List.of(ContentBlock.text("partial " + c)));
                    String id = "tu" + (toolId++);
                    if (c < 84) {
                        blocks.add(new ContentBlock.ToolUse(id, "tool0", Json.parse("{\"a\":" + c + "}", "input")));
                    }
                    step.add(new Event.AssistantMessageReceived(Message.assistant(blocks, stop, Usage.of(c, 9))));
                    if (c < 84) {
                        step.add(new Event.ToolCallFailed(id, "not run: " + stop.wireName()));
                    }
                    step.add(new Event.TurnCompleted(stop.wireName()));
                } else if (c < 90) {
                    step.add(compaction(s, c)); // mid-turn, between calls: only at a turn's start or the end
                } else {
                    step.add(new Event.TurnInterrupted("model error"));
                }
            }
            for (Event e : step) {
                s = Reducer.apply(s, e);
                seq++;
            }
            steps.add(step);
        }
        return s;
    }

    /** A person's step in a suspended turn: approve (maybe with edited arguments), deny, answer, or a new message. */
    private static void humanStep(State s, int c, List<Event> step) {
        PendingToolCall p = s.awaiting().get(c % s.awaiting().size());
        int how = c % 4;
        if (how == 3) {
            for (PendingToolCall w : s.awaiting()) {
                step.add(w.awaiting() == PendingToolCall.Awaiting.APPROVAL ? new Event.ApprovalDenied(w.toolUseId(), "superseded")
                        : new Event.ToolCallFailed(w.toolUseId(), "not answered"));
            }
            step.add(new Event.TurnInterrupted("superseded: a new message"));
            step.add(new Event.UserMessageReceived(Message.user("instead " + c)));
        } else if (p.awaiting() == PendingToolCall.Awaiting.ANSWER) {
            step.add(new Event.InputGiven(p.toolUseId(), "answer " + c));
        } else if (how == 0) {
            step.add(new Event.ApprovalDenied(p.toolUseId(), "no " + c));
        } else {
            step.add(new Event.ApprovalGiven(p.toolUseId(), how == 1 ? null : Json.parse("{\"a\":" + (c + 1) + "}", "edited")));
            step.add(new Event.ToolCallStarted(p.toolUseId(), p.name()));
        }
    }

    /** A compaction at one of the boundaries the reducer accepts: a user message in the context, or the end. */
    private static Event compaction(State s, int c) {
        List<Integer> allowed = new ArrayList<>();
        for (int m = s.contextStart(); m < s.messages().size(); m++) {
            if (s.messages().get(m).role() == dev.threadline.core.model.Role.USER) {
                allowed.add(m);
            }
        }
        allowed.add(s.messages().size());
        int boundary = allowed.get(c % allowed.size());
        return new Event.ContextCompacted("summary " + c, boundary, c % 3 == 0 ? Usage.of(c, 3) : null);
    }

    /** Words that make some messages long (up to a few hundred tokens), so token budgets bite. */
    private static String filler(int c) {
        return c % 7 == 0 ? " lorem ipsum dolor".repeat(c % 60) : "";
    }

    private static long k(int c) {
        return c % 7;
    }

    public static List<Event> events(List<Integer> choices) {
        return steps(choices).stream().flatMap(List::stream).toList();
    }
}
