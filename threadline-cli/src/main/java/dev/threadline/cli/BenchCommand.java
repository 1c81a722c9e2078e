package dev.threadline.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code threadline bench}: listed here so that {@code --help} names it, but run by the
 * {@code ./threadline} script from the bench module's own jar (the CLI does not carry the benchmarks
 * and their comparison libraries). Reached through this jar, it says how to run it; exit code 2.
 */
@Command(name = "bench", description = {"Benchmarks beside LangGraph4j, Spring AI and LangChain4j (docs/benchmarks.md).",
        "Run by the script: ./threadline bench [--quick] [--store URL] [--out DIR], or ./threadline bench jmh ..."})
final class BenchCommand implements Callable<Integer> {
    /** The bench's own arguments, which only the bench's jar reads. */
    @Unmatched
    List<String> ignored;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("threadline: bench runs from its own jar: use the ./threadline script"
                + " (./threadline bench --quick), which builds and starts it; see docs/benchmarks.md.");
        return 2;
    }
}
