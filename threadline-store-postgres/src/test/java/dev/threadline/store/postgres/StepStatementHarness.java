package dev.threadline.store.postgres;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.model.Message;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.PgServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (the name matches none of surefire's patterns): the step statement's parts
 * beside the raw floor's single-row insert, on a durable server of its own, each part on a connection
 * (a server process) of its own and every part timed once a round, in an order shuffled from round to
 * round. (A statement on the server process that ran the statement just before it is some 0.06× of the
 * raw insert faster than on one that sat idle meanwhile: parts that shared a connection, or always
 * followed the same part, read that as a difference of their own.) It
 * answers what {@code threadline bench step-parts} cannot: how much of the step is the statement on
 * the server, what each of its two changes (the head's move, the events' insert) costs alone, how much
 * a second event (a second row) adds, what writing a step's events as one row would save, and what a
 * lighter fence (the heads row locked, not updated) would, and what the {@code heads} table's listing
 * indexes and foreign key add to the head's move (on copies of the table without them). Prints the
 * median wall and calling-thread CPU µs of each part and its wall time over the raw insert's; then,
 * from {@code pg_stat_statements} (the server is started with it), each statement's mean executor time
 * on the server and its WAL records and bytes per call, which the wall time splits into the server's
 * execution and the rest (the protocol, the executor's start and end, the commit's flush).
 * {@code ./test -q -pl threadline-store-postgres -am -Dtest=StepStatementHarness -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Drounds=N}, default 4000); the table is the test's standard output, in
 * target/surefire-reports/TEST-dev.threadline.store.postgres.StepStatementHarness.xml.
 */
class StepStatementHarness {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final String TEXT = "lorem ipsum dolor ".repeat(23).substring(0, 400);

    private interface Work {
        void run() throws Exception;
    }

    /** What a part does in one round: made untimed, then run timed. */
    private interface Round {
        Work prepare() throws Exception;
    }

    /** One part: its round, and its samples. */
    private static final class Part {
        final String name;
        final Round round;
        final long[] wall;
        final long[] cpu;
        int n;

        Part(String name, int rounds, Round round) {
            this.name = name;
            this.round = round;
            this.wall = new long[rounds];
            this.cpu = new long[rounds];
        }

        void run(boolean timed) throws Exception {
            Work work = round.prepare();
            long c0 = CPU.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            work.run();
            long took = System.nanoTime() - t0;
            long cpuTook = CPU.getCurrentThreadCpuTime() - c0;
            if (timed) {
                wall[n] = took;
                cpu[n] = cpuTook;
                n++;
            }
        }

        double medianMicros(long[] samples) {
            long[] sorted = Arrays.copyOf(samples, n);
            Arrays.sort(sorted);
            return sorted[n / 2] / 1000.0;
        }
    }

    /** A session of 10,000 events, leased, whose head the parts move by hand. */
    private static final class Leased {
        final SessionKey key;
        final long epoch;
        long head;

        Leased(PostgresStateStore store, String id) {
            key = new SessionKey("t", id);
            epoch = PgStores.leasedSession(store, key, 1, "w");
            head = store.head(key);
            for (int batch = 0; batch < 10; batch++) {
                List<StoredEvent> events = new ArrayList<>();
                for (int i = 1; i <= 1000; i++) {
                    events.add(message(id, head + i));
                }
                store.append(AppendRequest.of(key, head, epoch, events));
                head += 1000;
            }
        }

        /** The next step's events: a message, and (two) a turn's end after it. */
        List<StoredEvent> next(boolean two) {
            return two ? List.of(message(key.id(), head + 1), turnEnd(key.id(), head + 2)) : List.of(message(key.id(), head + 1));
        }

        AppendRequest request(List<StoredEvent> events) {
            return AppendRequest.of(key, head, epoch, events);
        }
    }

