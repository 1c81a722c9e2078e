package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.runtime.AsyncSession;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.CompactionResult;
import dev.threadline.core.runtime.ContextReport;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.History;
import dev.threadline.core.runtime.PendingApproval;
import dev.threadline.core.runtime.ReplayReport;
import dev.threadline.core.runtime.ReplayRequest;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.SessionKey;
import java.util.List;
import java.util.Map;

/**
 * The {@link Session} implementation: a session key and the options its commands carry, bound to the
 * session commands and reads. Thread-safe.
 */
public final class SessionHandle implements Session {
    private final SessionCommands commands;
    private final SessionReads reads;
    private final SessionKey key;
    private final CommandOptions options;
    /** The session config's strategy: fixed at creation, read once per handle (and kept by its views). */
    private volatile DoubleTexting configured;

    SessionHandle(SessionCommands commands, SessionReads reads, SessionKey key, CommandOptions options) {
        this.commands = commands;
        this.reads = reads;
        this.key = key;
        this.options = options;
    }

    SessionKey key() {
        return key;
    }

    CommandOptions options() {
        return options;
    }

    /** The session config's double-texting strategy. */
    DoubleTexting configured() {
        DoubleTexting d = configured;
        if (d == null) {
            d = info().config().doubleTexting();
            configured = d;
        }
        return d;
    }

    /** A handle on another session (a branch) with no options. */
    Session sibling(SessionKey other) {
        return new SessionHandle(commands, reads, other, CommandOptions.NONE);
    }

    @Override
    public String id() {
        return key.id();
    }

    @Override
    public SessionInfo info() {
        return reads.info(key);
    }

    @Override
    public Session with(CommandOptions options) {
        SessionHandle view = new SessionHandle(commands, reads, key, Require.nonNull(options, "options"));
        view.configured = configured;
        return view;
    }

    @Override
    public AsyncSession async() {
        return new AsyncHandle(commands, this);
    }

    @Override
    public History history() {
        return new HistoryView(reads, key);
    }

    @Override
    public TurnResult submit(String text) {
        return commands.call(key, commands.submit(key, options, text, this::configured));
    }

    @Override
    public TurnResult approve(String toolUseId) {
        return commands.call(key, commands.approve(key, options, toolUseId, null));
    }

    @Override
    public TurnResult approve(String toolUseId, JsonNode editedArguments) {
        return commands.call(key, commands.approve(key, options, toolUseId, Require.nonNull(editedArguments, "editedArguments")));
    }

    @Override
    public java.util.Optional<TurnResult> setBudget(dev.threadline.core.state.Budget budget) {
        return java.util.Optional.ofNullable(commands.call(key, commands.setBudget(key, options, budget)));
    }

    @Override
    public TurnResult deny(String toolUseId, String reason) {
        return commands.call(key, commands.deny(key, options, toolUseId, reason));
    }

    @Override
    public TurnResult answer(String toolUseId, String text) {
        return commands.call(key, commands.answer(key, options, toolUseId, text));
    }

    @Override
    public Commit recordStep(Decider decider) {
        return commands.call(key, commands.recordStep(key, options, decider));
    }

    /** One raw step, mid-turn or not (the test kit's {@code RawSteps}). */
    public Commit update(Decider decider) {
        return commands.call(key, commands.update(key, options, decider));
    }

    @Override
    public Commit edit(String author, String reason, List<Edit> edits) {
        return commands.call(key, commands.edit(key, options, author, reason, edits));
    }

    @Override
    public void clear() {
        commands.call(key, commands.clear(key, options));
    }

    @Override
    public CompactionResult compact() {
        return commands.call(key, commands.compact(key, options, null));
    }

    @Override
    public CompactionResult compact(String focus) {
        return commands.call(key, commands.compact(key, options, focus));
    }

    @Override
    public List<SideEffect> compensate(long seq) {
        return commands.call(key, commands.compensate(key, options, seq));
    }

    @Override
    public Session fork(long seq) {
        return sibling(commands.branch(key, options, seq, null, "fork", ".f"));
    }

    @Override
    public Session fork(long seq, String newId) {
        return sibling(commands.branch(key, options, seq, Require.nonNull(newId, "newId"), "fork", ".f"));
    }

    @Override
    public Session rewind(long seq) {
        return sibling(commands.branch(key, options, seq, null, "rewind", ".r"));
    }

    @Override
    public ReplayReport replay(ReplayRequest request) {
        return commands.replay(key, options, request);
    }

    @Override
    public boolean interrupt() {
        return commands.interrupt(key);
    }

    @Override
    public State state() {
        return reads.state(key);
    }

    @Override
    public List<PendingApproval> pendingApprovals() {
        return reads.pendingApprovals(key);
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope) {
        return reads.variables(key, scope);
    }

    @Override
    public ContextReport context() {
        return reads.context(key);
    }

    @Override
    public String toString() {
        return "Session[" + key.id() + "]";
    }
}
