package dev.threadline.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.memory.InMemoryMemoryService;
import com.google.adk.runner.Runner;
import dev.threadline.adk.ThreadlineSessionService;
import dev.threadline.core.Threadline;
import dev.threadline.harness.docs.DocSnippets;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ADK snippet of docs/integrations.md is the code below, compiled and run. */
class IntegrationsDocTest {
    @Test
    void theDocsSnippetIsThisCompiledCode() throws Exception {
        DocSnippets.assertSnippetIsCompiled("adk", Path.of("src/test/java/dev/threadline/adk/IntegrationsDocTest.java"));
    }

    @Test
    void theSnippetGivesAdksRunnerThreadlineSessions(@TempDir Path dir) {
        var agent = LlmAgent.builder().name("assistant").model("gemini-2.0-flash").instruction("Be brief.").build();
        var artifactService = new InMemoryArtifactService();
        var memoryService = new InMemoryMemoryService();
        // snippet: adk
        Threadline threadline = Threadline.builder().store(SqliteStateStore.open(dir.resolve("agents.db"))).build();
        var sessions = new ThreadlineSessionService(threadline);
        Runner runner = new Runner(agent, "my-app", artifactService, sessions, memoryService);
        // end snippet
        try (threadline) {
            assertThat(runner.sessionService()).isSameAs(sessions);
            sessions.createSession("my-app", "ann").blockingGet();
            assertThat(threadline.tenant("my-app").sessions().items()).hasSize(1);
        }
    }
}
