package dev.threadline.store.sqlite.multiprocess;

import dev.threadline.harness.process.ChildArgs;
import dev.threadline.harness.process.ChildOut;
import dev.threadline.harness.process.Watchdog;
import dev.threadline.harness.process.CheapTokenCounter;
import dev.threadline.harness.process.GateSkill;
import dev.threadline.harness.process.ChildRuntime;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A child JVM of the humans-in-the-loop acceptance tests: one runtime on the shared SQLite file with
 * the skills of {@link HitlSkills}, answering commands on stdin, each on a thread of its own:
 * <pre>
 *   SUBMIT &lt;tag&gt; &lt;session&gt; &lt;strategy|-&gt; &lt;text&gt;   RESULT &lt;tag&gt; &lt;outcome&gt; &lt;reply&gt;
 *   APPROVE &lt;tag&gt; &lt;session&gt; &lt;id&gt; [json]       RESULT ...
 *   DENY &lt;tag&gt; &lt;session&gt; &lt;id&gt; &lt;reason&gt;       RESULT ...
 *   ANSWER &lt;tag&gt; &lt;session&gt; &lt;id&gt; &lt;text&gt;       RESULT ...
 *   PENDING &lt;tag&gt; &lt;session&gt;                   RESULT &lt;tag&gt; PENDING &lt;id&gt;,...
 *   HEAD &lt;tag&gt; &lt;session&gt;                      RESULT &lt;tag&gt; HEAD &lt;seq&gt;
 *   REWIND &lt;tag&gt; &lt;session&gt; &lt;seq&gt; ack|noack     RESULT &lt;tag&gt; BRANCH &lt;id&gt;
 *   COMPENSATE &lt;tag&gt; &lt;session&gt; &lt;seq&gt;           RESULT &lt;tag&gt; COMPENSATED &lt;count&gt;
 *   QUIT                                       DONE, then exit
 * </pre>
 * A command that throws prints {@code ERR <tag> <exception class> <message>}. Arguments: {@code db},
 * {@code name}, {@code runs} (the runs file), {@code gates}, {@code ttlMillis}, {@code waitMillis}.
 */
public final class HitlChild {
    private HitlChild() {}

    public static void main(String[] args) throws Exception {
        ChildArgs a = ChildArgs.parse(args);
        Watchdog.exitAfter(a.maxRun());
        Path runs = Path.of(a.values().get("runs"));
        List<Thread> threads = new CopyOnWriteArrayList<>();
        try (Threadline tl = Threadline.builder().store(a.store()).model(HitlSkills.model())
                .tokenCounter(new CheapTokenCounter()).skills(List.of())
                .skill(new HitlSkills.Pay(runs)).skill(new HitlSkills.Charge(runs, a.gates())).skill(new GateSkill(a.gates()))
                .skill(Builtins.askUser()).leaseTtl(a.leaseTtl()).leaseWait(a.leaseWait()).build()) {
            Tenant tenant = tl.tenant(a.tenant());
            ChildOut.line("READY " + a.name() + " " + ProcessHandle.current().pid());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("QUIT")) {
                String command = line;
                threads.add(Thread.ofVirtual().start(() -> run(tenant, command)));
            }
            for (Thread t : threads) {
                t.join(Duration.ofSeconds(60));
            }
            ChildOut.line("DONE");
        }
        System.exit(0);
    }

    private static void run(Tenant tenant, String line) {
        String[] p = line.split(" ", 5);
        String tag = p.length > 1 ? p[1] : "-";
        try {
            Session s = tenant.openOrCreate(p[2], ChildRuntime.CONFIG);
            String out = switch (p[0]) {
                case "SUBMIT" -> {
                    CommandOptions o = p[3].equals("-") ? CommandOptions.NONE
                            : CommandOptions.builder().doubleTexting(DoubleTexting.valueOf(p[3].toUpperCase(Locale.ROOT))).build();
                    yield result(s.with(o).submit(p[4]));
                }
                case "APPROVE" -> result(p.length > 4 ? s.approve(p[3], Json.parse(p[4], "edited arguments")) : s.approve(p[3]));
                case "DENY" -> result(s.deny(p[3], p[4]));
                case "ANSWER" -> result(s.answer(p[3], p[4]));
                case "PENDING" -> "PENDING " + s.pendingApprovals().stream().map(PendingApproval::toolUseId).collect(Collectors.joining(","));
                case "HEAD" -> "HEAD " + s.state().seq();
                case "REWIND" -> "BRANCH " + s.with(p[4].equals("ack") ? CommandOptions.builder().acknowledgeEffects(true).build() : CommandOptions.NONE)
                        .rewind(Long.parseLong(p[3])).id();
                case "COMPENSATE" -> "COMPENSATED " + s.compensate(Long.parseLong(p[3])).size();
                default -> throw new IllegalArgumentException("unknown command " + line);
            };
            ChildOut.line("RESULT " + tag + " " + out);
        } catch (RuntimeException e) {
            ChildOut.line("ERR " + tag + " " + e.getClass().getSimpleName() + " " + oneLine(e.getMessage()));
        }
    }

    private static String result(TurnResult r) {
        return r.outcome() + " " + oneLine(r.reply());
    }

    private static String oneLine(String s) {
        return s == null ? "-" : s.replaceAll("\\s+", " ");
    }
}
