package dev.threadline.harness.history;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Checks final journals against a recorded {@link History} of client operations, for any store
 * backend and any number of processes. It reports, per session:
 * <ul>
 *   <li>every command with an ok attempt has its user message in the journal exactly once; a command
 *       whose attempts are at best unknown at most once; a command whose every attempt failed never;</li>
 *   <li>no user message that no recorded operation sent;</li>
 *   <li>seqs gapless from 1, without duplicates;</li>
 *   <li>turns never interleaved, no turn event outside a turn, and every turn ended (except the last one
 *       when {@link #allowingUnfinishedLastTurn()});</li>
 *   <li>the reducer accepts the journal and the folded transcript passes the validator (CHECKPOINT mode).</li>
 * </ul>
 * A journal's user message belongs to the command whose id the event carries, or else to a command of
 * the session that submitted the same text: tests should give each command of a session its own text.
 * Attempts sharing a command id are retries of one command. Immutable; thread-safe.
 */
public final class HistoryChecker {
    /**
     * A branch (fork or rewind) made during the run: its history up to {@code seq} is {@code parent}'s.
     *
     * @param parent the session it was made from
     * @param seq    the checkpoint it shares the parent's history through
     */
    public record Branch(String parent, long seq) {
    }

    private final List<Operation> operations;
    private final boolean lastTurnMayBeOpen;
    private final Map<String, Branch> branches;

    private HistoryChecker(List<Operation> operations, boolean lastTurnMayBeOpen, Map<String, Branch> branches) {
        this.operations = List.copyOf(operations);
        this.lastTurnMayBeOpen = lastTurnMayBeOpen;
        this.branches = Map.copyOf(branches);
    }

    /** A checker of these operations. */
    public static HistoryChecker of(Collection<Operation> operations) {
        return new HistoryChecker(new ArrayList<>(Objects.requireNonNull(operations, "operations")), false, Map.of());
    }

    /**
     * This checker, knowing the branches made during the run (by branch id): a branch's journal up to its
     * branch point must be its parent's, event for event (when the parent's journal is given), and only its
     * user messages after that point are matched to the operations on the branch.
     */
    public HistoryChecker withBranches(Map<String, Branch> branches) {
        return new HistoryChecker(operations, lastTurnMayBeOpen, branches);
    }

    /** A checker of the history's finished operations. */
    public static HistoryChecker of(History history) {
        return of(history.operations());
    }

    /** This checker, accepting a journal whose last turn is still open (a run was left mid-turn). */
    public HistoryChecker allowingUnfinishedLastTurn() {
        return new HistoryChecker(operations, true, branches);
    }

    /**
     * Every violation found in the final journals, empty when there is none.
     *
     * @param journals each session's whole journal (as {@code Session.journal()} returns it), by session id
     */
    public List<Violation> check(Map<String, List<StoredEvent>> journals) {
        List<Violation> out = new ArrayList<>();
        Map<String, List<Operation>> bySession = operations.stream()
                .collect(Collectors.groupingBy(Operation::session, LinkedHashMap::new, Collectors.toList()));
        for (String session : bySession.keySet()) {
            if (!journals.containsKey(session)) {
                out.add(new Violation(Violation.Kind.MISSING_JOURNAL, session,
                        bySession.get(session).size() + " operation(s) name it but no journal was given"));
            }
        }
        journals.forEach((session, journal) -> {
            JournalRules.seqs(session, journal, out);
            JournalRules.turns(session, journal, lastTurnMayBeOpen, out);
            JournalRules.transcript(session, journal, out);
            Branch b = branches.get(session);
            long own = b == null ? 0 : b.seq();
            if (b != null && journals.containsKey(b.parent())) {
                prefix(session, journal, b, journals.get(b.parent()), out);
            }
            commands(session, journal.stream().filter(e -> e.seq() > own).toList(), bySession.getOrDefault(session, List.of()), out);
        });
        return List.copyOf(out);
    }

    /**
     * Checks and throws when anything is wrong.
     *
     * @throws AssertionError listing every violation
     */
    public void verify(Map<String, List<StoredEvent>> journals) {
        List<Violation> found = check(journals);
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " history violation(s) over " + operations.size() + " operation(s):\n  "
                    + found.stream().map(Violation::toString).collect(Collectors.joining("\n  ")));
        }
    }

    /**
     * Checks only the rules of each journal on its own, whatever sent its messages: seqs gapless, turns
     * never interleaved and all ended, the transcript valid. For runs that record no operations (a chat).
     *
     * @throws AssertionError listing every violation
     */
    public static void verifyJournals(Map<String, List<StoredEvent>> journals) {
        List<Violation> out = new ArrayList<>();
        journals.forEach((session, journal) -> {
            JournalRules.seqs(session, journal, out);
            JournalRules.turns(session, journal, false, out);
            JournalRules.transcript(session, journal, out);
        });
        if (!out.isEmpty()) {
            throw new AssertionError(out.size() + " journal violation(s):\n  "
                    + out.stream().map(Violation::toString).collect(Collectors.joining("\n  ")));
        }
    }

    /** A branch's journal through its branch point must be its parent's, event for event. */
    private static void prefix(String session, List<StoredEvent> journal, Branch b, List<StoredEvent> parent, List<Violation> out) {
        for (long seq = 1; seq <= b.seq(); seq++) {
            StoredEvent mine = seq <= journal.size() ? journal.get((int) seq - 1) : null;
            StoredEvent theirs = seq <= parent.size() ? parent.get((int) seq - 1) : null;
            if (mine == null || theirs == null || mine.seq() != theirs.seq() || !mine.event().equals(theirs.event())) {
                out.add(new Violation(Violation.Kind.BRANCH_PREFIX, session, "seq " + seq + " differs from " + b.parent()
                        + "'s, which it was branched from at seq " + b.seq() + ": " + mine + " vs " + theirs));
                return;
            }
        }
    }

    /** Matches the journal's user messages to the session's commands and checks how often each appears. */
    private static void commands(String session, List<StoredEvent> journal, List<Operation> ops, List<Violation> out) {
        Map<String, Command> commands = new LinkedHashMap<>();
        for (Operation op : ops) {
            commands.computeIfAbsent(op.commandKey(), k -> new Command()).attempts.add(op);
        }
        for (StoredEvent e : journal) {
            if (e.event() instanceof Event.UserMessageReceived u) {
                Command c = owner(commands, e.commandId(), u.message().text());
                if (c == null) {
                    out.add(new Violation(Violation.Kind.UNSENT, session, "user message at seq " + e.seq() + " (command "
                            + e.commandId() + ", text '" + u.message().text() + "') was sent by no recorded operation"));
                } else {
                    c.seqs.add(e.seq());
                }
            }
        }
        commands.values().forEach(c -> c.judge(session, out));
    }

    /** The command a user message belongs to: by the event's command id, else by text (the first not yet matched). */
    private static Command owner(Map<String, Command> commands, String eventCommandId, String text) {
        Command byId = commands.get("id:" + eventCommandId);
        if (byId != null) {
            return byId;
        }
        Command any = null;
        for (Command c : commands.values()) {
            if (c.sent(text)) {
                if (c.seqs.isEmpty() && c.mayAppear()) {
                    return c;
                }
                any = any == null ? c : any;
            }
        }
        return any;
    }

    /** The attempts of one command and the seqs of its user messages in the journal. */
    private static final class Command {
        final List<Operation> attempts = new ArrayList<>();
        final List<Long> seqs = new ArrayList<>();

        boolean sent(String text) {
            return attempts.stream().anyMatch(a -> a.text().equals(text));
        }

        boolean has(Outcome o) {
            return attempts.stream().anyMatch(a -> a.outcome() == o);
        }

        boolean mayAppear() {
            return has(Outcome.OK) || has(Outcome.UNKNOWN);
        }

        void judge(String session, List<Violation> out) {
            String what = "command " + attempts.get(0).commandKey() + " ('" + attempts.get(0).text() + "'; attempts: "
                    + attempts.stream().map(a -> a.outcome().wireName() + " in " + a.process()).collect(Collectors.joining(", "))
                    + ")";
            if (has(Outcome.OK) && seqs.isEmpty()) {
                out.add(new Violation(Violation.Kind.LOST, session, what + " was acknowledged but is not in the journal"));
            } else if (mayAppear() && seqs.size() > 1) {
                out.add(new Violation(Violation.Kind.DUPLICATED, session, what + " appears " + seqs.size() + " times, at seqs " + seqs));
            } else if (!mayAppear() && !seqs.isEmpty()) {
                out.add(new Violation(Violation.Kind.FAILED_BUT_APPLIED, session, what + " failed but appears at seqs " + seqs));
            }
        }
    }
}
