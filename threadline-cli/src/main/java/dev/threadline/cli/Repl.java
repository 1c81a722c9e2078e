package dev.threadline.cli;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.session.SessionConfig;

import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.VariableScope;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/** The chat loop: user lines become turns, slash commands inspect and steer the session. */
final class Repl {
    static final String HELP = """
            Commands:
              /help            this list
              /history         the transcript of this session
              /checkpoints     every step of the journal, with its seq
              /rewind SEQ      undo: go back to checkpoint SEQ and continue there, on branch ID.rN
                               (the old branch stays as it was: /resume ID to go back)
              /fork SEQ        branch off: a separate session ID.fN that starts from checkpoint SEQ;
                               switches to it (the original goes on independently)
                               (both refuse to go back past a tool call with a side effect, listing
                               what it cannot undo; add --force to branch anyway)
              /vars            the variables (session, user, app scopes)
              /sessions        all sessions in this store, each rewind and fork labelled as such
              /resume ID       switch to another session
              /usage           tokens used by this session, and the context's size against the model's window
              /compact [FOCUS] have the model summarise the context now (the history stays in the journal)
              /search WORDS    find what was said in this session, long ago too: best first, with seq, role,
                               time and an excerpt (the whole journal, not only the model's window)
              /budget [TOKENS] [cost=AMOUNT]  show, or set, what the whole session may spend (0: no limit);
                               a turn stopped at the budget continues when it is raised
              /clear           start the model's context afresh (the history stays in the journal)
              /approvals       the tool calls and questions the turn waits for, answered at the prompt
              /exit            leave (also Ctrl-D)
            Anything else is sent to the agent (while calls wait for approval, a new message denies them).""";

    private final Threadline tl;
    private final Tenant tenant;
    private final PrintWriter out;
    private final PrintWriter err;
    private final LineInput input;
    private final SessionConfig config;
    private final String storeUrl;
    private final boolean streamPiped;
    /** Whether the user named the model ({@code --model}): then it applies to an existing session too. */
    private boolean modelChosen;
    private ThreadlineException noKey;
    private Session session;

    /** Whether a model call failed during this chat: then it exits with 1. */
    private boolean modelFailed;

    /** A REPL that prints to {@code out} and its errors to {@code err}. */
    Repl(Threadline tl, PrintWriter out, PrintWriter err, LineInput input, SessionConfig config, String storeUrl) {
        this(tl, out, err, input, config, storeUrl, false);
    }

    /** {@code streamPiped}: stream replies even when the input is not a terminal ({@code chat --stream}). */
    Repl(Threadline tl, PrintWriter out, PrintWriter err, LineInput input, SessionConfig config, String storeUrl,
         boolean streamPiped) {
        this(tl, tl.defaultTenant(), out, err, input, config, storeUrl, streamPiped);
    }

    /** A REPL on the sessions of {@code tenant} ({@code chat --tenant}). */
    Repl(Threadline tl, Tenant tenant, PrintWriter out, PrintWriter err, LineInput input, SessionConfig config, String storeUrl,
         boolean streamPiped) {
        this.streamPiped = streamPiped;
        this.tl = tl;
        this.tenant = tenant;
        this.out = out;
        this.err = err;
        this.input = input;
        this.config = config;
        this.storeUrl = storeUrl;
        this.stream = new TurnPrinter(out, () -> session);
    }

    /** Ctrl-C: interrupts the running turn (recorded, the REPL goes on); a second one, or one at rest, leaves. */
    private void onInterrupt() {
        if (!inTurn) {
            out.println();
            out.println("Bye. Session " + (session == null ? "" : session.id() + " ") + "is saved in " + storeUrl + ".");
            out.flush();
            System.exit(130);
        }
        if (++interrupts > 1) {
            out.println();
            out.println("(second Ctrl-C: leaving; the next run closes the turn)");
            out.flush();
            System.exit(130);
        }
        out.println();
        out.println("(interrupting the turn; Ctrl-C again to leave)");
        out.flush();
        session.interrupt();
    }

