package dev.threadline.mcp;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.skill.Skill;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * A connection to one MCP server, through the official MCP Java SDK, whose tools are offered as
 * Threadline skills ({@link #skills()}): pass them to {@code Threadline.builder().skills(...)}, and close
 * the server after the runtime. A skill's call goes to the server with the call's deadline; a tool error,
 * a timeout or a server that died becomes an error result the model sees, never an exception.
 *
 * <p>Thread-safe: the skills may run concurrently (the SDK multiplexes requests on one connection).
 */
public final class McpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
    /** How long connecting and listing the tools may take. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

    private final String name;
    private final McpAsyncClient client;
    private final List<Skill> skills;
    /** Completes when the server is gone for good (a stdio server's process exited); never for HTTP. */
    private final Mono<Void> gone;

    private McpServer(String name, McpClientTransport transport, Mono<Void> gone) {
        this.gone = gone;
        this.name = checkName(name);
        this.client = McpClient.async(transport)
                .clientInfo(new McpSchema.Implementation("threadline", "0.1.0"))
                .initializationTimeout(CONNECT_TIMEOUT)
                .requestTimeout(Duration.ofHours(1)) // each call is bounded by its skill's deadline instead
                .build();
        try {
            Calls.unlessGone(client.initialize(), gone, name).block(CONNECT_TIMEOUT);
            this.skills = List.copyOf(listSkills());
        } catch (RuntimeException e) {
            client.close();
            throw new ThreadlineException("MCP server '" + name + "' could not be started: " + Calls.reason(e), e);
        }
    }

    /**
     * Starts {@code command} with {@code args} as a child process speaking MCP on its standard input and
     * output, and lists its tools.
     *
     * @throws ThreadlineException when the process cannot be started or does not answer as an MCP server
     * @throws InvalidInputException when the name is not a valid skill-name prefix
     */
    public static McpServer stdio(String name, String command, List<String> args) {
        return stdio(name, command, args, Map.of());
    }

    /**
     * Like {@link #stdio(String, String, List)}, with {@code env} added to the child's environment.
     *
     * @throws ThreadlineException when the process cannot be started or does not answer as an MCP server
     */
    public static McpServer stdio(String name, String command, List<String> args, Map<String, String> env) {
        ServerParameters params = ServerParameters.builder(Objects.requireNonNull(command, "command"))
                .args(List.copyOf(args)).env(Map.copyOf(env)).build();
        WatchedStdioTransport transport = new WatchedStdioTransport(params, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> LOG.debug("MCP server '{}' stderr: {}", name, line));
        return new McpServer(name, transport, transport.exited());
    }

    /**
     * Connects to the MCP server at {@code url} over streamable HTTP, and lists its tools.
     *
     * @throws ThreadlineException when nothing answers there as an MCP server
     */
    public static McpServer http(String name, String url) {
        var transport = HttpClientStreamableHttpTransport.builder(Objects.requireNonNull(url, "url")).build();
        return new McpServer(name, transport, Mono.never());
    }

    /**
     * A server from the CLI's {@code --mcp} text: {@code name=command arg…} (a process over stdio; words
     * split on spaces, with single or double quotes around a word that holds spaces) or
     * {@code name=http://…} / {@code name=https://…} (streamable HTTP).
     *
     * @throws InvalidInputException when the text has no name or no command
     * @throws ThreadlineException   when the server cannot be reached
     */
    public static McpServer parse(String spec) {
        int eq = spec == null ? -1 : spec.indexOf('=');
        if (eq <= 0) {
            throw new InvalidInputException("--mcp", "expected name=command args… or name=http://…, got '" + spec + "'");
        }
        String name = spec.substring(0, eq).trim();
        List<String> words = Words.split(spec.substring(eq + 1));
        if (words.isEmpty()) {
            throw new InvalidInputException("--mcp", "no command after '" + name + "='");
        }
        String first = words.getFirst();
        if (words.size() == 1 && (first.startsWith("http://") || first.startsWith("https://"))) {
            return http(name, first);
        }
        return stdio(name, first, words.subList(1, words.size()));
    }

    /** The name given to this server; its skills are named {@code <name>_<tool>}. */
    public String name() {
        return name;
    }

    /** One skill per tool the server listed when it connected, with the tool's input schema. */
    public List<Skill> skills() {
        return skills;
    }

    /** Closes the connection (and stops a stdio server's process); later calls of its skills are error results. */
    @Override
    public void close() {
        try {
            client.closeGracefully().block(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            client.close();
        }
    }

    private List<Skill> listSkills() {
        List<Skill> out = new ArrayList<>();
        String cursor = null;
        do {
            McpSchema.ListToolsResult page = Calls.unlessGone(client.listTools(cursor), gone, name).block(CONNECT_TIMEOUT);
            for (McpSchema.Tool tool : page.tools()) {
                out.add(new McpToolSkill(this.name, tool, client, gone));
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    private static String checkName(String name) {
        if (name == null || !name.matches("[a-zA-Z0-9_-]{1,32}")) {
            throw new InvalidInputException("mcp server name", "'" + name + "' must match [a-zA-Z0-9_-]{1,32}");
        }
        return name;
    }
}
