package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Listing by pages: most recently updated first (ties by id), a cursor per page that only the query
 * it came from accepts, filters by user and by metadata (every given pair must match), limit 1..1000.
 * JUnit makes an instance per test; not shared between threads.
 */
public abstract class PagingContract extends TailContract {
    private static final String T = SessionInfo.DEFAULT_TENANT;

    private static SessionInfo withMetadata(String id, String userId, Map<String, String> metadata) {
        return new SessionInfo(id, T, userId, SessionConfig.DEFAULT, metadata, StoreFixtures.T0, null, null, 0);
    }

    /** Every page of {@code query}, read to the end; checks each page's size and where the cursor stops. */
    private List<SessionSummary> walk(SessionQuery query) {
        List<SessionSummary> out = new ArrayList<>();
        SessionQuery q = query;
        for (int pages = 0; ; pages++) {
            assertThat(pages).as("pages of %s", query).isLessThan(100);
            Page<SessionSummary> page = store.list(q);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(query.limit());
            out.addAll(page.items());
            if (!page.hasNext()) {
                return out;
            }
            assertThat(page.items()).as("a page with a next cursor is full").hasSize(query.limit());
            q = q.at(page.nextCursor());
        }
    }

    @Test
    public final void pagesOfEveryLimitCoverEverySessionOnceInOrder() {
        for (int i = 0; i < 7; i++) {
            createRoot("s" + i, 1);
        }
        appendMessages("s3", 1);
        appendMessages("s0", 1);
        List<String> all = ids(list(T, null, SessionQuery.MAX_LIMIT));
        assertThat(all).hasSize(7).startsWith("s0", "s3").doesNotHaveDuplicates();

        for (int limit = 1; limit <= 8; limit++) {
            SessionQuery first = new SessionQuery(T, null, null, limit, null);
            assertThat(ids(walk(first))).as("limit %d", limit).isEqualTo(all);
            assertThat(store.list(first).items()).hasSize(Math.min(limit, 7));
        }
        assertThat(ids(list(T, null, SessionQuery.MAX_LIMIT))).as("listing changes nothing").isEqualTo(all);
    }

    @Test
    public final void metadataFilterKeepsSessionsHoldingEveryPair() {
        createRoot(withMetadata("x-prod", "u", Map.of("project", "x", "env", "prod")), 1);
        createRoot(withMetadata("x-dev", "u", Map.of("project", "x", "env", "dev")), 1);
        createRoot(withMetadata("y", "u", Map.of("project", "y", "odd.key \"q\"", "é 🧵")), 1);
        createRoot(withMetadata("none", "u", Map.of()), 1);

        assertThat(ids(walk(new SessionQuery(T, null, Map.of("project", "x"), 1, null)))).containsExactlyInAnyOrder("x-prod", "x-dev");
        assertThat(ids(walk(new SessionQuery(T, null, Map.of("project", "x", "env", "prod"), 5, null)))).containsExactly("x-prod");
        assertThat(ids(walk(new SessionQuery(T, null, Map.of("odd.key \"q\"", "é 🧵"), 5, null)))).containsExactly("y");
        assertThat(walk(new SessionQuery(T, null, Map.of("project", "z"), 5, null))).isEmpty();
        assertThat(walk(new SessionQuery(T, null, Map.of("env", "prod", "project", "y"), 5, null))).isEmpty();
        assertThat(walk(new SessionQuery(T, null, Map.of(), 5, null))).hasSize(4);
    }

    @Test
    public final void userFilterHoldsAcrossPages() {
        for (int i = 0; i < 5; i++) {
            createRoot(StoreFixtures.root("a" + i, T, "alice"), 1);
            createRoot(StoreFixtures.root("b" + i, T, "bob"), 1);
        }

        List<SessionSummary> alice = walk(new SessionQuery(T, "alice", null, 2, null));
        assertThat(ids(alice)).containsExactlyInAnyOrder("a0", "a1", "a2", "a3", "a4");
        assertThat(alice).allSatisfy(s -> assertThat(s.info().userId()).isEqualTo("alice"));
        assertThat(walk(new SessionQuery(T, "carol", null, 2, null))).isEmpty();
    }

    @Test
    public final void aCursorFromAnotherQueryOrGarbageIsRefused() {
        for (int i = 0; i < 3; i++) {
            createRoot(StoreFixtures.root("s" + i, T, "alice"), 1);
        }
        SessionQuery query = new SessionQuery(T, null, null, 1, null);
        String cursor = store.list(query).nextCursor();
        assertThat(cursor).isNotNull();

        List<SessionQuery> others = List.of(new SessionQuery(T, "alice", null, 1, cursor),
                new SessionQuery(T, null, Map.of("k", "v"), 1, cursor), new SessionQuery("other", null, null, 1, cursor));
        for (SessionQuery other : others) {
            assertThatThrownBy(() -> store.list(other)).as("%s", other)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("cursor");
        }
        for (String garbage : new String[] {"", "garbage", "|||", cursor.substring(0, cursor.length() / 2), cursor + "|x", "9" + cursor}) {
            assertThatThrownBy(() -> store.list(query.at(garbage))).as("cursor '%s'", garbage)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("cursor");
        }
        assertThat(store.list(new SessionQuery(T, null, null, 5, cursor)).items())
                .as("the page size may change between pages").hasSize(2);
    }

    @Test
    public final void theLimitIsBetweenOneAndOneThousand() {
        createRoot("s", 1);

        for (int bad : new int[] {0, -1, SessionQuery.MAX_LIMIT + 1}) {
            assertThatThrownBy(() -> new SessionQuery(T, null, null, bad, null))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
        }
        assertThat(store.list(new SessionQuery(T, null, null, 1, null)).items()).hasSize(1);
        assertThat(store.list(new SessionQuery(T, null, null, SessionQuery.MAX_LIMIT, null)).items()).hasSize(1);
        assertThat(store.list(new SessionQuery(T, null, null, 1, null)).hasNext()).isFalse();
    }
}
