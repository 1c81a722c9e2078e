package dev.threadline.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SearchText;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.WrappedDataKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The part of a JDBC {@link StateStore} that is the same on SQLite and PostgreSQL: the reads (head,
 * events, sessions, listings, branches, expired sessions, snapshots, shared variables, command records, history
 * bases), the lease calls and history pruning, each one unit of work on the store's {@link Transactions}, the database's own statements
 * coming from its {@link Dialect}. A store extends it with what its database does its own way: create
 * and append, waiting for a head, snapshots, interrupts, deletion, durability and closing.
 * Thread-safe: it keeps no state of its own beyond what its {@link Transactions} guards.
 */
public abstract class JdbcStateStore implements StateStore {
    private final Transactions db;
    private final Dialect dialect;
    private final Clock clock;
    private final TextRows.TextDialect text;
    private final Sealing sealing;

    /**
     * A store running its units of work on {@code db}, its own statements from {@code dialect} and
     * {@code text} (its full-text index), judged by {@code clock}, whose payloads are stored as {@code sealing}
     * says (ADR 0049); with sealing on, {@link #search} ranks in process (the store writes no text index).
     */
    protected JdbcStateStore(Transactions db, Dialect dialect, TextRows.TextDialect text, Clock clock, Sealing sealing) {
        this.sealing = Objects.requireNonNull(sealing, "sealing");
        this.text = Objects.requireNonNull(text, "text");
        this.db = Objects.requireNonNull(db, "db");
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public long head(SessionKey key) {
        return db.read(() -> "read the head of session '" + key.id() + "'", c -> dialect.head(c, key));
    }

    @Override
    public List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) {
        return readEvents(key, fromSeq, toSeq, false);
    }

    @Override
    public List<StoredEvent> readOwnTranscript(SessionKey key, long fromSeq, long toSeq) {
        return readEvents(key, fromSeq, toSeq, true);
    }

    @Override
    public List<Event> readOwnTranscriptEvents(SessionKey key, long fromSeq, long toSeq) {
        return db.read(() -> "read the transcript of session '" + key.id() + "' seq " + fromSeq + ".." + toSeq, c -> {
            List<Event> out = dialect.transcriptEvents(c, key, fromSeq, toSeq);
            if (out.isEmpty()) {
                dialect.head(c, key); // an unknown session is an error, an empty range is not
            }
            return out;
        });
    }

    private List<StoredEvent> readEvents(SessionKey key, long fromSeq, long toSeq, boolean transcriptOnly) {
        return db.read(() -> "read session '" + key.id() + "' seq " + fromSeq + ".." + toSeq, c -> {
            List<StoredEvent> out = dialect.events(c, key, fromSeq, toSeq, transcriptOnly);
            if (out.isEmpty()) {
                dialect.head(c, key); // an unknown session is an error, an empty range is not
            }
            return out;
        });
    }

    /** How this store's payloads are stored (sealed or not, ADR 0049). */
    protected final Sealing sealing() {
        return sealing;
    }

    /**
     * The database's own index over the messages ({@code journal_text}), written with each append: no journal read.
     * A store that seals its payloads writes no index (it would hold their plaintext): it reads the ranges and ranks
     * them in process, as {@link dev.threadline.core.store.TextSearch}'s default does.
     */
    @Override
    public List<SearchHit> search(List<SearchRange> ranges, String query, int limit) {
        Objects.requireNonNull(ranges, "ranges");
        SearchText.terms(query, limit); // refused before the database is asked
        if (sealing.on()) {
            List<StoredEvent> events = new java.util.ArrayList<>();
            for (SearchRange r : ranges) {
                if (!r.isEmpty()) {
                    events.addAll(readOwn(r.key(), r.fromSeq(), r.toSeq()));
                }
            }
            return SearchText.rank(events, query, limit);
        }
        return db.read(() -> "search " + ranges.size() + " journal ranges", c -> TextRows.search(c, text, ranges, query, limit));
    }

    @Override
    public Optional<SessionInfo> session(SessionKey key) {
        return db.read(() -> "read session '" + key.id() + "'", c -> Optional.ofNullable(SessionTable.info(c, key)));
    }

    @Override
    public Page<SessionSummary> list(SessionQuery query) {
        Objects.requireNonNull(query, "query");
        return db.read(() -> "list the sessions of tenant '" + query.tenant() + "'", c -> dialect.list(c, query));
    }

    @Override
    public List<String> branches(SessionKey key) {
        return db.read(() -> "list the branches of session '" + key.id() + "'", c -> {
            dialect.head(c, key);
            return SessionTable.branches(c, key);
        });
    }

    @Override
    public List<SessionKey> expired(Instant now, int limit) {
        StoreChecks.expired(now, limit);
        return db.read(() -> "list the sessions expired at " + now, c -> SessionTable.expired(c, now, limit));
    }

