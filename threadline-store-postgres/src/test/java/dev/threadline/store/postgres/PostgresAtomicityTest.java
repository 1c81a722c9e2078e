package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.store.tck.StoreFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An append that the database refuses half-way (after the head moved and the events went in, at the
 * last shared-variable write) leaves nothing: the head, journal, listing, command log and variables
 * are as before, and the same step then succeeds.
 */
class PostgresAtomicityTest {

    @Test
    void anAppendFailingInTheDatabaseAfterItsFirstStatementsLeavesNothing() {
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                PostgresStateStore.Options.defaults().withSchema(PgStores.freshSchema("atomic")))) {
            SessionKey key = new SessionKey("t", "s");
            long epoch = PgStores.leasedSession(store, key, 3, "w");
            List<StoredEvent> before = store.readOwn(key, 1, 100);
            SessionSummary listed = store.list(SessionQuery.tenant("t")).items().get(0);
            String alice = ScopedWrite.userKey("t", "alice");
            // PostgreSQL text cannot hold U+0000: the insert of this variable, the transaction's last statement, fails
            ScopedWrite good = StoreFixtures.setUserVar("t", "alice", "lang", "\"fr\"");
            ScopedWrite bad = new ScopedWrite(VariableScope.USER, alice, Map.of("nul\u0000name", StoreFixtures.parse("1")), List.of());
            AppendRequest request = new AppendRequest(key, 3, epoch, StoreFixtures.messages("s", 4, 2), List.of(good, bad),
                    new CommandRecord(key, "c1", "submit:x", 4, null));

            assertThatThrownBy(() -> store.append(request)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("append to session 's' after seq 3")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(store.head(key)).isEqualTo(3);
            assertThat(store.readOwn(key, 1, 100)).isEqualTo(before);
            assertThat(store.command(key, "c1")).isEmpty();
            assertThat(store.variables(VariableScope.USER, alice)).isEmpty();
            assertThat(store.list(SessionQuery.tenant("t")).items().get(0)).isEqualTo(listed);

            AppendRequest fixed = new AppendRequest(key, 3, epoch, request.events(), List.of(good), request.command());
            assertThat(store.append(fixed)).isEqualTo(5);
            assertThat(store.command(key, "c1")).contains(request.command());
            assertThat(store.variables(VariableScope.USER, alice)).containsOnlyKeys("lang");
        }
    }
}
