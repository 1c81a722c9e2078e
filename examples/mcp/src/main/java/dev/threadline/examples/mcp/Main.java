package dev.threadline.examples.mcp;

import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.Skill;
import dev.threadline.mcp.McpServer;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The tools of an MCP server as Threadline skills: the reference filesystem server
 * ({@code @modelcontextprotocol/server-filesystem}, started as a child process over stdio) serves a
 * folder; a turn of a Threadline runtime calls its {@code read_text_file} tool and answers with the
 * file's text. The model is scripted (offline): it asks for the file, then reports what the tool returned.
 *
 * <p>Arguments: a folder (default: a new temporary one), then the server's command line (default:
 * {@code npx -y @modelcontextprotocol/server-filesystem}); the folder is appended as the one directory the
 * server may read.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        Path dir = (args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-mcp")).toRealPath();
        List<String> command = args.length > 1 ? Arrays.asList(args).subList(1, args.length)
                : List.of("npx", "-y", "@modelcontextprotocol/server-filesystem");
        Path served = Files.createDirectories(dir.resolve("served"));
        Path notes = Files.writeString(served.resolve("notes.txt"), "buy milk");

        ScriptedModel model = ScriptedModel.of(request -> {
            Message last = request.messages().getLast();
            if (last.toolResults().isEmpty()) {
                return ScriptedModel.toolUse("call-1", "fs_read_text_file", "{\"path\":\"" + notes + "\"}");
            }
            ContentBlock.ToolResult result = last.toolResults().getFirst();
            return ScriptedModel.text(result.isError() ? "The tool failed: " + result.content() : "The file says: " + result.content());
        });

        List<String> serverArgs = new java.util.ArrayList<>(command.subList(1, command.size()));
        serverArgs.add(served.toString());
        try (McpServer fs = McpServer.stdio("fs", command.getFirst(), serverArgs);
             Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("agents.db")))
                     .model(model).skills(fs.skills()).build()) {
            List<String> names = fs.skills().stream().map(Skill::name).sorted().toList();
            System.out.println("skills from the MCP server: " + names.size() + ", among them "
                    + names.stream().filter(n -> n.equals("fs_read_text_file") || n.equals("fs_list_directory")).toList());
            Session s = tl.tenant("acme").create("s1", SessionConfig.DEFAULT);
            TurnResult r = s.submit("what is in notes.txt?");
            System.out.println("reply: " + r.reply());
            System.out.println("journalled tool calls: " + s.state().messages().stream().flatMap(m -> m.toolUses().stream())
                    .map(ContentBlock.ToolUse::name).toList());
        }
    }
}
