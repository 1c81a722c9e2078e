package dev.threadline.store.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.core.store.SessionKey;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Redis's re-seal ({@code threadline keys rotate-data}, ADR 0049): every payload value of a tenant that is plain or
 * sealed under an older data key than its newest is opened and sealed again for its place under the newest one.
 *
 * <p>The tenant's sessions are found by {@code SCAN} (on every master of a cluster) with a {@code MATCH} on their meta
 * keys, {@code prefix:{tenant/*}:meta}, rather than through the tenant's index, which a create whose writer died
 * before its index update does not list; its user variables likewise ({@code prefix:var:{user:tenant/*}}), its app
 * variables are one known key. Within a session (one hash slot) the events are read by seq
 * ({@code resealread.lua}), the {@code cmd} and {@code snap} hashes by {@code HSCAN}, the base and the meta fields
 * directly. Values that need it are sealed again on this side and written back by {@code reseal.lua}, at most
 * {@code batch} per script, each a compare-and-set: an event by its seq (a prune meanwhile moves it), a hash field
 * only while it still holds what was read, an interrupt reason while its epoch is the same, a step's pending shared
 * writes while the session's update time is the same. A value another process changed meanwhile keeps what that
 * process wrote. Pending shared writes younger than the store's claim window belong to a step still applying them
 * (whose clean-up compares them byte for byte), so they are left to it and counted as examined, not re-sealed.
 * Clear tails (event headers, command fingerprints) are kept as they are. Thread-safe.
 */
final class Resealer {
    private static final String[] NONE = {};

    private final Connection redis;
    private final Keys keys;
    private final Sealer sealer;
    private final RedisStateStore.Options options;
    private volatile Consumer<String> beforeWrite = slotKey -> { };

    Resealer(Connection redis, Keys keys, Sealer sealer, RedisStateStore.Options options) {
        this.redis = redis;
        this.keys = keys;
        this.sealer = sealer;
        this.options = options;
    }

    /**
     * For tests: {@code hook} is given the first key of each batch (a session's meta key, or a variables hash) between
     * the batch's reads and its compare-and-set, so a concurrent writer can be placed there; null removes it.
     */
    void beforeWrite(Consumer<String> hook) {
        beforeWrite = hook == null ? slotKey -> { } : hook;
    }

    /** See {@link dev.threadline.core.store.Resealing#reseal}; the store must seal ({@link Sealer#on}). */
    Resealed reseal(String tenant, int batch, Consumer<Resealed> progress) {
        if (batch < 1) {
            throw new InvalidInputException("batch", "a re-seal batch is 1 payload or more, not " + batch);
        }
        SessionInfo.checkId(tenant, "tenant");
        Run run = new Run(tenant, sealer.newest(tenant), batch, progress == null ? r -> { } : progress);
        String sessions = glob(keys.prefix()) + ":{" + tenant + "/*}:meta";
        scan(sessions, batch, k -> {
            String id = k.substring(keys.prefix().length() + 3 + tenant.length(), k.length() - "}:meta".length());
            SessionKey key;
            try {
                key = new SessionKey(tenant, id);
            } catch (InvalidInputException notOurs) {
                return; // a key the pattern matches that this store never writes
            }
            session(run, key);
        });
        variables(run, VariableScope.APP, tenant);
        String user = keys.prefix() + ":var:{user:";
        scan(glob(user) + tenant + "/*}", batch, k -> variables(run, VariableScope.USER, k.substring(user.length(), k.length() - 1)));
        return run.total;
    }

    /** The run's tenant, newest key, batch size and totals so far. */
    private static final class Run {
        final String tenant;
        final int number;
        final int batch;
        final Consumer<Resealed> progress;
        Resealed total;

        Run(String tenant, int number, int batch, Consumer<Resealed> progress) {
            this.tenant = tenant;
            this.number = number;
            this.batch = batch;
            this.progress = progress;
            this.total = new Resealed(tenant, number, 0, 0);
        }

        void done(long examined, long resealed) {
            total = new Resealed(tenant, number, total.examined() + examined, total.resealed() + resealed);
            progress.accept(total);
        }
    }

    /**
     * The compare-and-sets of one hash slot's keys, sent {@code batch} at a time: {@code keys} are a session's keys
     * (in {@link Keys#session}'s order) or one hash of variables.
     */
    private final class Batch {
        private final Run run;
        private final String[] slotKeys;
        private final List<String> args = new ArrayList<>();
        private final java.util.Set<String> places = new java.util.HashSet<>();
        private int examined;

        Batch(Run run, String[] slotKeys) {
            this.run = run;
            this.slotKeys = slotKeys;
        }

        /** A value to write back as {@code now} where it still holds {@code old} (see {@code reseal.lua} for the kinds). */
        void add(String kind, String a, String b, String old, String now) {
            if (!places.add(kind + '\u0000' + a + '\u0000' + b)) {
                return; // HSCAN returned the field twice (the hash was rehashed meanwhile): once is enough
            }
            args.addAll(List.of(kind, a, b, old, now));
            examined++;
            if (examined >= run.batch) {
                flush();
            }
        }

        /** A value looked at and left (it is in use by its writer). */
        void leave() {
            examined++;
            if (examined >= run.batch) {
                flush();
            }
        }

        void flush() {
            if (examined == 0) {
                return;
            }
            long replaced = 0;
            if (!args.isEmpty()) {
                beforeWrite.accept(slotKeys[0]);
                String[] a = args.toArray(NONE);
                Reply r = redis.acked(slotKeys[0], c -> Reply.of(Scripts.RESEAL.run(c, slotKeys, a)), x -> x.number(0) > 0);
                replaced = r.number(0);
            }
            run.done(examined, replaced);
            args.clear();
            places.clear();
            examined = 0;
        }
    }

    private void session(Run run, SessionKey key) {
        String[] k = keys.session(key);
        Batch batch = new Batch(run, k);
        long from = 1;
        while (true) {
            Reply r = Reply.of(Scripts.RESEALREAD.run(redis.sync, k, Long.toString(from), Integer.toString(run.batch)));
            if (r.is("NF")) {
                return; // deleted meanwhile
            }
            List<String> entries = r.list(1);
            for (String e : entries) {
                if (!Sealer.under(e, run.number)) {
                    long seq = seq(key, e);
                    batch.add("E", Long.toString(seq), "", e, event(key, seq, e));
                }
            }
            if (entries.size() < run.batch) {
                break;
            }
            from = Math.max(from, r.number(0) + 1) + entries.size();
        }
        hash(k[2], run.batch, (id, v) -> {
            if (!Sealer.under(v, run.number)) {
                CommandRecord c = Records.decodeCommand(key, id, v, sealer);
                if (c.result() != null) { // a record without a result holds no payload
                    batch.add("H", "3", id, v, Records.encodeCommand(c, sealer));
                }
            }
        });
        hash(k[4], run.batch, (seq, v) -> {
            if (!Sealer.under(v, run.number)) {
                batch.add("H", "5", seq, v, again(v, Snapshots.place(key, parse(key, "snapshot", seq))));
            }
        });
        String base = redis.sync.hget(k[Keys.HBASE], "payload");
        if (base != null && !Sealer.under(base, run.number)) {
            batch.add("H", "7", "payload", base, again(base, HistoryBases.place(key)));
        }
        List<String> m = redis.sync.hmget(k[Keys.META], "iepoch", "ireason", "upd", "wip").stream()
                .map(kv -> kv.getValueOrElse(null)).toList();
        if (m.get(0) != null && m.get(1) != null && !Sealer.under(m.get(1), run.number)) {
            batch.add("I", m.get(0), "", m.get(1), again(m.get(1), Leasing.place(key, parse(key, "interrupt", m.get(0)))));
        }
        if (m.get(2) != null && m.get(3) != null && !Sealer.under(m.get(3), run.number)) {
            if (stale(m.get(2))) {
                batch.add("W", m.get(2), "", m.get(3), again(m.get(3), Records.writesPlace(key)));
            } else {
                batch.leave(); // its step may still be applying them, and clears them only while they are as it wrote them
            }
        }
        batch.flush();
    }

    /** Whether a session last updated at {@code updated} is older than the claim window (an unreadable time is not). */
    private boolean stale(String updated) {
        try {
            return Instant.parse(updated).plus(options.claimWindow()).isBefore(options.clock().instant());
        } catch (java.time.DateTimeException e) {
            return false;
        }
    }

    private void variables(Run run, VariableScope scope, String scopeKey) {
        String hash = keys.variables(scope, scopeKey);
        Batch batch = new Batch(run, new String[] {hash});
        hash(hash, run.batch, (name, v) -> {
            if (!Sealer.under(v, run.number)) {
                batch.add("H", "1", name, v, again(v, Records.variablePlace(scope, scopeKey, name)));
            }
        });
        batch.flush();
    }

    /** {@code stored} (plain, or sealed under an older key) sealed again for {@code place} under the newest key. */
    private String again(String stored, Sealer.Place place) {
        return sealer.seal(sealer.open(stored, place), place);
    }

    /** An event entry (plain: header, newline, payload; sealed: payload, newline, header) sealed again, header kept. */
    private String event(SessionKey key, long seq, String entry) {
        Sealer.Place place = EventEntry.place(key.tenant(), key.id(), seq);
        if (Sealer.sealed(entry)) {
            return sealer.sealWithTail(sealer.openHead(entry, place), Sealer.tail(entry), place);
        }
        int eol = entry.indexOf('\n');
        return sealer.sealWithTail(entry.substring(eol + 1), entry.substring(0, eol), place);
    }

    /** The seq in an event entry's clear header: the place it was sealed for, and where the write-back looks. */
    private static long seq(SessionKey key, String entry) {
        boolean sealed = Sealer.sealed(entry);
        int eol = entry.indexOf('\n');
        String header = sealed ? Sealer.tail(entry) : eol < 0 ? null : entry.substring(0, eol);
        try {
            JsonNode h = Json.mapper().readTree(header);
            if (h.isArray() && h.size() == 7 && h.get(1).canConvertToLong()) {
                return h.get(1).asLong();
            }
        } catch (Exception e) {
            throw new StorageException("session '" + key.id() + "': corrupt event entry header", e);
        }
        throw new StorageException("session '" + key.id() + "': corrupt event entry header");
    }

    private static long parse(SessionKey key, String what, String number) {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw new StorageException("session '" + key.id() + "': corrupt " + what + " field '" + number + "'", e);
        }
    }

    /** Every field of a hash, {@code count} at a time ({@code HSCAN}: a field may come twice while the hash grows). */
    private void hash(String key, int count, BiConsumer<String, String> each) {
        ScanArgs args = ScanArgs.Builder.limit(count);
        MapScanCursor<String, String> c = redis.sync.hscan(key, args);
        while (true) {
            c.getMap().forEach(each);
            if (c.isFinished()) {
                return;
            }
            c = redis.sync.hscan(key, c, args);
        }
    }

    /** Every key matching {@code match}, on the server or on each master of the cluster ({@code SCAN}). */
    private void scan(String match, int count, Consumer<String> each) {
        ScanArgs args = ScanArgs.Builder.matches(match).limit(Math.max(count, 100));
        if (!redis.cluster) {
            scan(redis.sync, args, each);
            return;
        }
        for (RedisClusterCommands<String, String> master : redis.masters()) {
            scan(master, args, each);
        }
    }

    private static void scan(RedisClusterCommands<String, String> node, ScanArgs args, Consumer<String> each) {
        KeyScanCursor<String> c = node.scan(args);
        while (true) {
            c.getKeys().forEach(each);
            if (c.isFinished()) {
                return;
            }
            c = node.scan(c, args);
        }
    }

    /** {@code text} with the glob characters of {@code SCAN MATCH} escaped. */
    private static String glob(String text) {
        StringBuilder out = new StringBuilder();
        for (char ch : text.toCharArray()) {
            if ("*?[]\\".indexOf(ch) >= 0) {
                out.append('\\');
            }
            out.append(ch);
        }
        return out.toString();
    }
}
