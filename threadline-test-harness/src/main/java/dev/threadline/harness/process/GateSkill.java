package dev.threadline.harness.process;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * A tool that announces itself ({@code GATE <session> <toolUseId>}) and then blocks until the test
 * creates the file {@code <gates>/<toolUseId>}: the test decides when a turn may go on, with no sleeps on
 * either side. Gives up (an error result) at the call's deadline or after 60 s.
 * Thread-safe: it keeps no state but the folder.
 */
public final class GateSkill implements Skill {
    private final Path gates;

    /** A gate skill waiting on files in folder {@code gates}. */
    public GateSkill(Path gates) {
        this.gates = gates;
    }

    @Override
    public String name() {
        return "gate";
    }

    @Override
    public String description() {
        return "waits until the test opens its gate";
    }

    @Override
    public JsonNode inputSchema() {
        return Json.parse("{\"type\":\"object\"}", "schema");
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        Path gate = gates.resolve(context.toolUseId());
        Instant deadline = earliest(context.deadline(), Instant.now().plus(Duration.ofSeconds(60)));
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            gates.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            ChildOut.line("GATE " + context.sessionId() + " " + context.toolUseId());
            while (!Files.exists(gate)) { // checked after registering, so a file created meanwhile is not missed
                long left = Duration.between(Instant.now(), deadline).toMillis();
                if (left <= 0 || context.isCancelled()) {
                    return SkillResult.error("the gate " + gate + " was not opened in time");
                }
                var key = watch.poll(Math.min(left, 200), TimeUnit.MILLISECONDS); // wakes on the file's creation
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
            return SkillResult.ok("gate " + context.toolUseId() + " opened");
        } catch (IOException e) {
            return SkillResult.error("cannot watch " + gates + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return SkillResult.error("interrupted at the gate");
        }
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }
}