    private volatile boolean inTurn;
    private volatile int interrupts;

    /** Runs one command that may run a turn, with Ctrl-C interrupting it. */
    private <T> T turnCommand(java.util.function.Supplier<T> command) {
        interrupts = 0;
        inTurn = true;
        try {
            return command.get();
        } finally {
            inTurn = false;
        }
    }

    /**
     * This REPL, on which {@code --model} was given: an existing session is switched to {@code config}'s model.
     * {@code noKey}: that model needs a key at the default base URL; it stands if the session keeps no other.
     */
    Repl modelChosen(boolean chosen, ThreadlineException noKey) {
        this.modelChosen = chosen;
        this.noKey = noKey;
        return this;
    }

    int run(String sessionId) throws IOException {
        input.onInterrupt(this::onInterrupt);
        boolean existed = sessionId != null && tenant.find(sessionId).isPresent();
        SessionModel.requireKey(noKey, existed ? tenant.open(sessionId) : null, config);
        session = sessionId == null ? tenant.create(config) : tenant.openOrCreate(sessionId, config);
        banner(existed);
        if (session.state().isSuspended()) {
            resolve(); // a call left waiting by an earlier run: asked now, not left to /approvals
        }
        while (true) {
            String line = input.readLine(session.id() + "> ");
            if (line == null) {
                break;
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!input.interactive()) {
                out.println(session.id() + "> " + line);
            }
            try {
                if (line.startsWith("/")) {
                    if (!command(line)) {
                        break;
                    }
                } else {
                    turn(line);
                }
            } catch (ThreadlineException e) {
                error(e);
            }
            out.flush();
        }
        out.println("Bye. Session " + session.id() + " is saved in " + storeUrl + ".");
        out.flush();
        if (modelFailed) {
            err.println("threadline: a model call failed in this chat (see the errors above); exit code 1");
            err.flush();
        }
        return modelFailed ? 1 : 0;
    }

    /** Prints a refused command or a failed call to stderr; the chat goes on. */
    private void error(ThreadlineException e) {
        out.flush();
        if (e instanceof ModelException) {
            modelFailed = true;
        }
        err.println("error: " + e.getMessage());
        err.flush();
    }

    private void banner(boolean existed) {
        out.println("Threadline chat - session " + session.id() + (existed ? " (resumed, " + session.state().messages().size()
                + " messages)" : " (new)"));
        out.println("store: " + storeUrl + " - " + tl.durability()
                + (tenant.id().equals(dev.threadline.core.session.SessionInfo.DEFAULT_TENANT) ? "" : " - tenant " + tenant.id()));
        if (existed) {
            SessionModel.apply(session, config, modelChosen, out); // --model changes an existing session's model, journalled
        } else {
            if (!modelChosen && session.config().model().equals("scripted")) {
                out.println("No ANTHROPIC_API_KEY or OPENAI_API_KEY is set, so this chat uses the offline demo model;"
                        + " set one, or pass --model anthropic:MODEL / openai:MODEL [--base-url URL], for a real LLM.");
            }
            out.println("model: " + SessionModel.describe(session.config()));
        }
        if (session.config().model().equals("scripted")) {
            out.println("(scripted is Threadline's offline demo model, not an LLM. It can do arithmetic"
                    + " (\"what is (2+3)*4\"), notes (\"note buy milk\", \"notes\"), \"ls\" and \"read FILE\".)");
        }
        out.println("Type /help for commands.");
        if (session.state().isSuspended()) {
            out.println("This session's turn waits for you (" + session.pendingApprovals().size() + " call(s)):");
        }
        out.flush();
    }

    private void turn(String text) throws IOException {
        int before = session.state().messages().size();
        Compaction compactionBefore = session.state().compaction();
        TurnResult r = turnCommand(() -> session.with(options()).submit(text));
        if (show(before + 1, compactionBefore, r)) {
            resolve();
        }
    }

