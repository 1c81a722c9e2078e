package dev.threadline.core.skill.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * {@code read_file}: returns a UTF-8 text file of the workspace, up to {@value #MAX_BYTES} bytes
 * (longer files are cut at a character boundary, with a note saying so). Paths leaving the workspace,
 * missing files, directories and binary files are error results naming the path.
 * Stateless and thread-safe: one instance serves every session.
 */
public final class ReadFileSkill implements Skill {
    /** The skill's name. */
    public static final String NAME = "read_file";
    /** The most bytes returned from one file: 256 KiB. */
    public static final int MAX_BYTES = 256 * 1024;

    private static final JsonNode SCHEMA = Json.parse("""
            {
              "type": "object",
              "properties": {
                "path": {"type": "string", "minLength": 1,
                         "description": "path of the file, relative to the workspace, e.g. README.md or docs/notes.txt"}
              },
              "required": ["path"],
              "additionalProperties": false
            }""", "read_file schema");

    private final Workspace workspace;

    /** A skill reading files of {@code workspace}. */
    public ReadFileSkill(Workspace workspace) {
        this.workspace = java.util.Objects.requireNonNull(workspace, "workspace");
    }

    /** A skill reading files under {@code workspace}, an existing folder. */
    public ReadFileSkill(Path workspace) {
        this(new Workspace(workspace));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Reads a UTF-8 text file from the workspace and returns its content (at most 256 KiB). "
                + "The path is relative to the workspace; use list_files to find files.";
    }

    @Override
    public JsonNode inputSchema() {
        return SCHEMA.deepCopy();
    }

    @Override
    public SkillResult execute(ExecutionContext context) {
        String requested = context.arguments().path("path").asText("");
        return switch (workspace.resolve(requested)) {
            case Workspace.Refused r -> SkillResult.error("cannot read " + r.reason());
            case Workspace.Missing m -> SkillResult.error("cannot read '" + requested + "': no such file in the workspace");
            case Workspace.Found f -> read(requested, f.real());
        };
    }

    private static SkillResult read(String requested, Path file) {
        if (Files.isDirectory(file)) {
            return SkillResult.error("cannot read '" + requested + "': it is a directory; use list_files to see what it holds");
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return SkillResult.error("cannot read '" + requested + "': it is not a regular file");
        }
        byte[] bytes;
        long size;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
            size = Math.max(Files.size(file), bytes.length);
        } catch (AccessDeniedException e) {
            return SkillResult.error("cannot read '" + requested + "': permission denied");
        } catch (IOException e) {
            return SkillResult.error("cannot read '" + requested + "': " + e.getClass().getSimpleName());
        }
        boolean truncated = bytes.length > MAX_BYTES;
        int end = truncated ? characterBoundary(bytes, MAX_BYTES) : bytes.length;
        String text;
        try {
            text = decode(bytes, end);
        } catch (CharacterCodingException e) {
            return SkillResult.error("cannot read '" + requested + "': it looks like a binary file (not UTF-8 text); "
                    + "read_file reads text files only");
        }
        if (size == 0) {
            return SkillResult.ok("('" + requested + "' is empty)");
        }
        if (truncated) {
            text += "\n\n[read_file: '" + requested + "' is " + size + " bytes; only the first " + end + " are shown]";
        }
        return SkillResult.ok(text);
    }

    /** The largest index at most {@code limit} that does not split a UTF-8 sequence. */
    private static int characterBoundary(byte[] bytes, int limit) {
        int end = limit;
        while (end > 0 && end > limit - 4 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return end;
    }

    private static String decode(byte[] bytes, int end) throws CharacterCodingException {
        for (int i = 0; i < end; i++) {
            if (bytes[i] == 0) {
                throw new CharacterCodingException();
            }
        }
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, 0, end))
                .toString();
    }

    /** Read-only: it reads only. */
    @Override
    public dev.threadline.core.skill.SkillPolicy policy() {
        return dev.threadline.core.skill.SkillPolicy.DEFAULT.withEffect(dev.threadline.core.skill.Effect.READ_ONLY);
    }
}
