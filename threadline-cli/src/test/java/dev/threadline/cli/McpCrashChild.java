package dev.threadline.cli;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.StateStores;
import dev.threadline.mcp.McpServer;
import java.time.Duration;
import java.util.List;

/**
 * The child of {@link McpCrashPointTest}: a runtime on the store URL {@code args[0]} with the tools of the
 * npm reference server {@code server-everything} (its entry script {@code args[1]}) over stdio, and a model
 * that answers {@code echo X} with a call of {@code everything_echo}; it submits {@code echo crash-canary} to
 * session {@code s1}. Armed with {@code mcp.during-call}, it halts once the server has answered.
 */
public final class McpCrashChild {
    private McpCrashChild() {}

    /** The scripted model of both sides: {@code echo X} calls the server's echo tool; a tool's result gets "done"; else "re:". */
    static ScriptedModel model() {
        return ScriptedModel.of(req -> {
            Message last = req.messages().get(req.messages().size() - 1);
            if (!last.toolResults().isEmpty()) {
                return ScriptedModel.text("done: " + last.toolResults().get(0).content());
            }
            String text = last.text();
            return text.startsWith("echo ") ? ScriptedModel.toolUse("tu-echo", "everything_echo", "{\"message\":\"" + text.substring(5) + "\"}")
                    : ScriptedModel.text("re: " + text);
        });
    }

    /** Runs the child: {@code <store URL> <server-everything script>}. */
    public static void main(String[] args) {
        try (McpServer everything = McpServer.stdio("everything", "node", List.of(args[1], "stdio"));
             Threadline tl = Threadline.builder().store(StateStores.open(args[0])).model(model())
                     .skills(everything.skills()).leaseTtl(Duration.ofSeconds(1)).build()) {
            System.out.println("REPLY " + tl.defaultTenant().openOrCreate("s1", SessionConfig.DEFAULT).submit("echo crash-canary").reply());
        }
        System.exit(0);
    }
}
