package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.context.ContextRecall;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A create's (or {@code serve --config}'s) {@code config} object over the server's defaults: each field
 * given changes its setting, every other one keeps the default's, recall included.
 */
class SessionConfigFieldsTest {
    private static final SessionConfig DEFAULTS = SessionConfig.DEFAULT.withModel("scripted", "http://127.0.0.1:11434/v1")
            .withRecall(4, 1_500).withSystemPrompt("be brief");

    private static SessionConfig config(String json) {
        JsonBody body = JsonBody.parse(("{\"config\": " + json + "}").getBytes(StandardCharsets.UTF_8), java.util.Set.of("config"))
                .object("config", SessionRoutes.CONFIG);
        return SessionRoutes.config(body, Limits.DEFAULT, DEFAULTS);
    }

    /** Regression: building the config anew from the fields dropped the defaults' base URL and recall. */
    @Test
    void aConfigWithOtherFieldsKeepsTheDefaultsBaseUrlAndRecall() {
        SessionConfig c = config("{\"maxIterations\": 3, \"skills\": [\"calculate\"]}");
        assertThat(c.maxIterations()).isEqualTo(3);
        assertThat(c.skills()).containsExactly("calculate");
        assertThat(c.baseUrl()).isEqualTo("http://127.0.0.1:11434/v1");
        assertThat(c.recall()).isEqualTo(new ContextRecall(4, 1_500));
        assertThat(c.systemPrompt()).isEqualTo("be brief");
        assertThat(c.withMaxIterations(DEFAULTS.maxIterations()).withSkills(DEFAULTS.skills())).isEqualTo(DEFAULTS);
    }

    @Test
    void recallIsSetChangedOrTurnedOff() {
        assertThat(config("{\"recall\": {\"k\": 7, \"tokenBudget\": 900}}").recall()).isEqualTo(new ContextRecall(7, 900));
        assertThat(config("{\"recall\": null}").recall()).isNull();
        assertThat(config("{\"model\": \"scripted\"}").recall()).isEqualTo(DEFAULTS.recall());
        assertThat(config("{\"baseUrl\": \"https://models.example.com/v1\"}").baseUrl()).isEqualTo("https://models.example.com/v1");
    }

    @Test
    void aBadRecallIsRefusedNamingTheField() {
        assertThatThrownBy(() -> config("{\"recall\": {\"k\": 0, \"tokenBudget\": 900}}")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).field()).isEqualTo("config.recall.k"));
        assertThatThrownBy(() -> config("{\"recall\": {\"k\": 3}}")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).field()).isEqualTo("config.recall.tokenBudget"))
                .hasMessageContaining("is required");
        assertThatThrownBy(() -> config("{\"recall\": {\"k\": 3, \"tokenBudget\": 10, \"mode\": \"x\"}}"))
                .isInstanceOf(ApiException.class).hasMessageContaining("tokenBudget")
                .satisfies(e -> assertThat(((ApiException) e).field()).isEqualTo("config.recall.mode"));
        assertThatThrownBy(() -> config("{\"recall\": 5}")).isInstanceOf(ApiException.class)
                .hasMessageContaining("must be an object");
        assertThatThrownBy(() -> config("{\"recall\": {\"k\": 3, \"tokenBudget\": 100001}}")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).field()).isEqualTo("config.recall.tokenBudget"));
    }
}