    /** Prints what a turn added from message {@code from}; true when it now waits for a person. */
    private boolean show(int from, Compaction compactionBefore, TurnResult r) {
        int start = Math.max(from, stream.shown());
        boolean streamed = stream.end();
        ContextCommands.noteCompaction(out, compactionBefore, session.state().compaction());
        stream.printSteps(session.state().messages(), start, streamed);
        boolean waits = r.outcome() == TurnResult.Outcome.AWAITING_APPROVAL || r.outcome() == TurnResult.Outcome.AWAITING_INPUT;
        if (r.outcome() == TurnResult.Outcome.BUDGET_EXCEEDED) {
            out.println("(the turn waits: " + r.reason().substring(r.reason().indexOf(':') + 1).strip()
                    + " with /budget, here or from any process)");
        } else if (!waits && r.outcome() != TurnResult.Outcome.COMPLETED) {
            out.println("(turn ended: " + r.reason() + ")");
        }
        return waits;
    }

    /**
     * Asks the person at the prompt about each call the turn waits for, one at a time: approve, deny
     * with a reason, approve with edited arguments, or answer a question. A blank line leaves it
     * waiting (durably: /approvals, or another process, can answer it later).
     */
    private void resolve() throws IOException {
        while (true) {
            List<PendingApproval> waiting = session.pendingApprovals();
            if (waiting.isEmpty()) {
                return;
            }
            PendingApproval p = waiting.get(0);
            boolean question = p.kind() == PendingApproval.Kind.QUESTION;
            out.println(question ? "  ?? the agent asks: " + p.question()
                    : "  ?? " + p.name() + " " + p.arguments() + " needs your approval");
            out.flush();
            String prompt = question ? "answer (blank: later)> " : "approve? y / n REASON / e JSON (edited arguments) / blank: later> ";
            String line = input.readLine(prompt);
            if (line == null || line.isBlank()) {
                out.println("(the turn waits: /approvals answers it later; a new message denies it)");
                return;
            }
            line = line.strip();
            if (!input.interactive()) {
                out.println(prompt + line);
            }
            int before = session.state().messages().size();
            Compaction compactionBefore = session.state().compaction();
            TurnResult r;
            try {
                String answer = line;
                r = turnCommand(() -> question ? session.with(options()).answer(p.toolUseId(), answer) : decide(p, answer));
            } catch (ThreadlineException e) {
                stream.end();
                error(e);
                continue;
            }
            if (!show(before, compactionBefore, r)) {
                return;
            }
        }
    }

    private TurnResult decide(PendingApproval p, String line) {
        if (line.equalsIgnoreCase("y") || line.equalsIgnoreCase("yes")) {
            return session.with(options()).approve(p.toolUseId());
        }
        if (line.startsWith("e ")) {
            return session.with(options()).approve(p.toolUseId(), Json.parse(line.substring(2).strip(), "edited arguments"));
        }
        if (!line.matches("(?i)(n|no)(\\s.*)?")) {
            throw new dev.threadline.core.error.InvalidInputException("answer", "'" + line + "' is none of y, n REASON, e JSON;"
                    + " a blank line leaves the call waiting");
        }
        String reason = line.replaceFirst("^(?i)(n|no)\\s*", "").strip();
        return session.with(options()).deny(p.toolUseId(), reason.isEmpty() ? "no reason given" : reason);
    }

    /** Streams the turn's text to the terminal when a person watches it (or --stream); piped runs print whole messages. */
    private CommandOptions options() {
        return input.interactive() || streamPiped
                ? CommandOptions.builder().listener(stream.start(session.state().messages().size())).build() : CommandOptions.NONE;
    }

    private final TurnPrinter stream;

