package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.core.testkit.Codec;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.testkit.RawSteps;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.State;
import dev.threadline.core.store.StateStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Threadline through its public API. A step records the events of one message, as the agent loop
 * writes them, through the session's command gate ({@code RawSteps.update}, the engine's raw step): the session's mailbox (inline when idle), its lease
 * (kept between commands), decide, reducer check, compare-and-set fenced append, commit, cache,
 * publish. With {@code viaMailbox} the same path runs from a second set of sessions (the engine is not
 * public API, so there is no path around the mailbox to compare with any more). The model and skills
 * play no part in it. A cold load is a new runtime on a newly opened store and its first {@code state()}.
 */
final class ThreadlineContender implements Contender {
    private final StoreUrl url;
    private final String part;
    private final StateStore store;
    private final Threadline runtime;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final boolean viaMailbox;
    private final boolean groupCommit;

    ThreadlineContender(StoreUrl url, String part, boolean viaMailbox) {
        this(url, part, viaMailbox, true);
    }

    /** {@code groupCommit} false: the SQLite store commits each write in its own transaction (maxBatch 1). */
    ThreadlineContender(StoreUrl url, String part, boolean viaMailbox, boolean groupCommit) {
        this.url = url;
        this.part = part;
        this.viaMailbox = viaMailbox;
        this.groupCommit = groupCommit;
        this.store = url.open(part, groupCommit ? 0 : 1);
        this.runtime = Threadline.builder().store(store).build();
    }

    @Override
    public String name() {
        return "Threadline Session.update" + (viaMailbox ? " (second sessions)" : "") + (groupCommit ? "" : ", no group commit")
                + " (" + url.kind() + ")";
    }

    @Override
    public String durability() {
        return store.durability();
    }

    @Override
    public List<String> cannot() {
        return url.isSqlite() ? List.of() : List.of("nothing survives the process (memory store)");
    }

    @Override
    public void prefill(String session, List<BenchMessage> history) {
        Session s = runtime.defaultTenant().create(session, SessionConfig.DEFAULT);
        sessions.put(session, s);
        for (int from = 0; from < history.size(); from += 100) {
            List<Event> batch = new ArrayList<>();
            for (BenchMessage m : history.subList(from, Math.min(history.size(), from + 100))) {
                batch.addAll(m.toEvents());
            }
            RawSteps.update(s, state -> batch);
        }
    }

    @Override
    public void step(String session, BenchMessage message) {
        List<Event> events = message.toEvents();
        RawSteps.update(sessions.computeIfAbsent(session, runtime.defaultTenant()::open), state -> events); // a caller keeps its handle
    }

    /** Opens the session for a caller that drives whole turns (the throughput run). */
    Threadline runtime() {
        return runtime;
    }

    @Override
    public Optional<Path> database() {
        return url.isSqlite() ? Optional.of(url.fileFor(part)) : Optional.empty();
    }

    @Override
    public OptionalInt coldLoad(String session) {
        if (!url.isSqlite()) { // a new runtime over the same in-memory store: an empty cache, a full fold
            try (Threadline fresh = Threadline.builder().store(KeptOpen.view(store)).build()) { // closed, the store kept
                return OptionalInt.of(fresh.defaultTenant().open(session).state().messages().size());
            }
        }
        try (Threadline fresh = Threadline.builder().store(url.reopen(part)).build()) {
            return OptionalInt.of(fresh.defaultTenant().open(session).state().messages().size());
        }
    }

    @Override
    public State heldInMemory(String session) {
        return runtime.defaultTenant().open(session).state();
    }

    @Override
    public long serializedBytes(String session) {
        long bytes = 0;
        for (StoredEvent e : runtime.defaultTenant().open(session).history().journal()) {
            bytes += Codec.bytes(e.event()); // the stored form (testkit.Codec), not the wire JSON
        }
        return bytes;
    }

    @Override
    public void close() {
        runtime.close();
    }
}
