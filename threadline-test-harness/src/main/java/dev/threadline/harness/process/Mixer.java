package dev.threadline.harness.process;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.state.Edit;
import dev.threadline.harness.history.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak's mixed workload in a {@link ClientChild}, beside its clients' turns: every
 * {@link ChildArgs#mixEvery()} it does the next of {@link #OPS} on the next of its sessions:
 * <ul>
 *   <li>{@code fork} it at its latest checkpoint (an id of its own) or {@code rewind} it to that checkpoint (a
 *       new {@code .r<n>} branch), each followed by one turn on the new branch (a reported submission, judged by
 *       the history checker), or {@code compact} it;</li>
 *   <li>send a message with double texting {@code reject}, {@code interrupt} or {@code rollback} while its
 *       clients' turns run (the clients themselves {@code enqueue}, the default): a reported submission;</li>
 *   <li>{@code hitl}: on the one session {@link #HITL} both nodes share, settle what waits for a person (approve
 *       or deny a call of the {@link GuardedSkill}, answer an {@code ask_user} question), whichever process
 *       suspended it; then {@code edit} a variable between turns; then submit the next turn that waits
 *       ({@code approve <cid>} or {@code ask <cid>}, reported).</li>
 * </ul>
 * Prints {@code BRANCH <parent> <seq> <branch>} once a branch exists, and {@code MIX <op> ok|failed
 * <session> <detail>} for every operation. An operation refused because another process holds the session
 * (or settled the call first) is an ordinary failure here; a kill may cut any of them.
 */
final class Mixer {
    /** The operations, in the order a mixer goes through them (a third of them {@code hitl}: a node lives seconds). */
    static final List<String> OPS = List.of("fork", "hitl", "reject", "rewind", "hitl", "interrupt", "compact", "hitl", "rollback");
    /** The session of the approvals, questions and edits, shared by both nodes. */
    static final String HITL = "hitl";

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
        // begin with the same operation every time
        for (int n = ThreadLocalRandom.current().nextInt(OPS.size()); !stop.get(); n++) {
            LockSupport.parkNanos(every.toNanos()); // the mix's pace, like a person's, not a synchronisation
            if (stop.get() || sessions.isEmpty()) {
                return;
            }
            String s = sessions.get(n % sessions.size());
            String op = OPS.get(n % OPS.size());
            try {
                switch (op) {
                    case "fork", "rewind" -> branch(op, s, n);
                    case "compact" -> {
                        rt.session(s).compact();
                        report(op, "ok", s, "-");
                    }
                    case "hitl" -> hitl(n);
                    default -> {
                        String cid = prefix + "-" + s + "-" + op.charAt(0) + n;
                        Outcome o = rt.submit(s, cid, "work " + cid, DoubleTexting.fromWire(op));
                        report(op, o.name().toLowerCase(java.util.Locale.ROOT), s, cid);
                    }
                }
            } catch (RuntimeException e) {
                report(op, "failed", s, e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
            }
        }
    }

    /** Forks or rewinds {@code s} at its latest checkpoint, then runs one turn on the branch. */
    private void branch(String op, String s, int n) {
        Session parent = rt.session(s);
        List<Checkpoint> cps = parent.history().checkpoints();
        long seq = cps.get(cps.size() - 1).seq();
        Session branch = op.equals("fork") ? parent.fork(seq, prefix + "-" + s + "-f" + n) : parent.rewind(seq);
        ChildOut.line("BRANCH " + s + " " + seq + " " + branch.id());
        report(op, "ok", s, branch.id());
        String cid = prefix + "-" + branch.id() + "-0";
        if (rt.submit(branch.id(), cid, "work " + cid) == Outcome.UNKNOWN) {
            ChildOut.line("MIX turn unknown " + branch.id() + " " + cid);
        }
    }

    /** Settles what waits on {@link #HITL}, edits a variable, and submits a turn that waits again. */
    private void hitl(int n) {
        Session h = rt.session(HITL);
        List<PendingApproval> waiting = h.pendingApprovals();
        if (!waiting.isEmpty()) {
            PendingApproval p = waiting.get(0);
            String op = p.kind() == PendingApproval.Kind.QUESTION ? "answer" : n % 2 == 0 ? "approve" : "deny";
            try {
                TurnResult r = switch (op) {
                    case "answer" -> h.answer(p.toolUseId(), "yes, go on");
                    case "approve" -> h.approve(p.toolUseId());
                    default -> h.deny(p.toolUseId(), "not this one");
                };
                report(op, "ok", HITL, p.toolUseId() + " " + r.outcome());
            } catch (RuntimeException e) {
                report(op, "failed", HITL, e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
                return; // the other node settles it, or the next submit supersedes it
            }
        }
        try {
            h.edit("mixer " + prefix, "the soak's edit between turns", List.of(Edit.set("mixed", IntNode.valueOf(n))));
            report("edit", "ok", HITL, "mixed=" + n);
        } catch (RuntimeException e) {
            report("edit", "failed", HITL, e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
        }
        String cid = prefix + "-" + HITL + "-" + n;
        Outcome o = rt.submit(HITL, cid, (n % 2 == 0 ? "approve " : "ask ") + cid);
        report("suspend", o.name().toLowerCase(java.util.Locale.ROOT), HITL, cid);
    }

    private static void report(String op, String outcome, String session, String detail) {
        ChildOut.line("MIX " + op + " " + outcome + " " + session + " " + detail);
    }
}
