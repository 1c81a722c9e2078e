package dev.threadline.harness.process;

import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.runtime.Session;
import dev.threadline.harness.history.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak's mixed workload in a {@link ClientChild}, beside its clients' turns: every
 * {@link ChildArgs#mixEvery()} it takes the next of its sessions and, in turn, forks it at its latest
 * checkpoint (an id of its own), rewinds it to that checkpoint (a new {@code .r<n>} branch), each followed
 * by one turn on the new branch (a reported submission, judged by the history checker), or compacts it.
 * Prints {@code BRANCH <parent> <seq> <branch>} once a branch exists, and {@code MIX <op> ok|failed
 * <session> <detail>} for every operation. A branch or compaction refused because another process holds
 * the session is an ordinary failure here; a kill may cut any of them.
 */
final class Mixer {
    private final ChildRuntime rt;
    private final List<String> sessions;
    private final String prefix;
    private final Duration every;
    private final AtomicBoolean stop;

    Mixer(ChildRuntime rt, List<String> sessions, String prefix, Duration every, AtomicBoolean stop) {
        this.rt = rt;
        this.sessions = sessions;
        this.prefix = prefix;
        this.every = every;
        this.stop = stop;
    }

    void run() {
        // a random first operation: a node is often killed within seconds, and its next incarnation must not
        // begin with a fork every time
        for (int n = java.util.concurrent.ThreadLocalRandom.current().nextInt(3); !stop.get(); n++) {
            LockSupport.parkNanos(every.toNanos()); // the mix's pace, like a person's, not a synchronisation
            if (stop.get() || sessions.isEmpty()) {
                return;
            }
            String s = sessions.get(n % sessions.size());
            String op = switch (n % 3) {
                case 0 -> "fork";
                case 1 -> "rewind";
                default -> "compact";
            };
            try {
                Session parent = rt.session(s);
                if (op.equals("compact")) {
                    parent.compact();
                    ChildOut.line("MIX compact ok " + s + " -");
                    continue;
                }
                List<Checkpoint> cps = parent.history().checkpoints();
                long seq = cps.get(cps.size() - 1).seq();
                Session branch = op.equals("fork") ? parent.fork(seq, prefix + "-" + s + "-f" + n) : parent.rewind(seq);
                ChildOut.line("BRANCH " + s + " " + seq + " " + branch.id());
                ChildOut.line("MIX " + op + " ok " + s + " " + branch.id());
                String cid = prefix + "-" + branch.id() + "-0";
                if (rt.submit(branch.id(), cid, "work " + cid) == Outcome.UNKNOWN) {
                    ChildOut.line("MIX turn unknown " + branch.id() + " " + cid);
                }
            } catch (RuntimeException e) {
                ChildOut.line("MIX " + op + " failed " + s + " " + e.getClass().getSimpleName() + ": "
                        + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
            }
        }
    }
}
