package dev.threadline.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.ArgumentValidator;
import dev.threadline.core.skill.SimpleExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reference servers from npm, started as real processes over stdio. */
class StdioServersTest {
    private static McpServer everything;

    @BeforeAll
    static void start() {
        everything = McpServer.stdio("everything", "node", List.of(ReferenceServers.script("server-everything"), "stdio"));
    }

    @AfterAll
    static void stop() {
        everything.close();
    }

    static Skill skill(McpServer server, String name) {
        return server.skills().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(() ->
                new AssertionError(name + " not among " + server.skills().stream().map(Skill::name).toList()));
    }

    static SkillResult call(Skill skill, String args, Duration within) throws Exception {
        JsonNode arguments = Json.parse(args, "args");
        assertThat(new ArgumentValidator().validate(skill, arguments)).isEmpty();
        return skill.execute(SimpleExecutionContext.of("s1", "call-1", arguments, Map.of(), Instant.now().plus(within)));
    }

    @Test
    void everyToolIsARegistrableSkillWithItsSchema() {
        ArgumentValidator validator = new ArgumentValidator();
        assertThat(everything.skills()).extracting(Skill::name).contains("everything_echo", "everything_get-sum");
        assertThat(everything.skills()).allSatisfy(s -> assertThat(validator.check(s)).as(s.name()).isEmpty());
        Skill sum = skill(everything, "everything_get-sum");
        assertThat(sum.inputSchema().at("/properties/a/type").asText()).isEqualTo("number");
        assertThat(sum.description()).isEqualTo("Returns the sum of two numbers");
        assertThat(validator.validate(sum, Json.parse("{\"a\":1}", "x"))).containsExactly("$.b: is missing but it is required");
        assertThat(sum.policy().effect()).isEqualTo(dev.threadline.core.skill.Effect.READ_ONLY); // readOnlyHint
    }

    @Test
    void toolsAnswer() throws Exception {
        SkillResult echo = call(skill(everything, "everything_echo"), "{\"message\":\"hi there\"}", Duration.ofSeconds(30));
        assertThat(echo.isError()).isFalse();
        assertThat(echo.content()).contains("hi there");
        SkillResult sum = call(skill(everything, "everything_get-sum"), "{\"a\":2,\"b\":3}", Duration.ofSeconds(30));
        assertThat(sum.isError()).isFalse();
        assertThat(sum.content()).contains("5");
        SkillResult image = call(skill(everything, "everything_get-tiny-image"), "{}", Duration.ofSeconds(30));
        assertThat(image.content()).contains("[image image/png").doesNotContain("iVBOR");
    }

    @Test
    void aToolErrorIsAnErrorResult() throws Exception {
        SkillResult r = call(skill(everything, "everything_get-resource-reference"),
                "{\"resourceType\":\"Text\",\"resourceId\":-1}", Duration.ofSeconds(30));
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).isNotBlank();
    }

    @Test
    void aCallPastItsDeadlineIsAnErrorResult() throws Exception {
        SkillResult r = call(skill(everything, "everything_trigger-long-running-operation"),
                "{\"duration\":20,\"steps\":2}", Duration.ofMillis(500));
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).contains("did not answer").contains("within");
        // the connection still serves other calls
        assertThat(call(skill(everything, "everything_echo"), "{\"message\":\"still here\"}", Duration.ofSeconds(30))
                .content()).contains("still here");
    }

    @Test
    void theFilesystemServerReadsAndWritesOnlyItsDirectory(@TempDir Path dir) throws Exception {
        Path root = dir.toRealPath();
        try (McpServer fs = McpServer.stdio("fs", "node", List.of(ReferenceServers.script("server-filesystem"), root.toString()))) {
            Path file = root.resolve("note.txt");
            SkillResult wrote = call(skill(fs, "fs_write_file"),
                    Json.write(Map.of("path", file.toString(), "content", "hello from threadline")), Duration.ofSeconds(30));
            assertThat(wrote.isError()).as(wrote.content()).isFalse();
            assertThat(Files.readString(file)).isEqualTo("hello from threadline");
            assertThat(skill(fs, "fs_write_file").policy().effect()).isEqualTo(dev.threadline.core.skill.Effect.SIDE_EFFECT);
            assertThat(call(skill(fs, "fs_read_text_file"), Json.write(Map.of("path", file.toString())), Duration.ofSeconds(30))
                    .content()).isEqualTo("hello from threadline");
            SkillResult outside = call(skill(fs, "fs_read_text_file"), Json.write(Map.of("path", "/etc/hostname")),
                    Duration.ofSeconds(30));
            assertThat(outside.isError()).isTrue();
            assertThat(outside.content()).containsIgnoringCase("denied");
        }
    }

    @Test
    void aServerThatDiedGivesErrorResults(@TempDir Path dir) throws Exception {
        String script = ReferenceServers.script("server-filesystem");
        String root = dir.toRealPath().toString();
        McpServer fs = McpServer.stdio("dying", "node", List.of(script, root));
        try {
            // the server's own process, found by the directory only it was given, ended by its pid
            ProcessHandle child = ProcessHandle.current().descendants()
                    .filter(p -> p.info().arguments().map(a -> List.of(a).contains(root)).orElse(false))
                    .findFirst().orElseThrow();
            child.destroyForcibly();
            child.onExit().get();
            SkillResult r = call(skill(fs, "dying_list_allowed_directories"), "{}", Duration.ofSeconds(10));
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).contains("MCP server 'dying'");
        } finally {
            fs.close();
        }
        SkillResult afterClose = call(skill(fs, "dying_list_allowed_directories"), "{}", Duration.ofSeconds(10));
        assertThat(afterClose.isError()).isTrue();
    }

    @Test
    void aCommandThatIsNoServerFailsToStartWithItsName() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> McpServer.stdio("nope", "node", List.of("-e", "process.exit(3)")))
                .isInstanceOf(dev.threadline.core.error.ThreadlineException.class).hasMessageContaining("'nope'");
    }
}
