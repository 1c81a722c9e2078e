package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code list_files}: lists one directory of the workspace, sorted by name, directories marked with
 * a trailing {@code /}; at most {@value #MAX_ENTRIES} entries. Paths leaving the workspace are error
 * results naming the path. Stateless and thread-safe: one instance serves every session.
 */
public final class ListFilesSkill implements Skill {
    /** The skill's name. */
    public static final String NAME = "list_files";
    /** The most entries one call lists. */
    public static final int MAX_ENTRIES = 1000;

    private static final JsonNode SCHEMA = Json.parse("""
            {
              "type": "object",
              "properties": {
                "path": {"type": "string", "default": ".",
                         "description": "directory to list, relative to the workspace; '.' (the default) is the workspace itself"}
              },
              "additionalProperties": false
            }""", "list_files schema");

    private final Workspace workspace;

    /** A skill listing folders of {@code workspace}. */
    public ListFilesSkill(Workspace workspace) {
        this.workspace = java.util.Objects.requireNonNull(workspace, "workspace");
    }

    /** A skill listing folders under {@code workspace}, an existing folder. */
    public ListFilesSkill(Path workspace) {
        this(new Workspace(workspace));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Lists the files and directories in a directory of the workspace (directories end with '/'). "
                + "The path is relative to the workspace and defaults to '.'.";
    }

    @Override
    public JsonNode inputSchema() {
        return SCHEMA.deepCopy();
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        JsonNode path = context.arguments().path("path");
        String requested = path.isTextual() && !path.asText().isBlank() ? path.asText() : ".";
        return switch (workspace.resolve(requested)) {
            case Workspace.Refused r -> SkillResult.error("cannot list " + r.reason());
            case Workspace.Missing m -> SkillResult.error("cannot list '" + requested + "': no such directory in the workspace");
            case Workspace.Found f -> list(requested, f.real(), context);
        };
    }

    private static SkillResult list(String requested, Path dir, ExecutionContext context) {
        if (!Files.isDirectory(dir)) {
            return SkillResult.error("cannot list '" + requested + "': it is a file, not a directory; use read_file to read it");
        }
        List<String> entries;
        try (Stream<Path> children = Files.list(dir)) {
            entries = children.takeWhile(p -> !context.isCancelled())
                    .map(p -> p.getFileName().toString() + (Files.isDirectory(p) ? "/" : ""))
                    .sorted()
                    .toList();
        } catch (AccessDeniedException e) {
            return SkillResult.error("cannot list '" + requested + "': permission denied");
        } catch (IOException e) {
            return SkillResult.error("cannot list '" + requested + "': " + e.getClass().getSimpleName());
        }
        if (context.isCancelled()) {
            return SkillResult.error("listing '" + requested + "' was cancelled");
        }
        if (entries.isEmpty()) {
            return SkillResult.ok("('" + requested + "' is empty)");
        }
        StringBuilder out = new StringBuilder(String.join("\n", entries.subList(0, Math.min(entries.size(), MAX_ENTRIES))));
        if (entries.size() > MAX_ENTRIES) {
            out.append("\n... and ").append(entries.size() - MAX_ENTRIES).append(" more entries");
        }
        return SkillResult.ok(out.toString());
    }

    /** Read-only: it reads only. */
    @Override
    public dev.threadline.core.skill.SkillPolicy policy() {
        return dev.threadline.core.skill.SkillPolicy.DEFAULT.withEffect(dev.threadline.core.skill.Effect.READ_ONLY);
    }
}
