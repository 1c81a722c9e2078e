package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.runtime.AsyncSession;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Commit;
import dev.threadline.core.runtime.CompactionResult;
import dev.threadline.core.runtime.Decider;
import dev.threadline.core.runtime.ReplayReport;
import dev.threadline.core.runtime.ReplayRequest;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.Edit;
import dev.threadline.core.store.SessionKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link AsyncSession} of a session handle: the same commands, with the handle's options, queued
 * through the command gate instead of run on the caller's thread. Branch commands, which take no turn of
 * the session, run on the runtime's threads. Thread-safe.
 */
final class AsyncHandle implements AsyncSession {
    private final SessionCommands commands;
    private final SessionHandle session;
    private final SessionKey key;
    private final CommandOptions options;

    AsyncHandle(SessionCommands commands, SessionHandle session) {
        this.commands = commands;
        this.session = session;
        this.key = session.key();
        this.options = session.options();
    }

    @Override
    public CompletableFuture<TurnResult> submit(String text) {
        return commands.queue(key, commands.submit(key, options, text, session::configured));
    }

    @Override
    public CompletableFuture<TurnResult> approve(String toolUseId) {
        return commands.queue(key, commands.approve(key, options, toolUseId, null));
    }

    @Override
    public CompletableFuture<TurnResult> approve(String toolUseId, JsonNode editedArguments) {
        return commands.queue(key, commands.approve(key, options, toolUseId, Require.nonNull(editedArguments, "editedArguments")));
    }

    @Override
    public CompletableFuture<TurnResult> deny(String toolUseId, String reason) {
        return commands.queue(key, commands.deny(key, options, toolUseId, reason));
    }

    @Override
    public CompletableFuture<TurnResult> answer(String toolUseId, String text) {
        return commands.queue(key, commands.answer(key, options, toolUseId, text));
    }

    @Override
    public CompletableFuture<Commit> recordStep(Decider decider) {
        return commands.queue(key, commands.recordStep(key, options, decider));
    }

    @Override
    public CompletableFuture<Commit> edit(String author, String reason, List<Edit> edits) {
        return commands.queue(key, commands.edit(key, options, author, reason, edits));
    }

    @Override
    public CompletableFuture<Void> clear() {
        return commands.queue(key, commands.clear(key, options)).thenApply(c -> null);
    }

    @Override
    public CompletableFuture<CompactionResult> compact(String focus) {
        return commands.queue(key, commands.compact(key, options, focus));
    }

    @Override
    public CompletableFuture<List<SideEffect>> compensate(long seq) {
        return commands.queue(key, commands.compensate(key, options, seq));
    }

    @Override
    public CompletableFuture<Session> fork(long seq, String newId) {
        return commands.elsewhere(() -> session.sibling(commands.branch(key, options, seq, newId, "fork", ".f")));
    }

    @Override
    public CompletableFuture<Session> rewind(long seq) {
        return commands.elsewhere(() -> session.sibling(commands.branch(key, options, seq, null, "rewind", ".r")));
    }

    @Override
    public CompletableFuture<ReplayReport> replay(ReplayRequest request) {
        return commands.elsewhere(() -> commands.replay(key, options, request));
    }
}
