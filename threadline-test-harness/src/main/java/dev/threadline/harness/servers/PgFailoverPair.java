package dev.threadline.harness.servers;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A PostgreSQL primary with one synchronous streaming standby on loopback, failed over by the test:
 * {@link #failover()} SIGKILLs the primary's processes, promotes the standby, and makes a new standby
 * of the new primary on the dead one's port (a fresh {@code pg_basebackup}, since a killed primary
 * may hold WAL its standby never had), so the pair keeps its two ports and one multi-host URL serves
 * it through any number of failovers.
 *
 * <p>Replication is synchronous and strict ({@code synchronous_standby_names='*'} on both servers,
 * {@code synchronous_commit=on}): a commit is acknowledged only once the standby has flushed it, and a
 * promoted primary acknowledges nothing until its own new standby is attached. That is what a
 * Patroni cluster in {@code synchronous_mode_strict} does; the promotion here is the test's own, not
 * Patroni's, so that a failover takes about a second instead of Patroni's loop of at least ten (see
 * {@code docs/reliability.md}). Not thread-safe (the test thread drives it).
 */
public final class PgFailoverPair implements AutoCloseable {
    private static final List<String> SYNC = List.of("synchronous_standby_names=*", "synchronous_commit=on",
            "wal_level=replica", "max_wal_senders=8", "hot_standby=on", "wal_keep_size=256MB");
    private PgServer primary;
    private PgServer standby;
    private int failovers;
    private Duration promotedAfter = Duration.ZERO;

    private PgFailoverPair(PgServer primary, PgServer standby) {
        this.primary = primary;
        this.standby = standby;
    }

    /** Starts a primary with database {@code db} and its synchronous standby, and waits until the standby is in sync. */
    public static PgFailoverPair start(String db) {
        PgServer primary = PgServer.create(SYNC);
        PgServer standby = null;
        try {
            standby = PgServer.standbyOf(primary, 0);
            PgFailoverPair pair = new PgFailoverPair(primary, standby);
            pair.awaitSynchronousStandby(Duration.ofSeconds(60));
            primary.createDatabase(db); // after: a strict synchronous primary commits nothing without its standby
            return pair;
        } catch (RuntimeException e) {
            if (standby != null) {
                standby.close();
            }
            primary.close();
            throw e;
        }
    }

    /**
     * The multi-host URL of database {@code db}: both ports, {@code targetServerType=primary}, and
     * {@code hostRecheckSeconds=1} so that pgjdbc looks at a host it last saw as a standby again a
     * second later.
     */
    public String url(String db) {
        return "postgresql://" + PgServer.USER + "@127.0.0.1:" + primary.port() + ",127.0.0.1:" + standby.port() + "/" + db
                + "?targetServerType=primary&hostRecheckSeconds=1";
    }

    /** The server that takes writes now. */
    public PgServer primary() {
        return primary;
    }

    /** The synchronous standby now. */
    public PgServer standby() {
        return standby;
    }

    /** How many failovers ran. */
    public int failovers() {
        return failovers;
    }

    /**
     * Fails the pair over: SIGKILLs every process of the primary, promotes the standby, starts a new
     * standby of it on the old primary's port and waits until that standby is synchronous (so that the
     * next failover loses nothing acknowledged). Returns how long from the kill until the new primary
     * could acknowledge a commit again.
     */
    public Duration failover() {
        long t0 = System.nanoTime();
        primary.kill();
        int port = primary.port();
        PgServer dead = primary;
        standby.promote();
        promotedAfter = Duration.ofNanos(System.nanoTime() - t0);
        primary = standby;
        dead.close();
        standby = PgServer.standbyOf(primary, port);
        awaitSynchronousStandby(Duration.ofSeconds(60));
        failovers++;
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * How long the last {@link #failover()} took from the kill until the standby was promoted (it takes
     * writes from then on, but acknowledges none until its own standby is attached).
     */
    public Duration promotedAfter() {
        return promotedAfter;
    }

    /** Polls (bounded) until the primary reports its standby streaming and synchronous. */
    private void awaitSynchronousStandby(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        String last = "no row in pg_stat_replication";
        while (System.nanoTime() < deadline) {
            try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
                 var rs = s.executeQuery("SELECT state, sync_state FROM pg_stat_replication")) {
                if (rs.next()) {
                    last = rs.getString(1) + "/" + rs.getString(2);
                    if (last.equals("streaming/sync")) {
                        return;
                    }
                }
            } catch (SQLException e) {
                last = e.getMessage();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new IllegalStateException("the standby on port " + standby.port() + " did not become the synchronous standby of port "
                + primary.port() + " within " + wait.toSeconds() + " s (last: " + last + ")");
    }

    @Override
    public void close() {
        standby.close();
        primary.close();
    }
}
