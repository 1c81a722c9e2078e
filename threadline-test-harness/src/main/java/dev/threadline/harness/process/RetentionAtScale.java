package dev.threadline.harness.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.SweepResult;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Issue 24's retention acceptance, for any backend: two child processes run turns on sessions of their
 * own while this JVM creates {@code sessions} sessions, 30 % of them with a 1 s time to live, then moves
 * its clock past that second and sweeps until a pass removes nothing. Exactly the expiring sessions are
 * gone, every other session's journal is byte for byte what it was, the children's turns went on all the
 * while, and the store's size before and after (as the backend's {@code size} reports it, after its own
 * settling: a checkpoint, a vacuum) is written to {@code report} with the sweep's figures. Stateless; each
 * run uses its own store, children and clock, so runs may go on in parallel on different stores.
 */
public final class RetentionAtScale {
    /** What a run measured. */
    public record Result(int created, int expiring, int removed, int passes, long sweepMillis, String sizeBefore, String sizeAfter) {
        /** One line for a report. */
        public String line() {
            return created + " sessions, " + expiring + " with a 1 s ttl: " + removed + " removed by " + passes + " sweep pass(es) of"
                    + " up to 1,000 (and one that found none left), " + sweepMillis + " ms; size before " + sizeBefore + ", after " + sizeAfter;
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(60);

    private RetentionAtScale() {}

    /** A clock the run moves: the sweeper's "now", independent of the children's. */
    private static final class MovableClock extends Clock {
        final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }

    /**
     * Runs the acceptance on the store at {@code url} (the children open it too) and returns its figures.
     *
     * @param size   what the store holds, as text, measured after the backend settles (called before and after)
     * @param report the file the figures are written to (kept after the run, unlike {@code dir})
     * @throws InterruptedException when the thread is interrupted while it waits for the children
     */
    public static Result run(Path dir, String url, int sessions, Supplier<String> size, Path report) throws InterruptedException {
        int expiring = sessions * 3 / 10;
        MovableClock clock = new MovableClock();
        try (Fleet fleet = new Fleet(dir, url);
             StateStore store = StateStores.open(url);
             Threadline tl = Threadline.builder().store(store).clock(clock).model(ScriptedModel.demo()).build()) {
            ChildProcess a = fleet.start("A#1", ClientChild.class, Map.of("sessions", "a1,a2", "clients", 1));
            ChildProcess b = fleet.start("B#1", ClientChild.class, Map.of("sessions", "b1,b2", "clients", 1));
            Tenant t = tl.tenant("retention");
            for (int i = 0; i < sessions; i++) {
                boolean expires = i % 10 < 3;
                var s = t.create(new NewSession((expires ? "e-" : "k-") + i, "u" + (i % 97), SessionConfig.DEFAULT,
                        Map.of("n", Integer.toString(i)), expires ? Duration.ofSeconds(1) : null));
                if (i % 50 == 5) { // a turn on some kept sessions (the runtime lingers on their leases a moment)
                    s.submit("note number " + i);
                }
            }
            Map<String, String> kept = new HashMap<>();
            for (int i = 0; i < sessions; i++) {
                if (i % 10 >= 3) {
                    kept.put("k-" + i, journal(store, "k-" + i));
                }
            }
            String before = size.get();
            fleet.clearAcks();
            clock.now.updateAndGet(n -> n.plusSeconds(2));
            long started = System.nanoTime();
            int removed = 0;
            int passes = 0;
            for (SweepResult r = tl.sweep(1000); r.removed() > 0 || passes == 0; r = tl.sweep(1000)) {
                removed += r.removed();
                passes++;
                assertThat(r.running()).as("no session of the run is leased").isZero();
            }
            long sweepMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(fleet.nextAck(WAIT)).as("the children's turns went on through the sweep").isNotNull();
            assertThat(removed).as("exactly the expiring sessions were removed").isEqualTo(expiring);
            for (int i = 0; i < sessions; i++) {
                String id = (i % 10 < 3 ? "e-" : "k-") + i;
                boolean there = store.session(new SessionKey("retention", id)).isPresent();
                assertThat(there).as(id).isEqualTo(i % 10 >= 3);
            }
            for (Map.Entry<String, String> e : kept.entrySet()) {
                assertThat(journal(store, e.getKey())).as("%s is byte for byte what it was", e.getKey()).isEqualTo(e.getValue());
            }
            assertThat(a.isAlive() && b.isAlive()).isTrue();
            fleet.quit(a);
            fleet.quit(b);
            assertThat(fleet.errors).isEmpty();
            Result result = new Result(sessions, expiring, removed, passes, sweepMillis, before, size.get());
            write(report, url.replaceFirst("//[^/@]*@", "//***@") + ": " + result.line());
            return result;
        }
    }

    private static String journal(StateStore store, String id) {
        SessionKey key = new SessionKey("retention", id);
        List<StoredEvent> events = store.readOwn(key, 1, store.head(key));
        return Json.write(events);
    }

    private static void write(Path file, String line) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, line + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