    @Override
    public Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) {
        return db.read(() -> "read a snapshot of session '" + key.id() + "'", c -> {
            dialect.head(c, key);
            return SharedRows.latestSnapshot(c, key, maxSeq, sealing);
        });
    }

    /** Both JDBC stores prune ({@link HistoryBaseRows}, ADR 0045). */
    @Override
    public boolean prunesHistory() {
        return true;
    }

    /** In one write: the base kept, the rows it stands for removed ({@link HistoryBaseRows}). */
    @Override
    public void prune(SessionKey key, HistoryBase base) {
        Objects.requireNonNull(base, "base");
        String payload = RecordCodec.encodeBase(base);
        sealing.ready(key.tenant()); // a missing key is refused here, before the write
        db.write(() -> "prune session '" + key.id() + "' through seq " + base.seq(), c -> {
            HistoryBaseRows.prune(c, key, dialect.head(c, key), base, payload, sealing);
            return null;
        });
    }

    @Override
    public Optional<HistoryBase> historyBase(SessionKey key) {
        return db.read(() -> "read the history base of session '" + key.id() + "'", c -> {
            dialect.head(c, key);
            return Optional.ofNullable(HistoryBaseRows.find(c, key, sealing));
        });
    }

    /** Both JDBC stores keep data keys ({@link DataKeyRows}, ADR 0049). */
    @Override
    public boolean keepsDataKeys() {
        return true;
    }

    @Override
    public List<dev.threadline.core.store.WrappedDataKey> dataKeys(String tenant) {
        return db.read(() -> "read the data keys of tenant '" + tenant + "'", c -> DataKeyRows.find(c, tenant));
    }

    @Override
    public boolean addDataKey(dev.threadline.core.store.WrappedDataKey key) {
        Objects.requireNonNull(key, "key");
        return db.write(() -> "add data key " + key.number() + " of tenant '" + key.tenant() + "'",
                c -> DataKeyRows.add(c, key, clock.millis()));
    }

    @Override
    public boolean rewrapDataKey(WrappedDataKey current, WrappedDataKey rewrapped) {
        DataKeys.sameKey(current, rewrapped);
        return db.write(() -> "wrap data key " + current.number() + " of tenant '" + current.tenant() + "' again",
                c -> DataKeyRows.rewrap(c, current, rewrapped));
    }

    @Override
    public boolean seals() {
        return sealing.on();
    }

    @Override
    public int rotateDataKey(String tenant) {
        Require.nonBlank(tenant, "tenant");
        return sealing.on() ? sealing.rotate(tenant) : StateStore.super.rotateDataKey(tenant);
    }

    @Override
    public int rewrapDataKeys(String tenant) {
        Require.nonBlank(tenant, "tenant");
        return sealing.on() ? sealing.rewrap(tenant) : StateStore.super.rewrapDataKeys(tenant);
    }

    /** Refuses, naming the store, unless the store overrides it (SQLite and PostgreSQL do); a store without keys refuses as every store does. */
    @Override
    public Resealed reseal(String tenant, int batch, Consumer<Resealed> progress) {
        if (!sealing.on()) {
            return StateStore.super.reseal(tenant, batch, progress);
        }
        throw new InvalidInputException("store", "re-sealing payloads is not yet available on "
                + getClass().getSimpleName() + " (nothing was changed)");
    }

    @Override
    public Map<String, JsonNode> variables(VariableScope scope, String key) {
        return db.read(() -> "read the " + scope.wireName() + " variables of '" + key + "'",
                c -> SharedRows.variables(c, scope.wireName(), key, sealing));
    }

    @Override
    public LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) {
        StoreChecks.lease(owner, ttl);
        return db.write(() -> "acquire the lease of session '" + key.id() + "' for " + owner,
                c -> dialect.acquire(c, key, owner, ttl, deadHolder, clock.instant()));
    }

    @Override
    public Lease renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        StoreChecks.lease(lease.owner(), ttl);
        return db.write(() -> "renew the lease of session '" + lease.key().id() + "' for " + lease.owner(),
                c -> dialect.renew(c, lease, ttl, clock.instant()));
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        db.write(() -> "release the lease of session '" + lease.key().id() + "'", c -> {
            dialect.release(c, lease);
            return null;
        });
    }

    @Override
    public Optional<Lease> lease(SessionKey key) {
        return db.read(() -> "read the lease of session '" + key.id() + "'", c -> Optional.ofNullable(dialect.lease(c, key)));
    }

    @Override
    public Optional<CommandRecord> command(SessionKey key, String commandId) {
        return db.read(() -> "read command '" + commandId + "' of session '" + key.id() + "'", c -> {
            dialect.head(c, key);
            return Optional.ofNullable(CommandRows.find(c, key, commandId, sealing));
        });
    }
}
