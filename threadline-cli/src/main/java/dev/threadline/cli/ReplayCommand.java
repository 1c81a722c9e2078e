package dev.threadline.cli;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.ReplayReport;
import dev.threadline.core.runtime.ReplayRequest;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.Models;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code threadline sessions replay ID --model M}: runs a session's user turns again on another model,
 * on a new branch, and prints a per-turn comparison (text, or one JSON object with {@code --json}).
 */
@Command(name = "replay", description = {"Run a session's user turns again on another model, on a new branch, and compare each turn:",
        "reply (a diff), tool calls, tokens and outcome. Calls the session made get their recorded results;",
        "nothing with a side effect runs again. The branch stays for the inspector."}, mixinStandardHelpOptions = true)
final class ReplayCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;
    @Mixin
    TenantOption tenant;
    @Parameters(index = "0", paramLabel = "ID", description = "session id")
    String id;
    @Option(names = "--model", required = true, paramLabel = "MODEL",
            description = "the model to replay on: scripted, or an Anthropic/OpenAI model whose key is set (as for chat)")
    String model;
    @Option(names = "--from", paramLabel = "SEQ", defaultValue = "0", description = "the first seq whose user turn is replayed")
    long from;
    @Option(names = "--to", paramLabel = "SEQ", defaultValue = "0", description = "the last seq whose user turn is replayed (0: the head)")
    long to;
    @Option(names = "--live-tools", description = "let read-only and idempotent skills run for calls the session never made")
    boolean liveTools;
    @Option(names = "--prices", paramLabel = "FILE",
            description = "what the models cost (JSON, as chat's --prices): the replay's replies are priced, and costs compared")
    Path prices;
    @Option(names = "--json", description = "print the report as one JSON object")
    boolean json;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String t = tenant.id(spec);
        ReplayRequest request;
        try {
            request = ReplayRequest.onModel(model).range(from, to).liveTools(liveTools);
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), "--" + e.field().replace("Seq", "") + ": " + e.reason());
        }
        dev.threadline.core.llm.PriceTable table = PricesFile.read(prices, spec);
        PrintWriter out = spec.commandLine().getOut();
        try (Threadline tl = Threadline.builder().store(store.openExisting()).prices(table)
                .models(Models.resolver(null, System.getenv(), 0, HttpSettings.defaults()))
                .skills(Builtins.all(Path.of("").toAbsolutePath())).skill(Builtins.askUser()).build()) {
            ReplayReport report = tl.tenant(t).open(id).replay(request);
            if (json) {
                out.println(Json.write(report));
            } else {
                print(out, report);
            }
        } finally {
            out.flush();
        }
        return 0;
    }

    /** {@code   cost: A  ->  B} when either side has a cost, else nothing. */
    private static String cost(dev.threadline.core.model.Usage original, dev.threadline.core.model.Usage replayed) {
        return original.costMicros() == 0 && replayed.costMicros() == 0 ? ""
                : "   cost: " + dev.threadline.core.state.Budget.amount(original.costMicros()) + "  ->  " + dev.threadline.core.state.Budget.amount(replayed.costMicros());
    }

    /** The report as text: a header, then each turn with its reply diff, calls, tokens and outcome. */
    static void print(PrintWriter out, ReplayReport r) {
        out.println("Replayed " + r.turns().size() + " turn(s) of session " + r.sessionId() + " on " + r.model() + " (branch "
                + r.branchId() + "): " + r.changedReplies() + " repl" + (r.changedReplies() == 1 ? "y" : "ies") + " changed.");
        for (ReplayReport.Turn turn : r.turns()) {
            out.println();
            out.println("seq " + turn.seq() + "  user: " + oneLine(turn.text()));
            if (turn.sameReply()) {
                out.println("  reply: the same");
            } else {
                List<String> before = List.of(turn.original().reply().split("\n", -1));
                List<String> after = List.of(turn.replayed().reply().split("\n", -1));
                UnifiedDiffUtils.generateUnifiedDiff("original", "replay", before, DiffUtils.diff(before, after), 2)
                        .forEach(line -> out.println("  " + line));
            }
            out.println("  tools: " + calls(turn.original().calls()) + "  ->  " + calls(turn.replayed().calls()));
            out.println("  tokens in/out: " + turn.original().usage().inputTokens() + "/" + turn.original().usage().outputTokens()
                    + "  ->  " + turn.replayed().usage().inputTokens() + "/" + turn.replayed().usage().outputTokens()
                    + cost(turn.original().usage(), turn.replayed().usage())
                    + "   outcome: " + turn.original().outcome() + "  ->  " + turn.replayed().outcome());
        }
        if (r.stopped() != null) {
            out.println();
            out.println("Stopped: " + r.stopped() + ".");
        }
    }

    private static String calls(List<ReplayReport.Call> calls) {
        return calls.isEmpty() ? "none" : calls.stream().map(c -> c.name() + Json.write(c.arguments()) + " " + c.how())
                .collect(Collectors.joining(", "));
    }

    private static String oneLine(String s) {
        String flat = s.replace('\n', ' ');
        return flat.length() > 120 ? flat.substring(0, 120) + "…" : flat;
    }
}
