package dev.threadline.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Bad usage, told briefly: one line saying what is wrong, the command's synopsis when an argument is
 * missing, and where the full help is; a command given without its subcommand prints its usage, which
 * lists them. Exit code 2. Stateless.
 */
final class UsageErrors {
    private UsageErrors() {}

    /** Prints {@code e} to the command's stderr and returns the usage exit code. */
    static int handle(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        var err = cmd.getErr();
        if (!cmd.getSubcommands().isEmpty() && String.valueOf(e.getMessage()).startsWith("Missing required subcommand")) {
            cmd.usage(err); // `threadline` or `threadline sessions` alone: the commands there are, not picocli's complaint
            err.flush();
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
        }
        err.println("threadline: " + e.getMessage());
        if (e instanceof CommandLine.MissingParameterException) {
            err.print("usage: " + cmd.getHelp().synopsis(0).strip() + System.lineSeparator());
        }
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more.");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }
}
