package dev.threadline.cli;

import dev.threadline.core.ThreadlineException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code threadline} command. */
@Command(name = "threadline", mixinStandardHelpOptions = true, version = "threadline 0.1.0",
        description = "A durable state runtime for LLM agents: sessions, an event journal, checkpoints.",
        subcommands = {ChatCommand.class, SessionsCommand.class, CommandLine.HelpCommand.class})
public final class Main {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (0 ok, 1 a refused operation, 2 bad usage). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof ThreadlineException) {
                cmd.getErr().println("threadline: " + ex.getMessage());
                return 1;
            }
            throw ex;
        });
        return cli.execute(args);
    }
}
