package dev.threadline.core.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The rules of {@link ScriptedModel#demo()}: a stateless, deterministic stand-in for an LLM that
 * drives the built-in skills. It looks only at the request:
 *
 * <ul>
 *   <li>last message a tool result: it reports the result in words ("(2+3)*4 = 20", the notes, the
 *       file, or "The calculate tool failed: ...") and ends the turn;</li>
 *   <li>last message from the user: it recognises a {@link DemoIntent} and calls the matching skill,
 *       if the request offers it; otherwise it says plainly that it is an offline demo and what it can do.</li>
 * </ul>
 *
 * Tool_use ids are {@code toolu_<messages>_<index>_<hash>}: the message count and a CRC of the current
 * turn (from its user message) and of the latest tool_use id before it make them unique within a session
 * even when a context policy shortens the view (each id folds in the one before it), and the same request
 * always yields the same id. Neither looks at more than the current turn and the few messages before it,
 * so a long session costs the script no more than a short one. Input usage is the local tokenizer's
 * count ({@link TokenCounter#approximate()}, a running total for a runtime's view), output characters / 4.
 */
final class DemoScript implements java.util.function.Function<ChatRequest, ChatResponse> {
    /** How the runtime prefixes the result of a call run with arguments a person edited (ToolExecutor). */
    private static final String EDITED = "(the user approved this call with edited arguments: ";
    private static final String INTRO = "I am Threadline's offline demo model: simple rules, not a real LLM. ";

    @Override
    public ChatResponse apply(ChatRequest request) {
        List<Message> messages = request.messages();
        Message last = messages.isEmpty() ? null : messages.getLast();
        if (last != null && last.role() == Role.TOOL) {
            return reply(request, List.of(ContentBlock.text(describeResults(messages, last))), StopReason.END_TURN);
        }
        if (last != null && last.role() == Role.USER) {
            return answer(request, last.text());
        }
        return reply(request, List.of(ContentBlock.text(help(request, null))), StopReason.END_TURN);
    }

    private ChatResponse answer(ChatRequest request, String text) {
        ObjectNode input = Json.object();
        String tool = switch (DemoIntent.of(text)) {
            case DemoIntent.Calculate c -> {
                input.put("expression", c.expression());
                yield "calculate";
            }
            case DemoIntent.AddNote n -> {
                input.put("action", "add").put("note", n.note());
                yield "meeting_minutes";
            }
            case DemoIntent.ListNotes l -> {
                input.put("action", "list");
                yield "meeting_minutes";
            }
            case DemoIntent.ClearNotes c -> {
                input.put("action", "clear");
                yield "meeting_minutes";
            }
            case DemoIntent.ReadFile r -> {
                input.put("path", r.path());
                yield "read_file";
            }
            case DemoIntent.ListFiles l -> {
                input.put("path", l.path());
                yield "list_files";
            }
            case DemoIntent.Ask a -> {
                input.put("question", a.question());
                yield "ask_user";
            }
            case DemoIntent.Chat c -> null;
        };
        if (tool == null) {
            return reply(request, List.of(ContentBlock.text(help(request, text))), StopReason.END_TURN);
        }
        if (!offers(request, tool)) {
            String refusal = INTRO + "I would use the " + tool + " tool for that, but it is not enabled in this session."
                    + abilities(request);
            return reply(request, List.of(ContentBlock.text(refusal)), StopReason.END_TURN);
        }
        String id = "toolu_" + request.messages().size() + "_0_" + fingerprint(request);
        return reply(request, List.of(new ContentBlock.ToolUse(id, tool, input)), StopReason.TOOL_USE);
    }

    /** One sentence per tool result, using the tool_use it answers (in the preceding assistant message). */
    private static String describeResults(List<Message> messages, Message results) {
        Map<String, ContentBlock.ToolUse> uses = new HashMap<>();
        for (int i = messages.size() - 2; i >= 0 && uses.isEmpty(); i--) {
            if (messages.get(i).role() == Role.ASSISTANT) {
                messages.get(i).toolUses().forEach(u -> uses.put(u.id(), u));
            }
        }
        List<String> lines = new ArrayList<>();
        for (ContentBlock.ToolResult r : results.toolResults()) {
            ContentBlock.ToolUse use = uses.get(r.toolUseId());
            String name = use == null ? "unknown" : use.name();
            String content = r.content();
            JsonNode input = use == null ? Json.object() : use.input();
            String edited = "";
            if (content.startsWith(EDITED) && content.indexOf(")\n") > 0) { // the runtime's note of arguments a person edited
                int end = content.indexOf(")\n");
                input = Json.parse(content.substring(EDITED.length(), end), "edited arguments");
                content = content.substring(end + 2);
                edited = " (with the arguments you edited)";
            }
            String path = input.path("path").asText(".");
            if (r.isError()) {
                lines.add("The " + name + " tool failed: " + content);
                continue;
            }
            lines.add(switch (name) {
                case "calculate" -> input.path("expression").asText("?") + " = " + content + edited;
                case "meeting_minutes" -> content + edited;
                case "read_file" -> "Here is " + path + edited + ":\n\n" + content;
                case "list_files" -> "Files in " + path + edited + ":\n" + content;
                case "ask_user" -> "You answered: " + content;
                default -> "The " + name + " tool returned" + edited + ": " + content;
            });
        }
        return lines.isEmpty() ? "There were no tool results to report." : String.join("\n\n", lines);
    }

    /** Says what this model is, what it understood, and what it can do with the tools on offer. */
    private static String help(ChatRequest request, String understood) {
        if (understood == null || understood.isBlank()) {
            return INTRO + "I did not get a message to answer." + abilities(request);
        }
        String shown = understood.strip();
        return INTRO + "I understood: \"" + (shown.length() > 200 ? shown.substring(0, 197) + "..." : shown)
                + "\", but none of my rules matches it." + abilities(request);
    }

    private static String abilities(ChatRequest request) {
        List<String> abilities = new ArrayList<>();
        if (offers(request, "calculate")) {
            abilities.add("calculate arithmetic (\"what is (2+3)*4\")");
        }
        if (offers(request, "meeting_minutes")) {
            abilities.add("keep notes (\"note buy milk\", \"notes\", \"clear notes\")");
        }
        if (offers(request, "read_file")) {
            abilities.add("read a workspace file (\"read README.md\")");
        }
        if (offers(request, "list_files")) {
            abilities.add("list workspace files (\"ls\", \"ls docs\")");
        }
        if (abilities.isEmpty()) {
            return " No tools are enabled in this session, so there is nothing else I can do.";
        }
        StringBuilder out = new StringBuilder(" I can:");
        abilities.forEach(a -> out.append("\n- ").append(a));
        return out.append("\nConnect a real model for open conversation.").toString();
    }

    private static boolean offers(ChatRequest request, String tool) {
        return request.tools().stream().anyMatch(t -> t.name().equals(tool));
    }

    private static ChatResponse reply(ChatRequest request, List<ContentBlock> content, StopReason stopReason) {
        long in = TokenCounter.approximate().count(request.system(), request.tools(), request.messages());
        long out = Json.write(content).length() / 4;
        return new ChatResponse(content, stopReason, Usage.of(Math.max(1, in), Math.max(1, out)));
    }

    /** How far back the fingerprint looks for an earlier tool_use id. */
    private static final int LOOK_BACK = 64;

    /** A CRC of the current turn and the latest tool_use id before it (see the class comment). */
    private static String fingerprint(ChatRequest request) {
        List<Message> messages = request.messages();
        int turn = messages.size() - 1;
        while (turn > 0 && messages.get(turn).role() != Role.USER) {
            turn--;
        }
        CRC32 crc = new CRC32();
        crc.update(Json.write(messages.subList(Math.max(0, turn), messages.size())).getBytes(StandardCharsets.UTF_8));
        for (int i = turn - 1; i >= Math.max(0, turn - LOOK_BACK); i--) {
            List<ContentBlock.ToolUse> uses = messages.get(i).toolUses();
            if (!uses.isEmpty()) {
                crc.update(uses.get(uses.size() - 1).id().getBytes(StandardCharsets.UTF_8));
                break;
            }
        }
        return String.format("%08x", crc.getValue());
    }
}
