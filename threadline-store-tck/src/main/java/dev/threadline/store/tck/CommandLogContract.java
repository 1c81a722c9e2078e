package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.setAppVar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandLog;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SharedVariables;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link CommandLog}: a caller's command id is recorded with the first step of its command (an
 * append, or the create of a session or a fork), is unique per session, and a repeat is refused with
 * the first record while nothing at all is written (neither events nor shared variables). JUnit makes
 * an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class CommandLogContract<S extends SessionIndex & Journal & Leases & CommandLog & SharedVariables>
        extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected CommandLogContract() {}

    private long appendWith(String id, long expectedSeq, CommandRecord command, List<ScopedWrite> writes) {
        SessionKey k = key(id);
        return store.append(new AppendRequest(k, expectedSeq, epoch(k), messages(id, expectedSeq + 1, 1), writes, command));
    }

    @Test
    public final void aCommandRecordWrittenWithAnAppendIsReadable() {
        createRoot("s", 1);
        CommandRecord c1 = new CommandRecord(key("s"), "c1", "submit:3f2a", 2, "turn ended");

        assertThat(appendWith("s", 1, c1, List.of())).isEqualTo(2);
        assertThat(store.command(key("s"), "c1")).contains(c1);
        assertThat(store.command(key("s"), "c2")).isEmpty();
        assertThat(appendMessages("s", 1)).as("steps without a command record").isEqualTo(3);
        assertThat(store.command(key("s"), "c1")).contains(c1);
    }

    @Test
    public final void theSameCommandIdAgainIsRefusedWithTheFirstRecordAndWritesNothing() {
        createRoot("s", 1);
        CommandRecord c1 = new CommandRecord(key("s"), "c1", "submit:3f2a", 2, null);
        appendWith("s", 1, c1, List.of());
        List<StoredEvent> before = store.readOwn(key("s"), 1, 100);

        CommandRecord retry = new CommandRecord(key("s"), "c1", "submit:other", 3, null);
        assertThatThrownBy(() -> appendWith("s", 2, retry, List.of(setAppVar("default", "flag", "true"))))
                .isInstanceOfSatisfying(DuplicateCommandException.class, e -> assertThat(e.existing()).isEqualTo(c1))
                .hasMessageContaining("c1");
        assertThat(store.head(key("s"))).isEqualTo(2);
        assertThat(store.readOwn(key("s"), 1, 100)).isEqualTo(before);
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("default"))).isEmpty();
        assertThat(store.command(key("s"), "c1")).contains(c1);
    }

    @Test
    public final void theSameCommandIdOnAnotherSessionIsFine() {
        createRoot("s1", 1);
        createRoot("s2", 3);
        CommandRecord on1 = new CommandRecord(key("s1"), "c1", "submit:a", 2, null);
        CommandRecord on2 = new CommandRecord(key("s2"), "c1", "submit:b", 4, null);

        appendWith("s1", 1, on1, List.of());
        appendWith("s2", 3, on2, List.of());
        assertThat(store.command(key("s1"), "c1")).contains(on1);
        assertThat(store.command(key("s2"), "c1")).contains(on2);
    }

    @Test
    public final void createRecordsItsCommandOnTheNewSessionOrForAForkOnTheSource() {
        SessionInfo s = root("s");
        CommandRecord created = new CommandRecord(key("s"), "create-1", "create:s", 1, null);
        store.create(s, List.of(first(s)), created);
        assertThat(store.command(key("s"), "create-1")).contains(created);

        createRoot("a", 4);
        SessionInfo fork = StoreFixtures.branch(root("a"), "b", 3);
        CommandRecord forked = new CommandRecord(key("a"), "fork-1", "fork:3", 3, "b");
        store.create(fork, List.of(first(fork)), forked);
        assertThat(store.command(key("a"), "fork-1")).contains(forked);
        assertThat(store.command(key("b"), "fork-1")).isEmpty();
        assertThat(store.branches(key("a"))).containsExactly("b");
    }

    @Test
    public final void aDuplicateCommandOnCreateCreatesNothing() {
        createRoot("a", 4);
        SessionInfo b = StoreFixtures.branch(root("a"), "b", 3);
        CommandRecord forked = new CommandRecord(key("a"), "fork-1", "fork:3", 3, "b");
        store.create(b, List.of(first(b)), forked);

        SessionInfo c = StoreFixtures.branch(root("a"), "c", 2);
        assertThatThrownBy(() -> store.create(c, List.of(first(c)), new CommandRecord(key("a"), "fork-1", "fork:2", 2, "c")))
                .isInstanceOfSatisfying(DuplicateCommandException.class, e -> assertThat(e.existing()).isEqualTo(forked));
        assertThat(store.session(key("c"))).isEmpty();
        assertThat(store.branches(key("a"))).containsExactly("b");
        assertThat(store.head(key("a"))).isEqualTo(4);
        assertThat(store.command(key("a"), "fork-1")).contains(forked);
    }

    @Test
    public final void aCommandRecordMustNameTheSeqOfItsFirstEvent() {
        createRoot("s", 1);
        List<StoredEvent> before = store.readOwn(key("s"), 1, 100);

        assertThatThrownBy(() -> appendWith("s", 1, new CommandRecord(key("s"), "c1", "submit:a", 5, null), List.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("command.seq");
        assertThat(store.readOwn(key("s"), 1, 100)).isEqualTo(before);
        assertThat(store.command(key("s"), "c1")).isEmpty();

        SessionInfo other = root("other");
        assertThatThrownBy(() -> store.create(other, List.of(first(other)), new CommandRecord(key("other"), "c1", "create:o", 2, null)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("command.seq");
        assertThatThrownBy(() -> store.create(other, List.of(first(other)), new CommandRecord(key("s"), "c1", "create:o", 1, null)))
                .as("a root's create records its command on itself").isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("command.session");
        assertThat(store.session(key("other"))).isEmpty();
        assertThat(store.command(key("s"), "c1")).isEmpty();
    }
}