    @Test
    void measure() throws Exception {
        int rounds = Integer.getInteger("rounds", 4000);
        int warm = 500;
        try (PgServer server = PgServer.create(List.of("fsync=on", "full_page_writes=on", "synchronous_commit=on",
                "autovacuum=off", "checkpoint_timeout=30min", "max_wal_size=8GB", "shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track_planning=on"))) {
            server.createDatabase("h");
            try (Connection c = server.connect("h"); Statement st = c.createStatement()) {
                st.execute("CREATE EXTENSION pg_stat_statements"); // in public, for the report at the end
            }
            String url = server.url("h");
            PostgresStateStore.Options o = PostgresStateStore.Options.defaults().withSchema("h");
            try (PostgresStateStore on = PostgresStateStore.open(url, o);
                 PostgresStateStore off = PostgresStateStore.open(url, o.withNotifications(false));
                 PostgresStateStore setup = PostgresStateStore.open(url, o.withNotifications(false));
                 PostgresStateStore bare = PostgresStateStore.open(url, o.withNotifications(false));
                 PostgresStateStore unbatched = PostgresStateStore.open(url, o.withNotifications(false).withMaxBatch(1));
                 Connection rawC = on.db().dedicated("h");
                 Connection oneC = on.db().dedicated("h");
                 Connection twoC = on.db().dedicated("h");
                 Connection joinedC = on.db().dedicated("h");
                 Connection insC = on.db().dedicated("h");
                 Connection updC = on.db().dedicated("h");
                 Connection shC = on.db().dedicated("h");
                 Connection kshC = on.db().dedicated("h");
                 Connection plainC = on.db().dedicated("h");
                 Connection indexedC = on.db().dedicated("h");
                 Connection copyC = on.db().dedicated("h")) {
                try (Statement s = rawC.createStatement()) {
                    s.execute("CREATE TABLE raw_events (session_id text NOT NULL, seq bigint NOT NULL, payload text NOT NULL,"
                            + " PRIMARY KEY (session_id, seq))");
                }
                PreparedStatement raw = rawC.prepareStatement("INSERT INTO raw_events (session_id, seq, payload) VALUES (?, ?, ?)");
                String rawPayload = RecordCodec.encodeEvent(message("raw", 1).event());
                long[] rawSeq = {0};
                // each timed store fills its own session (10 appends of 1,000 events), the parts on dedicated connections
                // have theirs filled by a store of their own: when one store filled them all, its appends measured
                // 0.02-0.04x slower than a twin store's with no hint ever sent (why was not measured: its server
                // processes had run the big statements), and that had been read as the notifier's cost
                Leased one = new Leased(setup, "one");
                Leased two = new Leased(setup, "two");
                Leased joined = new Leased(setup, "joined");
                Leased pool = new Leased(bare, "pool");
                Leased storeOn = new Leased(on, "on");
                Leased storeOff = new Leased(off, "off");
                Leased storeUnb = new Leased(unbatched, "unb");
                Leased insOnly = new Leased(setup, "ins");
                Leased updOnly = new Leased(setup, "upd");
                long insSid;
                try (Statement st = insC.createStatement();
                     ResultSet rs = st.executeQuery("SELECT sid FROM heads WHERE id = 'ins'")) {
                    rs.next();
                    insSid = rs.getLong(1);
                }
                // each of the step statement's two changes alone: the events row (its session's number given), and the head's
                // move (the store's own statement for steps too large for one)
                PreparedStatement ins = insC.prepareStatement("INSERT INTO events (sid, seq, step, time, command_id, command_text,"
                        + " source, touches_transcript, payload, v) VALUES (?, ?, ?, ?, ?::uuid, ?, ?, ?, ?, ?::smallint)");
                Leased shared = new Leased(setup, "shared");
                Leased keyShared = new Leased(setup, "keyshared");
                // a lighter fence (not the store's form): the heads row locked against a lease's change instead of
                // updated, the head left to the events' key (which a design with it must then check apart)
                String lockSql = """
                        WITH h AS (SELECT sid FROM heads WHERE tenant = ? AND id = ? AND lease_epoch = ? FOR %s)
                        INSERT INTO events (sid, seq, step, time, command_id, command_text, source, touches_transcript, payload, v)
                        SELECT h.sid, ?, ?, ?, ?::uuid, ?, ?, ?, ?, ?::smallint FROM h""";
                PreparedStatement shPs = shC.prepareStatement(lockSql.formatted("SHARE"));
                PreparedStatement kshPs = kshC.prepareStatement(lockSql.formatted("KEY SHARE"));
                // the head's move on one-row copies of the session's heads row: as the table is (its listing indexes and
                // its foreign key), without the foreign key, and with the primary key alone (not the store's form); the
                // copies compare with each other, not with heads itself, whose page holds every session's row
                try (Statement st = plainC.createStatement()) {
                    st.execute("CREATE TABLE heads_copy (LIKE heads INCLUDING ALL, FOREIGN KEY (tenant, id) REFERENCES sessions (tenant, id))");
                    st.execute("CREATE TABLE heads_indexed (LIKE heads INCLUDING ALL)");
                    st.execute("CREATE TABLE heads_plain (LIKE heads INCLUDING DEFAULTS, PRIMARY KEY (tenant, id))");
                    for (String t : List.of("heads_copy", "heads_indexed", "heads_plain")) {
                        st.execute("INSERT INTO " + t + " SELECT * FROM heads WHERE id = 'upd'");
                    }
                }
                int total = warm + rounds;
                List<Part> parts = List.of(
                        new Part("raw floor: single-row INSERT, auto-commit", total, () -> () -> {
                            raw.setString(1, "raw");
                            raw.setLong(2, ++rawSeq[0]);
                            raw.setString(3, rawPayload);
                            raw.executeUpdate();
                        }),
                        new Part("step statement, 1 event (encoded before)", total, statement(oneC, one, false, false)),
                        new Part("step statement, 2 events as 2 rows (encoded before)", total, statement(twoC, two, true, false)),
                        new Part("step statement, 2 events as 1 row (not the store's form)", total, statement(joinedC, joined, true, true)),
                        new Part("step statement, 1 event, through Db.writeOne (the pool)", total, () -> {
                            List<StoredEvent> events = pool.next(false);
                            AppendRequest request = pool.request(events);
                            List<EventRows.Row> rows = EventRows.encode(events);
                            long now = epochNanos();
                            return () -> {
                                if (!bare.db().writeOne(() -> "harness", c -> StepStatement.run(c, request, rows, pool.head + 1, now))) {
                                    throw new IllegalStateException("the pool's step did not move the head");
                                }
                                pool.head++;
                            };
                        }),
                        new Part("its events INSERT alone, 1 event", total, () -> {
                            EventRows.Row r = EventRows.encode(insOnly.next(false)).get(0);
                            long now = epochNanos();
                            return () -> {
                                ins.setLong(1, insSid);
                                ins.setLong(2, r.seq());
                                ins.setLong(3, r.step());
                                ins.setLong(4, now);
                                EventRows.bindCommand(ins, 5, r);
                                ins.setString(7, r.source());
                                ins.setBoolean(8, r.transcript());
                                ins.setString(9, r.payload());
                                ins.setShort(10, (short) RecordCodec.VERSION);
                                ins.executeUpdate();
                                insOnly.head++;
                            };
                        }),
                        new Part("heads row locked FOR SHARE + insert, no head move (not the store's form)", total, locked(shPs, shared)),
                        new Part("heads row locked FOR KEY SHARE + insert, no head move (not the store's form)", total,
                                locked(kshPs, keyShared)),
                        new Part("its heads UPDATE alone", total, () -> {
                            AppendRequest request = updOnly.request(updOnly.next(false)); // only its key, seq and epoch are read
                            long now = epochNanos();
                            return () -> {
                                if (!StepStatement.moveHead(updC, request, updOnly.head + 1, now)) {
                                    throw new IllegalStateException("the head of " + updOnly.key.id() + " did not move");
                                }
                                updOnly.head++;
                            };
                        }),
                        new Part("the same UPDATE on a one-row copy of heads, its indexes and foreign key", total,
                                copyMove(copyC, "heads_copy", updOnly.key)),
                        new Part("the same UPDATE on a copy without the foreign key (not the store's form)", total,
                                copyMove(indexedC, "heads_indexed", updOnly.key)),
                        new Part("the same UPDATE on a copy with its primary key alone (not the store's form)", total,
                                copyMove(plainC, "heads_plain", updOnly.key)),
                        new Part("store append, 1 event, notifications on", total, append(on, storeOn)),
                        new Part("store append, 1 event, notifications off", total, append(off, storeOff)),
                        new Part("store append, 1 event, notifications off, no batcher", total, append(unbatched, storeUnb)),
                        new Part("EventRows.encode of 1 event alone", total, () -> {
                            List<StoredEvent> events = List.of(message("x", 5));
                            return () -> EventRows.encode(events);
                        }));
                List<Part> order = new ArrayList<>(parts);
                Random random = new Random(1);
                for (int r = 0; r < total; r++) {
                    Collections.shuffle(order, random); // no part always follows the same one (see the class comment)
                    for (Part p : order) {
                        p.run(r >= warm);
                    }
                }
                double floor = parts.get(0).medianMicros(parts.get(0).wall);
                System.out.printf(Locale.ROOT, "%,d rounds, sessions of 10,000 events, %s%n", rounds, on.durability());
                System.out.println("| part | wall µs | CPU µs | wall / raw floor |");
                System.out.println("| --- | ---: | ---: | ---: |");
                for (Part p : parts) {
                    System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |%n", p.name, p.medianMicros(p.wall),
                            p.medianMicros(p.cpu), p.medianMicros(p.wall) / floor);
                }
                serverTimes(rawC, total);
                HeadNotifier n = on.notifier();
                System.out.printf(Locale.ROOT, "%nnotifications on, no listener: %,d appends, %,d sends, %,d hints unheard, %,d looks"
                        + " for a listener%n", total, n.sends(), n.unheard(), n.looks());
            }
        }
    }

    /**
     * The step statement on {@code c} for {@code s}, its events encoded before the timer: one event, or
     * two, as two rows or as one row whose payload holds both (what a store writing one row per step
     * would insert).
     */
    private static Round statement(Connection c, Leased s, boolean twoEvents, boolean oneRow) {
        return () -> {
            List<StoredEvent> events = s.next(twoEvents);
            AppendRequest request = s.request(events);
            List<EventRows.Row> rows = EventRows.encode(events);
            if (oneRow) {
                EventRows.Row a = rows.get(0);
                rows = List.of(new EventRows.Row(a.seq(), a.step(), a.time(), a.commandUuid(), a.commandText(), a.source(),
                        a.transcript(), "[" + a.payload() + "," + rows.get(1).payload() + "]"));
            }
            List<EventRows.Row> bound = rows;
            long newHead = s.head + rows.size();
            long now = epochNanos();
            return () -> {
                if (!StepStatement.run(c, request, bound, newHead, now)) {
                    throw new IllegalStateException("the step did not move the head of " + s.key.id());
                }
                s.head = newHead;
            };
        };
    }

    /** One event inserted by {@code ps}, a statement that locks the session's heads row (a lighter fence). */
    private static Round locked(PreparedStatement ps, Leased s) {
        return () -> {
            EventRows.Row r = EventRows.encode(s.next(false)).get(0);
            long now = epochNanos();
            return () -> {
                int i = 1;
                ps.setString(i++, s.key.tenant());
                ps.setString(i++, s.key.id());
                ps.setLong(i++, s.epoch);
                ps.setLong(i++, r.seq());
                ps.setLong(i++, r.step());
                ps.setLong(i++, now);
                i = EventRows.bindCommand(ps, i, r);
                ps.setString(i++, r.source());
                ps.setBoolean(i++, r.transcript());
                ps.setString(i++, r.payload());
                ps.setShort(i, (short) RecordCodec.VERSION);
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("the locked insert for " + s.key.id() + " found no heads row");
                }
                s.head++;
            };
        };
    }

    /**
     * The head's move on {@code table}, a one-row copy of the session's heads row, on {@code c}: the store's
     * {@code SET} list, found by the key alone.
     */
    private static Round copyMove(Connection c, String table, SessionKey key) throws Exception {
        PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET head_seq = ?, updated_at = ?, recent = ?"
                + " WHERE tenant = ? AND id = ?");
        long[] head = {0};
        return () -> {
            long now = epochNanos();
            return () -> {
                ps.setLong(1, ++head[0]);
                ps.setLong(2, now);
                ps.setLong(3, Migrations.recent(now));
                ps.setString(4, key.tenant());
                ps.setString(5, key.id());
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("no row of " + key.id() + " in " + table);
                }
            };
        };
    }

    /**
     * Prints, for each statement run at least {@code calls} times, how often the server planned it (a
     * prepared statement's generic plan is made a few times per connection, not at every call) and its mean
     * planning time, its mean executor time on the server
     * (pg_stat_statements: the executor's run, not the parse, bind, executor start and end or commit),
     * and its WAL records and bytes per call (the commit record not among them).
     */
    private static void serverTimes(Connection c, int calls) throws Exception {
        System.out.println();
        System.out.println("| statement (pg_stat_statements) | calls | plans | plan µs | executor µs | WAL records | WAL B |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        try (PreparedStatement ps = c.prepareStatement("SELECT calls, mean_exec_time * 1000, wal_records::float8 / calls,"
                + " wal_bytes::float8 / calls, regexp_replace(query, '\\s+', ' ', 'g'), plans, mean_plan_time * 1000 FROM public.pg_stat_statements"
                + " WHERE calls >= ? AND query NOT LIKE '%pg_notify%' ORDER BY mean_exec_time")) {
            ps.setLong(1, calls);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String q = rs.getString(5);
                    System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %.1f | %.1f | %.2f | %.0f |%n", q.length() > 100 ? q.substring(0, 97) + "..." : q,
                            rs.getLong(1), rs.getLong(6), rs.getDouble(7), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4));
                }
            }
        }
    }

    /** A store's append of one event, its request made before the timer (the encoding is the store's, timed). */
    private static Round append(PostgresStateStore store, Leased s) {
        return () -> {
            AppendRequest request = s.request(s.next(false));
            return () -> {
                store.append(request);
                s.head++;
            };
        };
    }

    private static long epochNanos() {
        return EpochNanos.of(Instant.now());
    }

    private static StoredEvent message(String id, long seq) {
        return new StoredEvent(id, seq, seq, Instant.now(), UUID.randomUUID().toString(), CheckpointSource.LOOP,
                new Event.UserMessageReceived(Message.user(TEXT + seq)));
    }

    private static StoredEvent turnEnd(String id, long seq) {
        return new StoredEvent(id, seq, seq, Instant.now(), UUID.randomUUID().toString(), CheckpointSource.LOOP,
                new Event.TurnCompleted("end_turn"));
    }
}
