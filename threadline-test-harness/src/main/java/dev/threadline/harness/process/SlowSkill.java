package dev.threadline.harness.process;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A tool that works for 20-60 ms: simulated work (not synchronisation), long enough that a process
 * paused or killed right after a step that started it is caught mid-turn.
 */
final class SlowSkill implements Skill {
    @Override
    public String name() {
        return "slow";
    }

    @Override
    public String description() {
        return "does slow work";
    }

    @Override
    public JsonNode inputSchema() {
        return Json.parse("{\"type\":\"object\"}", "schema");
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(20_000_000L, 60_000_000L)); // the work itself
        return SkillResult.ok("slow result");
    }
}
