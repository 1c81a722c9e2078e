package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.state.VariableScope;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code meeting_minutes}: adds, lists and clears the notes of the current session. The notes live in
 * the session variable {@value #VARIABLE} (a JSON array of strings), read from the context and
 * changed only through the writes of the result; the instance itself holds nothing per session.
 * {@code add} proposes an append, so two adds in one reply (run in parallel) both keep their note;
 * its count and the {@value #MAX_NOTES} limit are checked against the notes the call saw.
 * Stateless and thread-safe: the notes live in the session, not in the skill.
 */
public final class MeetingMinutesSkill implements Skill {
    /** The built-in note-taking skill. */
    public MeetingMinutesSkill() {}

    /** The skill's name. */
    public static final String NAME = "meeting_minutes";
    /** The session variable that holds the notes. */
    public static final String VARIABLE = "meeting_notes";
    /** The longest note accepted, in characters. */
    public static final int MAX_NOTE_LENGTH = 2000;
    /** The most notes one session keeps. */
    public static final int MAX_NOTES = 500;

    private static final JsonNode SCHEMA = Json.parse("""
            {
              "type": "object",
              "properties": {
                "action": {"type": "string", "enum": ["add", "list", "clear"],
                           "description": "add a note, list the notes, or clear them all"},
                "note": {"type": "string", "minLength": 1, "maxLength": %d,
                         "description": "the note to add (required for add)"}
              },
              "required": ["action"],
              "additionalProperties": false
            }""".formatted(MAX_NOTE_LENGTH), "meeting_minutes schema");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Keeps the meeting notes of this conversation: action 'add' stores the given note, 'list' shows all "
                + "notes numbered in order, 'clear' deletes them all. Notes persist for the whole session.";
    }

    @Override
    public JsonNode inputSchema() {
        return SCHEMA.deepCopy();
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        String action = context.arguments().path("action").asText("");
        if (action.equals("clear")) {
            return clear(context);
        }
        JsonNode stored = context.variable(VARIABLE);
        List<String> notes = new ArrayList<>();
        if (stored != null && !stored.isNull()) {
            if (!stored.isArray()) {
                return corrupt(stored);
            }
            for (JsonNode n : stored) {
                if (!n.isTextual()) {
                    return corrupt(stored);
                }
                notes.add(n.asText());
            }
        }
        return switch (action) {
            case "add" -> add(notes, context.arguments().path("note").asText("").strip());
            case "list" -> SkillResult.ok(list(notes));
            default -> SkillResult.error("unknown action '" + action + "'; use add, list or clear");
        };
    }

    private static SkillResult add(List<String> notes, String note) {
        if (note.isEmpty()) {
            return SkillResult.error("action 'add' needs a non-empty 'note' to add");
        }
        if (note.length() > MAX_NOTE_LENGTH) {
            return SkillResult.error("the note is " + note.length() + " characters; the limit is " + MAX_NOTE_LENGTH);
        }
        if (notes.size() >= MAX_NOTES) {
            return SkillResult.error("there are already " + MAX_NOTES + " notes, the limit; clear them first");
        }
        // an append, not the whole new list: a parallel add recorded first is kept (the count is what this call saw, + 1)
        int n = notes.size() + 1;
        return SkillResult.ok("Noted (" + n + (n == 1 ? " note): " : " notes): ") + note)
                .withAppend(VariableScope.SESSION, VARIABLE, TextNode.valueOf(note));
    }

    private static String list(List<String> notes) {
        if (notes.isEmpty()) {
            return "No notes yet.";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < notes.size(); i++) {
            out.append(i == 0 ? "" : "\n").append(i + 1).append(". ").append(notes.get(i));
        }
        return out.toString();
    }

    private static SkillResult clear(ExecutionContext context) {
        JsonNode stored = context.variable(VARIABLE);
        if (stored == null) {
            return SkillResult.ok("No notes to clear.");
        }
        int n = stored.isArray() ? stored.size() : 0;
        return SkillResult.ok("Cleared " + n + (n == 1 ? " note." : " notes.")).withRemoval(VariableScope.SESSION, VARIABLE);
    }

    private static SkillResult corrupt(JsonNode stored) {
        return SkillResult.error("the session variable '" + VARIABLE + "' should be a list of notes (strings) but holds "
                + stored.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + abbreviate(stored.toString())
                + "; use action 'clear' to reset it");
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    /** Read-only: it changes only the session's variables, which a rewind restores. */
    @Override
    public dev.threadline.core.skill.SkillPolicy policy() {
        return dev.threadline.core.skill.SkillPolicy.DEFAULT.withEffect(dev.threadline.core.skill.Effect.READ_ONLY);
    }
}
