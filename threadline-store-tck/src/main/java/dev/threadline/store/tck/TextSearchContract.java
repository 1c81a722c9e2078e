package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.TextSearch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The store as a full-text index of its journals ({@link TextSearch}), whether it keeps an index or
 * ranks in process: a message is found by its words in the ranges asked, with its session, seq, role,
 * time and snippet; the best match comes first; nothing outside the ranges (another seq, another
 * session, another tenant's session of the same id) is found; a deleted session's messages are gone;
 * a bad query is refused. JUnit makes an instance per test; not shared between threads.
 *
 * @param <S> the store, as the roles this suite uses
 */
public abstract class TextSearchContract<S extends SessionIndex & Journal & Leases & TextSearch> extends StoreContractSupport<S> {
    /** For {@link StateStoreContract}'s nested suite, or a backend's test of this suite alone, to extend. */
    protected TextSearchContract() {}

    private static final String FILLER = "we talked about the weather and the garden and nothing else";

    /** Root session {@code id} of {@code tenant}: SessionCreated, then one user message per text (assistant "ok" after each). */
    private SessionKey said(String tenant, String id, String... texts) {
        SessionInfo info = StoreFixtures.root(id, tenant, "u");
        List<StoredEvent> events = new ArrayList<>(List.of(StoreFixtures.first(info)));
        for (String t : texts) {
            events.add(StoreFixtures.user(id, events.size() + 1, t));
            events.add(StoreFixtures.assistant(id, events.size() + 1, "ok"));
        }
        store.create(info, events);
        lease(SessionKey.of(info));
        return SessionKey.of(info);
    }

    private List<SearchHit> search(SessionKey key, String query, int limit) {
        return store.search(List.of(new SearchRange(key, 1, store.head(key))), query, limit);
    }

    @Test
    public final void aMessageIsFoundByItsWordsWithItsSeqRoleTimeAndSnippet() {
        SessionKey k = said(SessionInfo.DEFAULT_TENANT, "s", FILLER, FILLER, "remember this: the door code is 4712", FILLER);

        List<SearchHit> hits = search(k, "Door CODE?", 5);

        assertThat(hits).isNotEmpty();
        SearchHit first = hits.getFirst();
        assertThat(first.session()).isEqualTo("s");
        assertThat(first.seq()).isEqualTo(6);
        assertThat(first.role()).isEqualTo(Role.USER);
        assertThat(first.time()).isEqualTo(StoreFixtures.T0.plusMillis(6));
        assertThat(first.snippet()).isEqualTo("remember this: the door code is 4712");
        assertThat(hits).extracting(SearchHit::seq).doesNotHaveDuplicates();
    }

    @Test
    public final void theBestMatchComesFirstTheLimitHoldsAndAssistantTextAndToolResultsAreFound() {
        SessionKey k = said(SessionInfo.DEFAULT_TENANT, "s", "the garden", "the garden gate", FILLER);
        long head = store.head(k);
        append("s", head, List.of(StoreFixtures.assistant("s", head + 1, "the gate is green"),
                StoreFixtures.at("s", head + 2, CheckpointSource.LOOP, new Event.ToolCallCompleted("t1", "gate log: opened twice", false))));

        assertThat(search(k, "garden gate", 2)).hasSize(2).first().satisfies(h -> assertThat(h.seq()).isEqualTo(4));
        assertThat(search(k, "garden", 10)).extracting(SearchHit::seq).containsExactlyInAnyOrder(2L, 4L, 6L);
        assertThat(search(k, "gate", 10)).extracting(SearchHit::seq).containsExactlyInAnyOrder(4L, 8L, 9L);
        assertThat(search(k, "green", 10)).singleElement().satisfies(h -> assertThat(h.role()).isEqualTo(Role.ASSISTANT));
        assertThat(search(k, "opened", 10)).singleElement().satisfies(h -> assertThat(h.snippet()).isEqualTo("gate log: opened twice"));
        assertThat(search(k, "zebra", 10)).isEmpty();
    }

    @Test
    public final void onlyTheRangesAskedAreSearchedAndHitsNameTheirSession() {
        SessionKey p = said(SessionInfo.DEFAULT_TENANT, "p", "alpha one", "alpha two", "alpha three");
        SessionInfo parent = store.session(p).orElseThrow();
        createBranch(parent, "p-b", 3, 1);
        append("p-b", 4, List.of(StoreFixtures.user("p-b", 5, "alpha in the branch")));

        // the branch's journal: the parent's seqs 1..3, then its own 4..5; the parent's later "alpha" turns are not in it
        List<SearchHit> hits = store.search(List.of(new SearchRange(key("p-b"), 4, 5), new SearchRange(p, 1, 3)), "alpha", 10);
        assertThat(hits).extracting(h -> h.session() + "@" + h.seq()).containsExactlyInAnyOrder("p@2", "p-b@5");
        assertThat(store.search(List.of(new SearchRange(p, 3, 5)), "alpha", 10)).extracting(SearchHit::seq).containsExactly(4L);
        assertThat(store.search(List.of(new SearchRange(p, 3, 2)), "alpha", 10)).isEmpty();
    }

    @Test
    public final void anotherTenantsSessionOfTheSameIdIsNotSearched() {
        SessionKey mine = said("t1", "same", "the secret is plum");
        SessionKey theirs = said("t2", "same", "the secret is pear");

        assertThat(search(mine, "secret", 10)).extracting(SearchHit::snippet).containsExactly("the secret is plum");
        assertThat(search(theirs, "secret", 10)).extracting(SearchHit::snippet).containsExactly("the secret is pear");
    }

    @Test
    public final void aDeletedSessionsMessagesAreGoneFromTheIndex() {
        said(SessionInfo.DEFAULT_TENANT, "gone", "the door code is 4712");
        store.delete(key("gone"));
        SessionKey again = said(SessionInfo.DEFAULT_TENANT, "gone", FILLER, FILLER);

        assertThat(store.search(List.of(new SearchRange(again, 1, 99)), "door code 4712", 10)).isEmpty();
        assertThat(search(again, "garden", 10)).hasSize(2);
    }

    @Test
    public final void aQueryWithoutAWordTooLongOrABadLimitIsRefused() {
        SessionKey k = said(SessionInfo.DEFAULT_TENANT, "s", FILLER);
        List<SearchRange> all = List.of(new SearchRange(k, 1, 3));

        assertThatThrownBy(() -> store.search(all, "", 5)).isInstanceOf(InvalidInputException.class).hasMessageContaining("query");
        assertThatThrownBy(() -> store.search(all, "?! …", 5)).isInstanceOf(InvalidInputException.class).hasMessageContaining("no word");
        assertThatThrownBy(() -> store.search(all, "a".repeat(10_000), 5)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("10000 characters");
        assertThatThrownBy(() -> store.search(all, "garden", 0)).isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
        assertThat(search(k, "garden", 5)).hasSize(1);
    }
}
