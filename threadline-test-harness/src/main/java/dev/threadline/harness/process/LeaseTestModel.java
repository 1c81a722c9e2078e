package dev.threadline.harness.process;

import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.skill.builtin.AskUserSkill;
import java.util.List;

/**
 * The scripted model of the multi-process tests: {@code work <cid>} gets one call of the configured
 * skill under tool_use id {@code tu-<cid>} (unique over the session's history as command ids are), and the
 * tool's result gets {@code done <cid>}; {@code approve <cid>} calls the {@link GuardedSkill} (the turn waits for
 * approval) and {@code ask <cid>} asks the user with {@code ask_user} (the turn waits for an answer), under the same
 * id; any other text gets {@code re: <text>} at once.
 * Stateless; the models it makes are thread-safe.
 */
public final class LeaseTestModel {
    private LeaseTestModel() {}

    /** The model: {@code work <cid>} calls {@code skill}, anything else is answered at once. */
    public static ScriptedModel of(String skill) {
        return ScriptedModel.of(req -> {
            List<Message> ms = req.messages();
            Message last = ms.get(ms.size() - 1);
            if (!last.toolResults().isEmpty()) {
                String id = last.toolResults().get(0).toolUseId();
                return ScriptedModel.text("done " + (id.startsWith("tu-") ? id.substring(3) : id));
            }
            String text = last.role() == Role.USER ? last.text() : "";
            if (text.startsWith("work ")) {
                return ScriptedModel.toolUse("tu-" + text.substring(5).trim(), skill, "{}");
            }
            if (text.startsWith("approve ")) {
                return ScriptedModel.toolUse("tu-" + text.substring(8).trim(), GuardedSkill.NAME, "{}");
            }
            if (text.startsWith("ask ")) {
                String cid = text.substring(4).trim();
                return ScriptedModel.toolUse("tu-" + cid, AskUserSkill.NAME, "{\"question\":\"go on with " + cid + "?\"}");
            }
            return ScriptedModel.text("re: " + text);
        });
    }

    /** The tool_use id the model gives the call of a work command. */
    public static String toolUseId(String commandId) {
        return "tu-" + commandId;
    }
}
