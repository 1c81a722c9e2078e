package dev.threadline.core.internal.engine;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.internal.engine.state.ToolAnswers;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.ReplayReport;
import dev.threadline.core.runtime.ReplayRequest;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.state.Edit;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Replays a session's user turns on another model (ADR 0036): the session is forked before its first
 * replayed turn, the branch's model is changed by a journalled edit, and each user message is submitted
 * again there. Calls with the same skill and arguments as the original get the original's results and
 * run nothing ({@link ToolAnswers}), so no side effect happens twice; the original session is only read.
 * Thread-safe (stateless between calls).
 */
final class Replays {
    private static final String AUTHOR = "threadline replay";

    private final SessionCommands commands;
    private final AgentLoop loop;
    private final StateManager states;
    private final JournalReader reads;

    Replays(SessionCommands commands, AgentLoop loop, StateManager states, JournalReader reads) {
        this.commands = commands;
        this.loop = loop;
        this.states = states;
        this.reads = reads;
    }

    /** One recorded user turn of the original, built while reading its journal. */
    private static final class Recorded {
        final long seq;
        final String text;
        final List<ReplayReport.Call> calls = new ArrayList<>();
        String reply = "";
        Usage usage = Usage.ZERO;
        String outcome = "unfinished";

        Recorded(long seq, String text) {
            this.seq = seq;
            this.text = text;
        }

        ReplayReport.Side side() {
            return new ReplayReport.Side(reply, calls, usage, outcome);
        }
    }

    ReplayReport replay(SessionKey key, CommandOptions options, ReplayRequest request) {
        loop.context(states.info(key).config().withModel(request.model(), null)); // an unknown model: refused before anything is written
        List<StoredEvent> journal = reads.read(key, 1, reads.head(key));
        List<ToolAnswers.Recorded> answers = new ArrayList<>();
        List<Recorded> turns = read(journal, request, answers);
        if (turns.isEmpty()) {
            throw new InvalidInputException("fromSeq", "session " + key.id() + " has no user turn at seqs " + request.fromSeq() + ".."
                    + (request.toSeq() == 0 ? "its head" : request.toSeq()));
        }
        // the branch only reads what the original's side effects returned, never runs them: it acknowledges them (named in its BranchCreated)
        SessionKey branch = commands.branch(key, options.toBuilder().acknowledgeEffects(true).build(), turns.get(0).seq - 1, null,
                "replay", ".replay");
        commands.call(branch, commands.edit(branch, CommandOptions.NONE, AUTHOR, "replay on " + request.model(),
                List.of(new Edit.SetModel(request.model(), null))));
        ToolAnswers recorded = new ToolAnswers(answers, request.liveTools());
        List<ReplayReport.Turn> out = new ArrayList<>();
        String stopped = null;
        for (Recorded t : turns) {
            long before = reads.head(branch);
            SessionCommands.Command<TurnResult> submit = commands.submit(branch, CommandOptions.NONE, t.text, () -> DoubleTexting.ENQUEUE);
            TurnResult r = commands.call(branch, new SessionCommands.Command<>(submit.cmd().answeredFrom(recorded), submit.body(),
                    submit.replay()));
            List<ReplayReport.Call> calls = new ArrayList<>();
            for (StoredEvent e : reads.read(branch, before + 1, reads.head(branch))) {
                if (e.event() instanceof Event.AssistantMessageReceived a) {
                    for (ContentBlock.ToolUse u : a.message().toolUses()) {
                        ToolAnswers.How how = recorded.how(u.id());
                        calls.add(new ReplayReport.Call(u.name(), u.input(),
                                how == null ? "refused" : how.name().toLowerCase(Locale.ROOT).replace('_', ' ')));
                    }
                }
            }
            out.add(new ReplayReport.Turn(t.seq, t.text, t.side(), new ReplayReport.Side(r.reply() == null ? "" : r.reply(), calls,
                    r.usage() == null ? Usage.ZERO : r.usage(), name(r.outcome()))));
            if (r.outcome() == TurnResult.Outcome.AWAITING_APPROVAL || r.outcome() == TurnResult.Outcome.AWAITING_INPUT) {
                stopped = "the turn at seq " + t.seq + " waits for a person on the replay's branch";
                break;
            }
        }
        return new ReplayReport(key.id(), branch.id(), request.model(), out, stopped);
    }

    /** The user turns of {@code journal} in the request's range; every answered call of the session goes to {@code answers}. */
    private static List<Recorded> read(List<StoredEvent> journal, ReplayRequest request, List<ToolAnswers.Recorded> answers) {
        List<Recorded> turns = new ArrayList<>();
        Map<String, ContentBlock.ToolUse> calls = new HashMap<>();
        Recorded current = null;
        for (StoredEvent e : journal) {
            switch (e.event()) {
                case Event.UserMessageReceived u -> {
                    boolean in = e.seq() >= request.fromSeq() && (request.toSeq() == 0 || e.seq() <= request.toSeq());
                    current = in ? new Recorded(e.seq(), u.message().text()) : null;
                    if (current != null) {
                        turns.add(current);
                    }
                }
                case Event.AssistantMessageReceived a -> {
                    for (ContentBlock.ToolUse use : a.message().toolUses()) {
                        calls.put(use.id(), use);
                    }
                    if (current != null) {
                        String text = a.message().text();
                        current.reply = text.isEmpty() ? current.reply : text;
                        current.usage = current.usage.plus(a.message().usage());
                    }
                }
                case Event.ToolCallEnded ended -> {
                    ContentBlock.ToolUse use = calls.get(ended.toolUseId());
                    if (use != null) {
                        answers.add(new ToolAnswers.Recorded(use.name(), use.input(), ended.resultContent(), ended.isError()));
                        if (current != null) {
                            current.calls.add(new ReplayReport.Call(use.name(), use.input(), ended.isError() ? "error" : "ran"));
                        }
                    }
                }
                case Event.TurnCompleted c -> ended(current, name(TurnReplay.outcome(c.reason())));
                case Event.TurnInterrupted i when !i.reason().startsWith("superseded:") -> ended(current, name(TurnResult.Outcome.INTERRUPTED));
                case Event.TurnSuspended w -> ended(current, name(w.reason().startsWith("awaiting_approval")
                        ? TurnResult.Outcome.AWAITING_APPROVAL : TurnResult.Outcome.AWAITING_INPUT));
                default -> { }
            }
        }
        return turns;
    }

    /** Notes how the turn being read went so far (the last end or suspension wins), when it is replayed. */
    private static void ended(Recorded turn, String outcome) {
        if (turn != null) {
            turn.outcome = outcome;
        }
    }

    /** An outcome as the report names it. */
    private static String name(TurnResult.Outcome outcome) {
        return outcome.name().toLowerCase(Locale.ROOT);
    }
}
