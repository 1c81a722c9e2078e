package dev.threadline.bench.server;

import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.skill.builtin.ListFilesSkill;
import dev.threadline.core.skill.builtin.ReadFileSkill;
import dev.threadline.models.Models;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The same turns through the Java API in this JVM: a runtime built as {@code threadline serve}
 * builds its own (SQLite file, the environment's model resolver, so the scripted model; the built-in
 * skills without the file ones, ask_user; 30 s lease wait, no lease linger), {@code Tenant.create} and {@code Session.submit}.
 * A caller keeps its session handles. Thread-safe.
 */
final class InProcessTurns implements Turns {
    private final Threadline runtime;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    InProcessTurns(Path db) {
        this(SqliteStateStore.open(db));
    }

    /** The same runtime on {@code store} (which it closes when it closes). */
    InProcessTurns(dev.threadline.core.store.StateStore store) {
        this.runtime = Threadline.builder().store(store)
                .models(Models.resolver(null, System.getenv(), 0, HttpSettings.defaults()))
                .skills(skills()).leaseWait(Duration.ofSeconds(30)).leaseLinger(Duration.ZERO).build();
    }

    /** The server's skills without a workspace: the built-in ones but the file ones, and ask_user. */
    private static List<dev.threadline.core.skill.Skill> skills() {
        List<dev.threadline.core.skill.Skill> all = new java.util.ArrayList<>(Builtins.all(Path.of("").toAbsolutePath()));
        all.removeIf(s -> s.name().equals(ReadFileSkill.NAME) || s.name().equals(ListFilesSkill.NAME));
        all.add(Builtins.askUser());
        return all;
    }

    @Override
    public String name() {
        return "in-process";
    }

    @Override
    public void create(List<String> ids) {
        for (String id : ids) {
            sessions.put(id, runtime.defaultTenant().create(id, SessionConfig.DEFAULT));
        }
    }

    @Override
    public void turn(String id, String text) throws OpenLoop.Failure {
        Session s = sessions.computeIfAbsent(id, runtime.defaultTenant()::open);
        TurnResult r;
        try {
            r = s.submit(text);
        } catch (RuntimeException e) {
            throw new OpenLoop.Failure(e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
        }
        if (r.outcome() != TurnResult.Outcome.COMPLETED || r.toolCalls() < 1) {
            throw new OpenLoop.Failure("turn without a completed tool call", r.toString());
        }
    }

    /** The runtime, for the idle observers of the in-process SSE comparison. */
    Threadline runtime() {
        return runtime;
    }

    Session session(String id) {
        return sessions.computeIfAbsent(id, runtime.defaultTenant()::open);
    }

    @Override
    public Memory memory() {
        return Memory.self();
    }

    @Override
    public void close() {
        runtime.close();
    }
}
