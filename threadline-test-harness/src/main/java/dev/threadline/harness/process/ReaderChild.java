package dev.threadline.harness.process;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.State;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A child JVM of the multi-process tests that reads a session in a loop while another process runs it:
 * {@code state()}, {@code checkpoints()}, {@code journal()} and the tenant's session list, printing
 * {@code READ <n> <status> <pending calls> <state seq> <journal size> <last journal seq> <checkpoints> <sessions>}
 * per round; every {@code submitEvery} rounds it also submits a turn of its own ({@code hello <cid>}, which
 * calls no tool), reported as {@link ChildRuntime#submit} does. Runs until {@code QUIT} or stdin closes,
 * then prints {@code DONE}. Runs on the child JVM's main thread.
 */
public final class ReaderChild {
    private ReaderChild() {}

    /**
     * Runs the reader with {@code key=value} arguments (see {@link ChildArgs}).
     *
     * @throws Exception any failure: the child exits non-zero and the test reads its stderr
     */
    public static void main(String[] args) throws Exception {
        ChildArgs a = ChildArgs.parse(args);
        Watchdog.exitAfter(a.maxRun());
        String id = a.sessions().get(0);
        AtomicBoolean stop = new AtomicBoolean();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null && !line.equals("QUIT")) {
                    ChildOut.line("BAD " + line);
                }
            } catch (java.io.IOException e) {
                // stdin gone: stop as on QUIT
            }
            stop.set(true);
        });
        try (ChildRuntime rt = ChildRuntime.start(a)) {
            Session s = rt.session(id);
            ChildOut.line("READY " + a.name() + " " + ProcessHandle.current().pid());
            String prefix = a.name().replace('#', '.');
            for (int n = 1; !stop.get(); n++) {
                State st = s.state();
                List<Checkpoint> cps = s.history().checkpoints();
                List<StoredEvent> journal = s.history().journal();
                int sessions = rt.tenant().sessions().items().size();
                long lastSeq = journal.isEmpty() ? 0 : journal.get(journal.size() - 1).seq();
                ChildOut.line("READ " + n + " " + st.status() + " " + st.pending().size() + " " + st.seq() + " "
                        + journal.size() + " " + lastSeq + " " + cps.size() + " " + sessions);
                if (a.submitEvery() > 0 && n % a.submitEvery() == 0) {
                    String cid = prefix + "-" + n;
                    rt.submit(id, cid, "hello " + cid);
                }
            }
            ChildOut.line("DONE");
        }
        System.exit(0);
    }
}
