package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.server.keys.KeyStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ThreadlineServer.start(Threadline, ServerConfig)}: a runtime the caller built, served, and still the caller's after. */
class ServesACallersRuntimeTest {
    @TempDir
    Path dir;

    /** A skill the server does not have: upper-cases its {@code text}. */
    private static final Skill SHOUT = new Skill() {
        @Override
        public String name() {
            return "shout";
        }

        @Override
        public String description() {
            return "upper-cases text";
        }

        @Override
        public JsonNode inputSchema() {
            return Json.parse("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}", "schema");
        }

        @Override
        public SkillResult execute(ExecutionContext c) {
            return SkillResult.ok(c.arguments().path("text").asText().toUpperCase(Locale.ROOT));
        }
    };

    /** Calls {@code shout} with the user's text, then repeats its result. */
    private static final ChatModel MODEL = ScriptedModel.of(req -> {
        Message last = req.messages().getLast();
        if (!last.toolResults().isEmpty()) {
            return ScriptedModel.text("shouted " + last.toolResults().getFirst().content());
        }
        return ScriptedModel.toolUse("s" + req.messages().size(), "shout", Json.object().put("text", last.text()).toString());
    });

    @Test
    void servesTheCallersRuntimeAndLeavesItOpenWhenClosed() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("own.db")).model(MODEL).skill(SHOUT).build()) {
            ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.ofStore("memory:").withPort(0));
            try {
                Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
                assertThat(http.post("/v1/sessions", "{\"id\":\"own-1\"}").status()).isEqualTo(201);
                Http.Response turn = http.post("/v1/sessions/own-1/messages", "{\"text\":\"hello\"}");
                assertThat(turn.status()).isEqualTo(200);
                assertThat(turn.json().path("reply").asText()).isEqualTo("shouted HELLO");

                Session seen = runtime.defaultTenant().find("own-1").orElseThrow(); // the very runtime the caller holds
                assertThat(seen.state().messages().getLast().text()).isEqualTo("shouted HELLO");
                assertThat(runtime.tenant(KeyStore.TENANT).find("api-keys")).as("the keys live in the runtime's store").isPresent();
            } finally {
                server.close();
            }
            assertThat(runtime.defaultTenant().open("own-1").submit("again").reply()).isEqualTo("shouted AGAIN");
        }
    }

    @Test
    void keysOutliveTheServerInTheCallersStore() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("keys.db")).model(MODEL).build()) {
            ThreadlineServer first = ThreadlineServer.start(runtime, ServerConfig.ofStore("memory:").withPort(0));
            String secret = first.createdKey().orElseThrow().secret();
            first.close();
            ThreadlineServer second = ThreadlineServer.start(runtime, ServerConfig.ofStore("memory:").withPort(0));
            try {
                assertThat(second.createdKey()).as("the store already has a valid key").isEmpty();
                assertThat(new Http(second.url(), secret).get("/v1/sessions").status()).isEqualTo(200);
            } finally {
                second.close();
            }
        }
    }

    @Test
    void refusesAConfigThatSetsWhatTheRuntimeOwns() {
        try (Threadline runtime = Threadline.demoBuilder().build()) {
            ServerConfig base = ServerConfig.ofStore("memory:").withPort(0);
            for (ServerConfig contradicting : List.of(base.withModels(spec -> java.util.Optional.of(MODEL)), base.withSkills(List.of(SHOUT)),
                    base.withWorkspace(dir))) {
                assertThatThrownBy(() -> ThreadlineServer.start(runtime, contradicting))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Threadline.builder()");
            }
        }
    }
}
