package dev.threadline.examples.ecosystem;

import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.langchain4j.data.message.AiMessage;
import dev.threadline.adk.ThreadlineSessionService;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.langchain4j.ThreadlineChatMemory;
import dev.threadline.langgraph4j.ThreadlineSaver;
import dev.threadline.mcp.McpServer;
import dev.threadline.springai.ThreadlineChatMemoryRepository;
import dev.threadline.store.sqlite.SqliteStateStore;
import io.reactivex.rxjava3.core.Flowable;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.AsyncNodeAction;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Threadline, Google ADK, the MCP SDK, LangChain4j, Spring AI and LangGraph4j on one class path (its
 * build runs the enforcer's dependencyConvergence), all on one runtime and one SQLite file: an ADK
 * runner, a LangChain4j memory, a Spring AI memory, a LangGraph4j saver and a Threadline turn that calls
 * an MCP server's tool (argument validation through the json-schema-validator that Threadline, ADK and
 * the MCP SDK share). Offline: every model is local.
 *
 * <p>Arguments: a folder (default: a new temporary one), then the command line of the MCP reference
 * server {@code server-everything} (default: {@code npx -y @modelcontextprotocol/server-everything}).
 */
public final class Main {

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-ecosystem");
        List<String> everything = args.length > 1 ? Arrays.asList(args).subList(1, args.length)
                : List.of("npx", "-y", "@modelcontextprotocol/server-everything");
        System.out.println("on the class path: " + jar(com.google.adk.runner.Runner.class) + ", "
                + jar(io.modelcontextprotocol.spec.McpSchema.class) + ", " + jar(com.networknt.schema.Schema.class) + ", "
                + jar(dev.langchain4j.memory.ChatMemory.class) + ", " + jar(org.springframework.ai.chat.memory.ChatMemory.class) + ", "
                + jar(org.bsc.langgraph4j.StateGraph.class) + ", " + jar(com.fasterxml.jackson.databind.ObjectMapper.class) + ", "
                + jar(tools.jackson.databind.ObjectMapper.class));

        List<String> serverArgs = new java.util.ArrayList<>(everything.subList(1, everything.size()));
        serverArgs.add("stdio");
        try (McpServer mcp = McpServer.stdio("everything", everything.getFirst(), serverArgs);
             Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("all.db")))
                     .model(ScriptedModel.replies(ScriptedModel.toolUse("call-1", "everything_get-sum", "{\"a\":20,\"b\":22}"),
                             ScriptedModel.text("MCP says 42")))
                     .skills(mcp.skills()).build()) {
            Tenant acme = tl.tenant("acme");

            // a Threadline turn calling an MCP tool, its arguments validated against the tool's JSON Schema
            System.out.println("threadline + mcp: " + acme.create("mcp-turn", SessionConfig.DEFAULT).submit("add 20 and 22").reply());

            // Google ADK: its Runner on Threadline sessions (the app is the tenant)
            LlmAgent agent = LlmAgent.builder().name("echo").model(new Echo()).instruction("Repeat.").build();
            ThreadlineSessionService sessions = new ThreadlineSessionService(tl);
            sessions.createSession("acme", "ada", Map.of(), "adk-session").blockingGet();
            StringBuilder adk = new StringBuilder();
            new Runner(agent, "acme", new InMemoryArtifactService(), sessions)
                    .runAsync("ada", "adk-session", Content.fromParts(Part.fromText("hi ADK")))
                    .blockingForEach(e -> adk.append(e.finalResponse() ? e.stringifyContent() : ""));
            System.out.println("adk: " + adk);

            // LangChain4j: Threadline's ChatMemory
            var lc4j = ThreadlineChatMemory.builder(acme).id("lc4j-memory").build();
            lc4j.add(dev.langchain4j.data.message.UserMessage.from("hi LangChain4j"));
            lc4j.add(AiMessage.from("hello from LangChain4j"));
            System.out.println("langchain4j: " + lc4j.messages().size() + " messages");

            // Spring AI: its window memory over Threadline's repository
            var spring = MessageWindowChatMemory.builder().chatMemoryRepository(new ThreadlineChatMemoryRepository(acme)).build();
            spring.add("spring-memory", List.of(new UserMessage("hi Spring AI"), new AssistantMessage("hello from Spring AI")));
            System.out.println("spring ai: " + spring.get("spring-memory").size() + " messages");

            // LangGraph4j: a one-node graph checkpointed by Threadline's saver
            var graph = new StateGraph<>(MessagesState.SCHEMA, new ObjectStreamStateSerializer<MessagesState<String>>(MessagesState::new))
                    .addNode("greet", AsyncNodeAction.node_async(s -> Map.of("messages", "hello from LangGraph4j")))
                    .addEdge(StateGraph.START, "greet").addEdge("greet", StateGraph.END);
            var app = graph.compile(CompileConfig.builder().checkpointSaver(new ThreadlineSaver(acme, graph.getStateSerializer())).build());
            var state = app.invoke(Map.of("messages", "hi LangGraph4j"), RunnableConfig.builder().threadId("lg4j-thread").build()).orElseThrow();
            System.out.println("langgraph4j: " + state.messages());

            Map<String, Long> journals = new TreeMap<>();
            acme.sessions().items().forEach(s -> journals.put(s.info().id(), s.headSeq()));
            System.out.println("sessions of tenant acme in one store: " + journals.keySet());
        }
    }

    /** An ADK model that runs offline: repeats the last user text. */
    static final class Echo extends BaseLlm {
        Echo() {
            super("offline-echo");
        }

        @Override
        public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
            String said = request.contents().getLast().text();
            return Flowable.just(LlmResponse.builder().content(Content.builder().role("model")
                    .parts(List.of(Part.fromText("ADK heard: " + said))).build()).build());
        }

        @Override
        public BaseLlmConnection connect(LlmRequest request) {
            throw new UnsupportedOperationException("the offline model has no live connection");
        }
    }

    /** The file name of the jar a class was loaded from: which version of each library this class path holds. */
    private static String jar(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getFileName().toString();
    }
}
