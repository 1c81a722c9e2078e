package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.WrappedDataKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@link DataKeys} (ADR 0049): a tenant's wrapped data keys come back by number, byte for byte, each tenant its
 * own; a number is added once and the first key stays; of writers racing for one number exactly one wins; a key
 * is wrapped again only where it is still as the caller read it. A
 * backend that keeps no data keys says so ({@link DataKeys#keepsDataKeys()} false) and refuses both calls.
 * JUnit makes an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class DataKeysContract<S extends SessionIndex & Journal & Leases & DataKeys> extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected DataKeysContract() {}

    /** Bytes no text encoding keeps as they are: a zero, high bytes, a lone continuation byte. */
    private static byte[] binary(int salt) {
        byte[] b = new byte[60];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 37 + salt);
        }
        b[0] = 0;
        b[1] = (byte) 0xFF;
        b[2] = (byte) 0x80;
        return b;
    }

    @Test
    public final void aTenantsDataKeysComeBackByNumberByteForByteAndOtherTenantsSeeNone() {
        WrappedDataKey one = new WrappedDataKey("acme", 1, "kek-1", binary(1));
        WrappedDataKey two = new WrappedDataKey("acme", 2, "kek-2", binary(2));
        if (!store.keepsDataKeys()) {
            assertThatThrownBy(() -> store.addDataKey(one)).isInstanceOf(InvalidInputException.class).hasMessageContaining("keeps no data keys");
            assertThatThrownBy(() -> store.dataKeys("acme")).isInstanceOf(InvalidInputException.class);
            return;
        }
        assertThat(store.dataKeys("acme")).isEmpty();
        assertThat(store.addDataKey(two)).isTrue();
        assertThat(store.addDataKey(one)).isTrue();
        assertThat(store.dataKeys("acme")).containsExactly(one, two);
        assertThat(store.dataKeys("acme").get(0).wrapped()).isEqualTo(binary(1));
        assertThat(store.dataKeys("globex")).isEmpty();
        assertThat(store.dataKeys("acme")).as("a read changes nothing").containsExactly(one, two);
    }

    @Test
    public final void aNumberIsAddedOnceAndTheFirstKeyStays() {
        if (!store.keepsDataKeys()) {
            return; // refused: see the test above
        }
        WrappedDataKey first = new WrappedDataKey("acme", 1, "kek-1", binary(1));
        assertThat(store.addDataKey(first)).isTrue();
        assertThat(store.addDataKey(new WrappedDataKey("acme", 1, "kek-9", binary(9)))).isFalse();
        assertThat(store.dataKeys("acme")).containsExactly(first);
        assertThat(store.addDataKey(new WrappedDataKey("globex", 1, "kek-g", binary(3)))).as("numbers are per tenant").isTrue();
    }

    @Test
    public final void ofWritersRacingForOneNumberExactlyOneWins() throws Exception {
        if (!store.keepsDataKeys()) {
            return;
        }
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Callable<Boolean>> adds = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                WrappedDataKey k = new WrappedDataKey("acme", 1, "kek-" + i, binary(i));
                adds.add(() -> store.addDataKey(k));
            }
            List<Boolean> won = new ArrayList<>();
            for (Future<Boolean> f : pool.invokeAll(adds)) {
                won.add(f.get());
            }
            assertThat(won).as("which writers added number 1").containsOnlyOnce(true);
            int winner = won.indexOf(true);
            assertThat(store.dataKeys("acme")).containsExactly(new WrappedDataKey("acme", 1, "kek-" + winner, binary(winner)));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public final void aKeyIsWrappedAgainOnlyWhereItIsStillAsTheCallerReadIt() {
        WrappedDataKey one = new WrappedDataKey("acme", 1, "kek-1", binary(1));
        WrappedDataKey again = new WrappedDataKey("acme", 1, "kek-2", binary(2));
        if (!store.keepsDataKeys()) {
            assertThatThrownBy(() -> store.rewrapDataKey(one, again)).isInstanceOf(InvalidInputException.class);
            return;
        }
        assertThat(store.rewrapDataKey(one, again)).as("no such key yet").isFalse();
        assertThat(store.addDataKey(one)).isTrue();
        assertThat(store.rewrapDataKey(one, again)).isTrue();
        assertThat(store.dataKeys("acme")).containsExactly(again);
        assertThat(store.rewrapDataKey(one, new WrappedDataKey("acme", 1, "kek-3", binary(3))))
                .as("another process wrapped it again first").isFalse();
        assertThat(store.dataKeys("acme")).containsExactly(again);
        assertThatThrownBy(() -> store.rewrapDataKey(again, new WrappedDataKey("acme", 2, "kek-3", binary(3))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("acme/1 is not acme/2");
        assertThat(store.dataKeys("acme")).containsExactly(again);
    }
}