    /** Runs a slash command; false means leave. */
    private boolean command(String line) {
        String[] parts = line.split("\\s+", 2);
        String arg = parts.length > 1 ? parts[1].strip() : "";
        switch (parts[0]) {
            case "/exit", "/quit" -> {
                return false;
            }
            case "/help" -> out.println(HELP);
            case "/history" -> Printer.history(out, session.state());
            case "/checkpoints" -> Printer.checkpoints(out, session.history().checkpoints(), session.history().sideEffectsAfter(0));
            case "/rewind" -> {
                if (arg.isEmpty()) {
                    out.println("usage: /rewind SEQ (a seq that /checkpoints lists)");
                    return true;
                }
                BranchArgs b = BranchArgs.parse(arg, "/rewind");
                Session old = session;
                session = b.go(() -> old.with(b.options()).rewind(b.seq()));
                out.println("Rewound to seq " + b.seq() + ": now on branch " + session.id() + ". The old branch stays as "
                        + old.id() + " (/resume " + old.id() + " to go back).");
            }
            case "/fork" -> {
                if (arg.isEmpty()) {
                    out.println("usage: /fork SEQ (a seq that /checkpoints lists)");
                    return true;
                }
                BranchArgs b = BranchArgs.parse(arg, "/fork");
                Session old = session;
                session = b.go(() -> old.with(b.options()).fork(b.seq()));
                out.println("Forked " + old.id() + " at seq " + b.seq() + " into " + session.id() + "; now on " + session.id() + ".");
            }
            case "/vars" -> {
                var info = session.info();
                Printer.variables(out, "session", session.state().variables());
                Printer.variables(out, "user " + info.userId(), session.variables(VariableScope.USER));
                Printer.variables(out, "app", session.variables(VariableScope.APP));
            }
            case "/sessions" -> tenant.sessions().items().forEach(r -> out.println((r.info().id().equals(session.id()) ? "* " : "  ")
                    + Printer.summaryLine(tenant, r)));
            case "/resume" -> {
                if (arg.isEmpty()) {
                    out.println("usage: /resume ID (see /sessions)");
                } else {
                    session = tenant.open(arg);
                    out.println("Now on session " + session.id() + " (" + session.state().messages().size() + " messages).");
                }
            }
            case "/usage" -> ContextCommands.usage(out, session);
            case "/compact" -> ContextCommands.compact(out, session, arg);
            case "/budget" -> {
                if (arg.isBlank()) {
                    ContextCommands.budget(out, session.state().budgetOr(session.info().config().budget()), session.state().usage());
                    return true;
                }
                dev.threadline.core.state.Budget budget = ContextCommands.parseBudget(arg);
                int before = session.state().messages().size();
                Compaction compactionBefore = session.state().compaction();
                java.util.Optional<TurnResult> continued = turnCommand(() -> session.with(options()).setBudget(budget));
                ContextCommands.budget(out, budget, session.state().usage());
                if (continued.isPresent() && show(before, compactionBefore, continued.get())) {
                    try {
                        resolve();
                    } catch (IOException e) {
                        throw new ThreadlineException("reading the answer failed: " + e.getMessage(), e);
                    }
                }
            }
            case "/approvals" -> {
                List<PendingApproval> waiting = session.pendingApprovals();
                if (waiting.isEmpty()) {
                    out.println("Nothing waits for you.");
                } else {
                    waiting.forEach(p -> out.println("  " + p.toolUseId() + "  " + (p.kind() == PendingApproval.Kind.QUESTION
                            ? "question: " + p.question() : "approval: " + p.name() + " " + p.arguments())));
                    try {
                        resolve();
                    } catch (IOException e) {
                        throw new ThreadlineException("reading the answer failed: " + e.getMessage(), e);
                    }
                }
            }
            case "/search" -> {
                if (arg.isEmpty()) {
                    out.println("usage: /search WORDS (what to look for in everything this session said)");
                } else {
                    Printer.searchHits(out, session.id(), "", arg, session.history().search(arg, 10));
                }
            }
            case "/clear" -> {
                session.clear();
                out.println("Context cleared: the model starts afresh; /history still shows everything.");
            }
            default -> {
                err.println("error: unknown command " + parts[0] + "; /help lists the commands");
                err.flush();
            }
        }
        return true;
    }
}
