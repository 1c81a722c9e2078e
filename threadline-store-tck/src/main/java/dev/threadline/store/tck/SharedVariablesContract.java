package dev.threadline.store.tck;

import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.parse;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.setAppVar;
import static dev.threadline.store.tck.StoreFixtures.setUserVar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SharedVariables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedVariables}: user and app variables, written only with an append and in its transaction:
 * set and removed with it, untouched when it is refused, kept apart per user and per tenant. JUnit
 * makes an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class SharedVariablesContract<S extends SessionIndex & Journal & Leases & SharedVariables>
        extends StoreContractSupport<S> {
    private static final SessionKey T_S = new SessionKey("t", "s");

    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected SharedVariablesContract() {}

    @Test
    public final void scopedWritesAreAppliedWithTheAppend() {
        createRoot(root("s", "t", "alice"), 1);
        String alice = ScopedWrite.userKey("t", "alice");

        append(T_S, 1, messages("s", 2, 1), List.of(
                setUserVar("t", "alice", "lang", "\"fr\""),
                setUserVar("t", "alice", "prefs", RoundTripFixtures.TOOL_INPUT),
                setAppVar("t", "motd", "{\"text\": \"hi é\", \"n\": [1, 2.5, null]}")));
        assertThat(store.variables(VariableScope.USER, alice)).isEqualTo(Map.of(
                "lang", parse("\"fr\""), "prefs", parse(RoundTripFixtures.TOOL_INPUT)));
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("t")))
                .isEqualTo(Map.of("motd", parse("{\"text\": \"hi é\", \"n\": [1, 2.5, null]}")));

        append(T_S, 2, messages("s", 3, 1), List.of(new ScopedWrite(VariableScope.USER, alice,
                Map.of("lang", parse("\"de\"")), List.of("prefs", "never-set"))));
        assertThat(store.variables(VariableScope.USER, alice)).isEqualTo(Map.of("lang", parse("\"de\"")));
        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("t", "bob"))).isEmpty();
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("other"))).isEmpty();
    }

    @Test
    public final void scopedWritesAreNotAppliedWhenTheAppendFails() {
        createRoot(root("s", "t", "alice"), 1);
        append(T_S, 1, messages("s", 2, 1), List.of(setUserVar("t", "alice", "lang", "\"fr\"")));

        assertThatThrownBy(() -> append(T_S, 1, messages("s", 2, 1),
                List.of(setUserVar("t", "alice", "lang", "\"xx\""), setAppVar("t", "flag", "true"))))
                .isInstanceOf(VersionConflictException.class);
        assertThatThrownBy(() -> append(T_S, 2, messages("s", 4, 1),
                List.of(setUserVar("t", "alice", "lang", "\"yy\""))))
                .isInstanceOf(InvalidInputException.class);

        assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("t", "alice")))
                .isEqualTo(Map.of("lang", parse("\"fr\"")));
        assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("t"))).isEmpty();
        assertThat(store.head(T_S)).isEqualTo(2);
    }
}
