package dev.threadline.store.redis;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.json.Json;
import dev.threadline.core.log.Logs;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import io.lettuce.core.ZAddArgs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * A Redis store's writes: a create (its keys claimed by {@code create.lua}, replacing an unfinished
 * create older than the claim window; a branch adopted by its parent) and an append ({@code append.lua}:
 * the fencing and head checks, the events, the command record; then the step's shared writes, each scope
 * in its own slot, and the tenant's index). Each runs through the store's {@link Caller}, which refuses
 * a closed store and turns a Redis failure into one line. With encryption at rest on, every tenant a write
 * touches is made ready ({@link Sealer#ready}) and every payload sealed on the caller's thread before anything
 * is sent, so a missing or wrong key writes nothing.
 */
final class Writes {
    private static final Logger LOG = Logs.get(RedisStateStore.class);

    /** Runs a store call: refuses a closed store, turns a Redis failure into a one-line {@link StorageException}. */
    interface Caller {
        <T> T call(String what, Supplier<T> body);
    }

    private final Connection redis;
    private final Keys keys;
    private final SessionScripts scripts;
    private final Branches branches;
    private final RedisStateStore.Options options;
    private final Sealer sealer;

    Writes(Connection redis, Keys keys, SessionScripts scripts, Branches branches, RedisStateStore.Options options, Sealer sealer) {
        this.sealer = sealer;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.branches = branches;
        this.options = options;
    }

    /** Creates the session (its keys, then a branch's adoption by its parent, then the index entry). */
    void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command, Caller call) {
        create(info, null, firstEvents, command, call);
    }

    /**
     * Creates a session as {@link #create(SessionInfo, List, CommandRecord, Caller)} does, or, when {@code base} is
     * not null, one whose history starts from it ({@link dev.threadline.core.store.HistoryPruning#createFromBase}):
     * the same script keeps the base (sealed as a prune's) and starts the events list after it.
     */
    void create(SessionInfo info, dev.threadline.core.store.HistoryBase base, List<StoredEvent> firstEvents, CommandRecord command,
                Caller call) {
        SessionKey key = SessionKey.of(info);
        if (base == null) {
            StoreChecks.batch(info.id(), info.parentSeq(), firstEvents);
            StoreChecks.createCommand(info, command);
        } else {
            StoreChecks.fromBase(info, base, firstEvents, command);
        }
        long from = base == null ? info.parentSeq() : base.seq();
        boolean branch = info.parentId() != null;
        CommandRecord own = command != null && command.session().equals(key) ? command : null;
        CommandRecord onParent = command != null && own == null ? command : null;
        String token = UUID.randomUUID().toString();
        sealer.ready(key.tenant());
        List<String> args = new ArrayList<>(List.of("", RecordCodec.encodeSession(info), Long.toString(from), "",
                token, branch ? "1" : "0", branch ? info.parentId() : "",
                info.expiresAt() == null ? "" : Long.toString(info.expiresAt().toEpochMilli()),
                own == null ? "" : own.commandId(), own == null ? "" : Records.encodeCommand(own, sealer), "",
                base == null ? "" : Integer.toString(RecordCodec.VERSION),
                base == null ? "" : sealer.seal(RecordCodec.encodeBase(base), HistoryBases.place(key))));
        firstEvents.forEach(e -> args.add(EventEntry.encode(e, key.tenant(), sealer)));
        call.call("create session '" + info.id() + "'", () -> {
            Instant now = options.clock().instant();
            args.set(3, now.toString());
            args.set(10, Long.toString(now.toEpochMilli()));
            claim(key, args, now);
            if (branch) {
                branches.adopt(info, token, onParent, now);
            }
            index(key, now);
            Expiry.add(redis, keys, info);
            return null;
        });
    }

    /** Writes the session's keys, replacing an unfinished create older than the claim window. */
    private void claim(SessionKey key, List<String> args, Instant now) {
        for (int attempt = 0; ; attempt++) {
            Reply r = scripts.ackedRaw(keys.session(key), Scripts.CREATE, args.toArray(String[]::new));
            if (r.is("OK")) {
                return;
            }
            if (r.is("PEND") && !scripts.settle(key, r.text(0), r.text(1)) && attempt < 2
                    && Instant.parse(r.text(2)).plus(options.claimWindow()).isBefore(now)) {
                args.set(0, r.text(0));
                continue;
            }
            throw new SessionExistsException(key.id());
        }
    }

    /** Appends a step; on success applies its shared writes and moves the index entry. */
    long append(AppendRequest request, Caller call) {
        SessionKey key = request.key();
        StoreChecks.batch(key.id(), request.expectedSeq(), request.events());
        StoreChecks.command(request);
        CommandRecord c = request.command();
        if (sealer.on()) {
            sealer.ready(key.tenant());
            request.writes().forEach(w -> sealer.ready(Records.variablePlace(w.scope(), w.key(), "").tenant()));
        }
        String writes = request.writes().isEmpty() ? "" : sealer.seal(Records.encodeWrites(request.writes()), Records.writesPlace(key));
        List<String> args = new ArrayList<>(List.of(Long.toString(request.expectedSeq()), Long.toString(request.epoch()), "",
                c == null ? "" : c.commandId(), c == null ? "" : Records.encodeCommand(c, sealer), writes, ""));
        request.events().forEach(e -> args.add(EventEntry.encode(e, key.tenant(), sealer)));
        return call.call("append to session '" + key.id() + "' after seq " + request.expectedSeq(), () -> {
            for (int attempt = 0; ; attempt++) {
                Instant now = options.clock().instant();
                args.set(2, now.toString());
                args.set(6, Long.toString(now.toEpochMilli()));
                Reply r = scripts.acked(key, Scripts.APPEND, args.toArray(String[]::new));
                switch (r.status()) {
                    case "OK" -> {
                        if (!writes.isEmpty()) {
                            applyWrites(key, request.writes(), writes);
                        }
                        index(key, now);
                        return r.number(0);
                    }
                    case "NF" -> throw new SessionNotFoundException(key.id());
                    case "LEASE" -> throw new LeaseLostException(key.id(), request.epoch(), r.number(0));
                    case "SEQ" -> throw new VersionConflictException(key.id(), request.expectedSeq(), r.number(0));
                    case "DUP" -> throw new DuplicateCommandException(Records.decodeCommand(key, c.commandId(), r.text(0), sealer));
                    case "WIP" -> {
                        if (attempt > 3) {
                            throw new StorageException("session '" + key.id() + "': the shared writes of its last step cannot be applied");
                        }
                        String recorded = sealer.open(r.text(0), Records.writesPlace(key));
                        applyWrites(key, Records.decodeWrites(key.id(), recorded), r.text(0)); // roll the last step forward
                    }
                    default -> throw new StorageException("redis store: unexpected reply " + r.status() + " to an append");
                }
            }
        });
    }

    /** Applies a step's shared writes (each scope in its own slot), then clears their record on the session. */
    private void applyWrites(SessionKey key, List<ScopedWrite> writes, String recorded) {
        for (ScopedWrite w : writes) {
            List<String> args = new ArrayList<>();
            args.add(Integer.toString(w.removed().size()));
            args.addAll(w.removed());
            w.set().forEach((name, value) -> {
                args.add(name);
                args.add(sealer.seal(Json.write(value), Records.variablePlace(w.scope(), w.key(), name)));
            });
            scripts.ackedRaw(new String[] {keys.variables(w.scope(), w.key())}, Scripts.VARS, args.toArray(String[]::new));
        }
        scripts.raw(keys.session(key), Scripts.UNWIP, recorded);
    }

    /** Moves the session to its update time in the tenant's index (never back: ZADD LT on minus the millis). */
    private void index(SessionKey key, Instant updated) {
        try {
            redis.sync.zadd(keys.index(key.tenant()), ZAddArgs.Builder.lt(), Records.score(updated), key.id());
        } catch (RuntimeException e) {
            LOG.warn("redis store: session '{}' is stored but its index entry was not updated ({}); its next write updates it",
                    key.id(), Failures.cause(e));
        }
    }
}
