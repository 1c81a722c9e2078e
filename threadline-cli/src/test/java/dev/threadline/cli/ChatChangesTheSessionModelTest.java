package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 5, in real {@code threadline chat} processes: {@code --model} on an existing session
 * changes its model (a journalled edit, said in one line), the base URL given with it is kept with the
 * session so a later chat without {@code --base-url} reaches the same server, a chat without
 * {@code --model} says which model applies, and the change is in the journal for export and rewind.
 */
class ChatChangesTheSessionModelTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    LocalChatCompletions server;
    List<JsonNode> requests;

    @BeforeEach
    void start() {
        server = new LocalChatCompletions(request -> {
            JsonNode messages = request.get("messages");
            String last = messages.get(messages.size() - 1).get("content").asText();
            return "{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"local model heard " + last + "\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":4}}";
        });
        requests = server.requests;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url() {
        return server.url();
    }

    private String db() {
        return dir.resolve("m.db").toString();
    }

    @Test
    void modelOnAnExistingSessionChangesItsModelAndTheBaseUrlIsKeptWithIt() {
        CliChild cli = new CliChild(dir);
        CliTest.Run created = cli.run(new String[] {"what is 1+1", "/exit"}, "chat", "--model", "scripted", "--db", db(),
                "--session", "s1");
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out()).contains("model: scripted").contains("assistant: 1+1 = 2");

        CliTest.Run switched = cli.run(new String[] {"hello", "/exit"}, "chat", "--model", "openai:test-model", "--base-url", url(),
                "--db", db(), "--session", "s1");
        assertThat(switched.code()).as(switched.err()).isZero();
        assertThat(switched.out()).contains("model: openai:test-model at " + url() + " - session s1 now uses it (was scripted;")
                .contains("assistant: local model heard hello");
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).get("model").asText()).isEqualTo("test-model");

        CliTest.Run resumed = cli.run(new String[] {"again", "/exit"}, "chat", "--db", db(), "--session", "s1");
        assertThat(resumed.code()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("model: openai:test-model at " + url() + " - this session's model")
                .contains("assistant: local model heard again").doesNotContain("offline demo");
        assertThat(requests).hasSize(2); // the same server, though this chat named no base URL

        CliTest.Run back = cli.run(new String[] {"what is 2+3", "/exit"}, "chat", "--model", "scripted", "--db", db(),
                "--session", "s1");
        assertThat(back.code()).as(back.err()).isZero();
        assertThat(back.out()).contains("model: scripted - session s1 now uses it (was openai:test-model at " + url())
                .contains("assistant: 2+3 = 5");
        assertThat(requests).hasSize(2);

        CliTest.Run export = cli.run("sessions", "export", "s1", "--db", db());
        assertThat(export.code()).isZero();
        assertThat(export.out()).contains("\"StateEdited\"").contains("\"set_model\"").contains("\"threadline chat\"");
        CliTest.Run show = cli.run("sessions", "show", "s1", "--db", db());
        assertThat(show.out()).contains("model    scripted ");
    }

    @Test
    void theSameModelAgainChangesNothingAndKeepsTheSavedBaseUrl() {
        CliChild cli = new CliChild(dir);
        assertThat(cli.run(new String[] {"one", "/exit"}, "chat", "--model", "openai:test-model", "--base-url", url(),
                "--db", db(), "--session", "s2").code()).isZero();

        CliTest.Run same = cli.run(new String[] {"two", "/exit"}, "chat", "--model", "openai:test-model", "--db", db(),
                "--session", "s2");
        assertThat(same.code()).as(same.err()).isZero();
        assertThat(same.out()).contains("model: openai:test-model at " + url()).doesNotContain("now uses")
                .contains("assistant: local model heard two");
        assertThat(requests).hasSize(2);
        assertThat(cli.run("sessions", "export", "s2", "--db", db()).out()).doesNotContain("StateEdited");
    }

    /** Regression: {@code threadline serve} resolved a session's model without its saved base URL, so the turn failed. */
    @Test
    void aSessionsSavedBaseUrlAppliesUnderServe() throws Exception {
        CliChild cli = new CliChild(dir);
        assertThat(cli.run(new String[] {"one", "/exit"}, "chat", "--model", "openai:test-model", "--base-url", url(),
                "--db", db(), "--session", "s3").code()).isZero();
        assertThat(requests).hasSize(1);

        try (ServeProcess server = new ServeProcess(Path.of(db()))) {
            ServeProcess.Response turn = server.send(server.createdKey, "POST", "/v1/sessions/s3/messages", "{\"text\":\"over http\"}");
            assertThat(turn.status()).as(turn.body()).isEqualTo(200);
            assertThat(turn.body()).contains("local model heard over http");
        }
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1).get("model").asText()).isEqualTo("test-model");
    }
}
