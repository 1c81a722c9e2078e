package dev.threadline.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Streamable HTTP against the reference server as a real process, and MCP skills in a Threadline turn. */
class HttpServerAndRuntimeTest {

    @Test
    void streamableHttpServerToolsAnswer() throws Exception {
        try (var server = ReferenceServers.HttpEverything.start();
             McpServer http = McpServer.http("web", server.url())) {
            assertThat(http.skills()).extracting(s -> s.name()).contains("web_echo");
            assertThat(StdioServersTest.call(StdioServersTest.skill(http, "web_echo"), "{\"message\":\"over http\"}",
                    Duration.ofSeconds(30)).content()).contains("over http");
        }
    }

    @Test
    void nothingListeningThereFailsToConnectWithTheName() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        assertThatThrownBy(() -> McpServer.http("gone", "http://127.0.0.1:" + port + "/mcp"))
                .isInstanceOf(ThreadlineException.class).hasMessageContaining("'gone'");
    }

    @Test
    void aTurnCallsAnMcpSkill() {
        try (McpServer everything = McpServer.parse("everything=node " + ReferenceServers.script("server-everything") + " stdio");
             Threadline tl = Threadline.builder().store(new InMemoryStateStore()).skills(everything.skills())
                     .model(ScriptedModel.replies(
                             ScriptedModel.toolUse("t1", "everything_get-sum", "{\"a\":20,\"b\":22}"),
                             ScriptedModel.text("It is 42.")))
                     .build()) {
            var session = tl.tenant("acme").create("s1", SessionConfig.DEFAULT);
            session.submit("what is 20 + 22?");
            List<Message> transcript = session.state().messages();
            assertThat(transcript.toString()).contains("42");
            assertThat(transcript).anySatisfy(m -> assertThat(m.content()).anySatisfy(b ->
                    assertThat(b).isInstanceOf(ContentBlock.ToolResult.class)));
        }
    }

    @Test
    void theCliSpecIsSplitLikeAShellLine() {
        assertThat(Words.split("node  'my server.js' --root \"/a b\" x")).containsExactly("node", "my server.js", "--root", "/a b", "x");
        assertThatThrownBy(() -> McpServer.parse("no-equals-sign")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> McpServer.parse("name=  ")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> McpServer.parse("bad name=node x")).isInstanceOf(InvalidInputException.class);
    }
}
