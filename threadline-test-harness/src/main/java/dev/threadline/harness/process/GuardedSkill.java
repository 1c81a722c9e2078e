package dev.threadline.harness.process;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;

/**
 * A tool every call of which waits for a person's approval ({@link SkillPolicy#REQUIRES_APPROVAL}): the soak's
 * {@link Mixer} has the model call it and then approves or denies the call, from whichever process is alive.
 * Stateless; thread-safe.
 */
final class GuardedSkill implements Skill {
    /** The skill's name, as the model calls it. */
    static final String NAME = "guarded";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "does work a person must approve first";
    }

    @Override
    public JsonNode inputSchema() {
        return Json.parse("{\"type\":\"object\"}", "schema");
    }

    @Override
    public SkillPolicy policy() {
        return SkillPolicy.REQUIRES_APPROVAL;
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        return SkillResult.ok("guarded result");
    }
}
