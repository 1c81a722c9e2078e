package dev.threadline.cli;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.runtime.Threadline;
import dev.threadline.core.skill.builtin.Builtins;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code threadline chat}: a REPL on one session; scripted when stdin is not a terminal. */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = {"Chat with an agent whose every step is journalled.",
                "Reads one line per input when stdin is not a terminal, so it can be scripted."})
final class ChatCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--session", paramLabel = "ID", description = "open this session, or create it (default: a new one)")
    String sessionId;

    @Option(names = "--model", paramLabel = "NAME", defaultValue = "scripted",
            description = "the model (default: ${DEFAULT-VALUE}, the offline demo model)")
    String model;

    @Option(names = "--workspace", paramLabel = "DIR", description = "folder read_file and list_files may read (default: the current folder)")
    Path workspace;

    @Spec
    CommandSpec spec;

    @ParentCommand
    Main main;

    @Override
    public Integer call() throws Exception {
        ChatModel chatModel = switch (model) {
            case "scripted" -> ScriptedModel.demo();
            default -> throw new ParameterException(spec.commandLine(),
                    "unknown model '" + model + "'; this build offers: scripted");
        };
        Path ws = (workspace != null ? workspace : Path.of("")).toAbsolutePath().normalize();
        PrintWriter out = spec.commandLine().getOut();
        try (Threadline tl = Threadline.builder().store(store.open()).model(chatModel).skills(Builtins.all(ws)).build();
             LineInput input = LineInput.open(main.in)) {
            SessionConfig config = SessionConfig.DEFAULT.withModel(chatModel.name());
            Repl repl = new Repl(tl, out, input, config, store.path());
            return repl.run(sessionId);
        }
    }
}
