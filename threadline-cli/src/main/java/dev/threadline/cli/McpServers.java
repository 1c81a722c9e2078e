package dev.threadline.cli;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.skill.Skill;
import dev.threadline.mcp.McpServer;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** The MCP servers of {@code chat --mcp}, started before the runtime and closed after it. Not thread-safe. */
final class McpServers implements AutoCloseable {
    private final List<McpServer> servers = new ArrayList<>();

    private McpServers() {}

    /**
     * Starts every server of {@code specs} (see {@link McpServer#parse}); when one fails, those started are
     * closed again.
     *
     * @throws ParameterException naming the spec when one is malformed or its server cannot be reached
     */
    static McpServers start(List<String> specs, CommandLine cli) {
        McpServers started = new McpServers();
        for (String spec : specs) {
            try {
                started.servers.add(McpServer.parse(spec));
            } catch (ThreadlineException e) {
                started.close();
                throw new ParameterException(cli, "--mcp '" + spec + "': " + e.getMessage());
            }
        }
        return started;
    }

    /** The skills of every server, in the order given. */
    List<Skill> skills() {
        return servers.stream().flatMap(s -> s.skills().stream()).toList();
    }

    /** One line per server: its name and the skills it brought. */
    void describe(java.io.PrintWriter out) {
        for (McpServer s : servers) {
            out.println("MCP server '" + s.name() + "': " + s.skills().size() + " tools ("
                    + String.join(", ", s.skills().stream().map(Skill::name).toList()) + ")");
        }
    }

    @Override
    public void close() {
        servers.forEach(McpServer::close);
    }
}
