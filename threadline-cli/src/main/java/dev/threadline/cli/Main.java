package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.ThreadlineException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code threadline} command. Exit codes: 0 done, 1 a refused operation or a failed model call,
 * 2 bad usage (one line naming what is wrong, and a hint where to look). See docs/cli.md.
 */
@Command(name = "threadline", mixinStandardHelpOptions = true, version = "threadline 0.1.0",
        description = "A durable state runtime for LLM agents: sessions, an event journal, checkpoints.",
        subcommands = {ChatCommand.class, SessionsCommand.class, ExportCommand.class, ImportCommand.class, ServeCommand.class, KeysCommand.class,
                BackupCommand.class, RestoreCommand.class, EraseCommand.class, HoldsCommand.class, WebhooksCommand.class,
                BenchCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 done, 1 refused or a model call failed, 2 bad usage. Every command and option: docs/cli.md."})
public final class Main {
    /** The fields a refused store URL names ({@code StateStores.open}, {@link StoreOptions#url}): bad usage, not a refusal. */
    private static final java.util.Set<String> STORE_FIELDS = java.util.Set.of("store", "--db");

    /** Where {@code chat} reads its lines from. */
    final InputStream in;

    private Main(InputStream in) {
        this.in = in;
    }

    /** Runs the CLI on the process's standard streams and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(System.in, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), args));
    }

    /**
     * Runs the CLI and returns its exit code (0 ok, 1 a refused operation or a failed model call, 2 bad
     * usage). Not thread-safe with other runs that share {@code out} or {@code err}.
     */
    public static int run(InputStream in, PrintWriter out, PrintWriter err, String... args) {
        LogLevels.apply(); // before any library makes its logger
        return commandLine(in, out, err).execute(args);
    }

    /** The command tree as {@link #run} executes it: its streams, error handlers and help layout. */
    static CommandLine commandLine(InputStream in, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main(in));
        cli.setUsageHelpAutoWidth(true); // as wide as the terminal; 80 columns when it is not one
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler(UsageErrors::handle);
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof InvalidInputException bad && STORE_FIELDS.contains(bad.field())) { // a bad --store, like a bad --model
                return UsageErrors.handle(new CommandLine.ParameterException(cmd, ex.getMessage()), parsed.originalArgs().toArray(String[]::new));
            }
            if (ex instanceof ThreadlineException) {
                cmd.getErr().println("threadline: " + ex.getMessage());
                return 1;
            }
            throw ex;
        });
        return cli;
    }
}
