package dev.threadline.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.harness.docs.DocSnippets;
import dev.threadline.mcp.McpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP snippet of docs/integrations.md is the code below, compiled and run against the npm reference servers
 * as real processes: server-filesystem over stdio (the installed copy, run by node rather than fetched by npx)
 * and server-everything over streamable HTTP.
 */
class IntegrationsDocTest {
    @Test
    void theDocsSnippetIsThisCompiledCode() throws Exception {
        DocSnippets.assertSnippetIsCompiled("mcp", Path.of("src/test/java/dev/threadline/mcp/IntegrationsDocTest.java"));
    }

    @Test
    void theSnippetsTurnCallsAToolOfEachServer(@TempDir Path dir) throws Exception {
        Path data = dir.toRealPath();
        Files.writeString(data.resolve("report.txt"), "q3 numbers");
        String fsCommand = "node";
        List<String> fsArgs = List.of(ReferenceServers.script("server-filesystem"), data.toString());
        StateStore store = new InMemoryStateStore();
        List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        List<ChatResponse> replies = List.of(
                ScriptedModel.toolUse("t1", "fs_list_directory", "{\"path\":\"" + data + "\"}"),
                ScriptedModel.toolUse("t2", "web_echo", "{\"message\":\"from the web server\"}"),
                ScriptedModel.text("It holds report.txt."));
        ChatModel model = ScriptedModel.of(request -> {
            requests.add(request);
            return replies.get(requests.size() - 1);
        });
        try (var everything = ReferenceServers.HttpEverything.start()) {
            String webUrl = everything.url();
            // snippet: mcp
            // fsCommand, fsArgs: how the stdio server starts, e.g. "npx" and
            //     List.of("-y", "@modelcontextprotocol/server-filesystem", "/srv/data")
            // webUrl: the streamable HTTP server's endpoint, e.g. "http://127.0.0.1:3001/mcp"
            try (McpServer fs = McpServer.stdio("fs", fsCommand, fsArgs);
                 McpServer web = McpServer.http("web", webUrl);
                 Threadline tl = Threadline.builder().store(store).model(model)
                         .skills(fs.skills()).skills(web.skills()).build()) {
                tl.tenant("acme").create("s1", SessionConfig.DEFAULT).submit("what is in my data folder?");
            }
            // end snippet
        }
        assertThat(requests).hasSize(3);
        List<String> results = requests.getLast().messages().stream().flatMap(m -> m.content().stream())
                .filter(ContentBlock.ToolResult.class::isInstance).map(ContentBlock.ToolResult.class::cast)
                .peek(r -> assertThat(r.isError()).as(r.content()).isFalse()).map(ContentBlock.ToolResult::content).toList();
        assertThat(results).hasSize(2);
        assertThat(results.getFirst()).contains("report.txt");
        assertThat(results.getLast()).contains("from the web server");
        assertThat(requests.getFirst().tools()).extracting(t -> t.name()).contains("fs_list_directory", "web_echo");
    }
}
