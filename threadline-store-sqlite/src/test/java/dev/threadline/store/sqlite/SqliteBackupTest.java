package dev.threadline.store.sqlite;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SqliteBackup} on real files: a backup taken while a writer appends is a consistent prefix and
 * restores to a working store; a backup or restore refused for bad input writes nothing. (The same
 * through the CLI, with the writer in another JVM: threadline-cli's BackupAndRestoreTest.)
 */
class SqliteBackupTest {
    private static final SessionKey S = new SessionKey("default", "s");

    @TempDir
    Path dir;

    @Test
    void aBackupTakenWhileAWriterAppendsIsAPrefixOfTheJournalAndRestoresToAStoreThatTakesNewSteps() throws Exception {
        Path file = dir.resolve("live.db");
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            store.create(root("s"), List.of(first(root("s"))));
            long epoch = ((LeaseResult.Acquired) store.acquire(S, "w", Duration.ofMinutes(1), null)).lease().epoch();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong head = new AtomicLong(1);
            CountDownLatch before = new CountDownLatch(50);
            CountDownLatch after = new CountDownLatch(50);
            AtomicBoolean backedUp = new AtomicBoolean();
            Thread writer = Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    long h = head.get();
                    head.set(store.append(new AppendRequest(S, h, epoch, messages("s", h + 1, 2), List.of(), null)));
                    (backedUp.get() ? after : before).countDown();
                }
            });
            assertThat(before.await(60, TimeUnit.SECONDS)).as("the writer's first steps").isTrue();
            SqliteBackup.Info info = SqliteBackup.backup(file, dir.resolve("b.db"));
            backedUp.set(true);
            assertThat(after.await(60, TimeUnit.SECONDS)).as("the writer goes on after the backup").isTrue();
            stop.set(true);
            writer.join();

            assertThat(info.schemaVersion()).isEqualTo(Schema.VERSION);
            assertThat(info.sessions()).isEqualTo(1);
            assertThat(SqliteBackup.check(dir.resolve("b.db"))).isEqualTo(info);
            SqliteBackup.Info restored = SqliteBackup.restore(dir.resolve("b.db"), dir.resolve("restored.db"), false);
            assertThat(restored.file()).isEqualTo(dir.resolve("restored.db").toAbsolutePath());
            // the backup holds the writer's lease too: it is free once its minute is over
            Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(2));
            try (SqliteStateStore copy = SqliteStateStore.open(dir.resolve("restored.db"), SqliteStateStore.Options.defaults().withClock(later))) {
                long n = copy.head(S);
                assertThat(n).as("the backup holds steps taken before it, not all of them").isGreaterThan(50).isLessThan(head.get());
                assertThat(copy.readOwn(S, 1, n)).isEqualTo(store.readOwn(S, 1, n));
                long e2 = ((LeaseResult.Acquired) copy.acquire(S, "w2", Duration.ofMinutes(1), null)).lease().epoch();
                assertThat(copy.append(new AppendRequest(S, n, e2, messages("s", n + 1, 2), List.of(), null))).isEqualTo(n + 2);
            }
        }
    }

    @Test
    void anExistingTargetIsRefusedByNameAndKeptAsItWas() throws Exception {
        Path file = store("s.db");
        Path target = Files.writeString(dir.resolve("taken.db"), "keep me");

        assertThatThrownBy(() -> SqliteBackup.backup(file, target)).isInstanceOf(StorageException.class)
                .hasMessage("the backup target " + target + " already exists; choose a new file (nothing was written)");
        SqliteBackup.backup(file, dir.resolve("b.db"));
        assertThatThrownBy(() -> SqliteBackup.restore(dir.resolve("b.db"), target, false))
                .isInstanceOf(StorageException.class).hasMessageContaining(target + " already exists");
        assertThat(Files.readString(target)).isEqualTo("keep me");
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aFileThatIsNotSqliteADamagedOneAForeignOneAndANewerOneAreRefusedAndNothingIsRestored() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a database, but long enough to look at ".repeat(200));
        assertThatThrownBy(() -> SqliteBackup.restore(text, dir.resolve("r.db"), false))
                .hasMessage("the backup " + text + " is not a SQLite database");
        assertThatThrownBy(() -> SqliteBackup.backup(text, dir.resolve("r.db")))
                .hasMessage("the store " + text + " is not a SQLite database");

        Path damaged = dir.resolve("damaged.db");
        SqliteBackup.backup(store("big.db"), damaged);
        try (RandomAccessFile f = new RandomAccessFile(damaged.toFile(), "rw")) {
            f.seek(4096 * 3);
            f.write(new byte[4096 * 2]); // zeros over two b-tree pages
        }
        assertThatThrownBy(() -> SqliteBackup.restore(damaged, dir.resolve("r.db"), false))
                .isInstanceOf(StorageException.class).hasMessageStartingWith("the backup " + damaged + " is damaged")
                .satisfies(e -> assertThat(e.getMessage()).as("one line").doesNotContain("\n"));

        Path foreign = dir.resolve("foreign.db");
        try (RawDb raw = new RawDb(foreign)) {
            raw.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
        }
        assertThatThrownBy(() -> SqliteBackup.restore(foreign, dir.resolve("r.db"), false))
                .hasMessageStartingWith("the backup " + foreign + " is a SQLite database but not a Threadline store");

        Path newer = dir.resolve("newer.db");
        SqliteBackup.backup(store("s.db"), newer);
        try (RawDb raw = new RawDb(newer)) {
            raw.exec("PRAGMA user_version = 99");
        }
        assertThatThrownBy(() -> SqliteBackup.restore(newer, dir.resolve("r.db"), false))
                .hasMessage("the backup " + newer + " has schema version 99, newer than the " + Schema.VERSION
                        + " this Threadline reads; restore it with a newer Threadline");

        assertThat(dir.resolve("r.db")).doesNotExist();
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void replacingAStoreIsRefusedWhileItIsOpenAndDoneWhenItIsNot() throws Exception {
        Path backup = dir.resolve("b.db");
        SqliteBackup.backup(store("s.db"), backup);
        Path target = dir.resolve("other.db");
        try (SqliteStateStore other = SqliteStateStore.open(target)) {
            other.create(root("o"), List.of(first(root("o"))));
            assertThatThrownBy(() -> SqliteBackup.restore(backup, target, true)).isInstanceOf(StorageException.class)
                    .hasMessage("the restore target " + target + " is in use by another connection or process;"
                            + " stop them first (nothing was changed)");
            assertThat(other.head(new SessionKey("default", "o"))).isEqualTo(1);
        }
        SqliteBackup.restore(backup, target, true);
        try (SqliteStateStore restored = SqliteStateStore.open(target)) {
            assertThat(restored.head(S)).isEqualTo(21);
            assertThatThrownBy(() -> restored.head(new SessionKey("default", "o"))).hasMessageContaining("'o'");
        }
        assertThat(leftovers()).isEmpty();
    }

    /** A closed store in {@code name} with session s of 21 events (and, for big.db, 40 more sessions). */
    private Path store(String name) {
        Path file = dir.resolve(name);
        if (Files.exists(file)) {
            return file;
        }
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            List<StoredEvent> events = new ArrayList<>(List.of(first(root("s"))));
            events.addAll(messages("s", 2, 20));
            store.create(root("s"), events);
            for (int i = 0; name.equals("big.db") && i < 40; i++) {
                List<StoredEvent> more = new ArrayList<>(List.of(first(root("m" + i))));
                more.addAll(messages("m" + i, 2, 30));
                store.create(root("m" + i), more);
            }
        }
        return file;
    }

    /** Temporary files the calls left in the folder. */
    private List<Path> leftovers() throws Exception {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }
}
