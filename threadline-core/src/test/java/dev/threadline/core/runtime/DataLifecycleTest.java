package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LegalHoldException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Legal holds and erasure ({@link DataLifecycle}) on the in-memory store: an erasure removes every
 * session of its subject with their branches and the user's variables, leaves everyone else's data as it
 * was, keeps a receipt that names no erased id in clear; a hold keeps a session from retention and
 * refuses an erasure, changing nothing; placing and lifting holds are steps of the records journal.
 */
class DataLifecycleTest {
    private static final String CANARY = "canary-7f3a9 the secret of ada";
    private final TestClock clock = new TestClock();
    private final StateStore store = new InMemoryStateStore(clock);
    private final Threadline tl = Threadline.builder().store(store).clock(clock).model(ScriptedModel.demo()).build();
    private final Tenant acme = tl.tenant("acme");

    @AfterEach
    void close() {
        tl.close();
    }

    private Session session(String id, String user, Duration ttl) {
        return acme.create(new NewSession(id, user, SessionConfig.DEFAULT, Map.of("topic", CANARY), ttl));
    }

    private Session withCanary(String id, String user) {
        Session s = session(id, user, null);
        s.submit("remember " + CANARY);
        s.edit("test", "note", List.of(new Edit.SetVariable(VariableScope.USER, "note", TextNode.valueOf(CANARY)),
                new Edit.SetVariable(VariableScope.SESSION, "mine", TextNode.valueOf(CANARY))));
        return s;
    }

    private List<StoredEvent> journal(String id) {
        SessionKey key = new SessionKey("acme", id);
        return store.readOwn(key, 1, store.head(key));
    }

    private List<String> sessions() {
        return acme.sessions().items().stream().map(s -> s.info().id()).sorted().toList();
    }

    @Test
    void erasingAUserRemovesTheirSessionsWithBranchesAndVariablesAndNothingElse() {
        Session a1 = withCanary("ada-1", "ada");
        withCanary("ada-2", "ada");
        a1.fork(2, "ada-1-fork").submit("and more " + CANARY);
        Session bob = session("bob-1", "bob", null);
        bob.submit("hello");
        bob.edit("test", "note", List.of(new Edit.SetVariable(VariableScope.USER, "note", TextNode.valueOf("bob's"))));
        String bobBefore = Json.write(journal("bob-1"));

        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), CANARY)).as("before")
                .anyMatch(h -> h.startsWith("session 'ada-1-fork' seq"))
                .contains("session 'ada-2' of user 'ada' exists", "user 'ada' has 1 user-scope variable(s)",
                        "session 'ada-1': the text is in its description");
        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "bob"), CANARY)).as("the text is found wherever it is")
                .contains("session 'ada-2': the text is in its description").noneMatch(h -> h.contains("of user 'ada' exists"));

        ErasureReceipt r = tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo@acme");

        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), CANARY)).as("after: only bob's own copy, in his description")
                .containsExactly("session 'bob-1': the text is in its description", "session 'bob-1' seq 1: the text is in its SessionCreated");
        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), "bob's")).as("bob's variable is still there")
                .containsExactly("session 'bob-1' seq 5: the text is in its StateEdited", "the user-scope variables of user 'bob' hold the text");
        assertThatThrownBy(() -> tl.lifecycle().verify(DataSubject.user("acme", "ada"), " "))
                .isInstanceOf(dev.threadline.core.error.InvalidInputException.class);
        assertThat(sessions()).containsExactly("bob-1");
        assertThat(acme.userVariables("ada")).isEmpty();
        assertThat(acme.userVariables("bob")).containsEntry("note", TextNode.valueOf("bob's"));
        assertThat(Json.write(journal("bob-1"))).isEqualTo(bobBefore);
        assertThat(r.sessions()).isEqualTo(3);
        assertThat(r.sessionHashes()).containsExactlyInAnyOrder(DataLifecycle.hash("acme", "ada-1"),
                DataLifecycle.hash("acme", "ada-2"), DataLifecycle.hash("acme", "ada-1-fork"));
        assertThat(r.userVariables()).isEqualTo(1);
        assertThat(r.subjectHash()).isEqualTo(DataLifecycle.hash("acme", "ada"));
        assertThat(r.complete()).isTrue();
        assertThat(r.by()).isEqualTo("dpo@acme");
        assertThat(tl.lifecycle().receipts("acme")).containsExactly(r);
        assertThat(tl.lifecycle().receipts("other")).isEmpty();
        String kept = Json.write(tl.lifecycle().receipts("acme")) + Json.write(records());
        assertThat(kept).doesNotContain("ada-1").doesNotContain("ada-2").doesNotContain("\"ada\"").doesNotContain("canary");
    }

    @Test
    void verifyFindsTheTextInWhatPruningFoldedIntoASessionsBase() { // regression: verify read only the journal left
        Session s = acme.create(new NewSession("pruned", "ada", SessionConfig.DEFAULT, Map.of(), null));
        s.submit("remember " + CANARY);
        for (int i = 0; i < 4; i++) {
            s.submit("what is " + i + "+1");
        }
        PruneResult pruned = tl.lifecycle().prune("acme", "pruned", PrunePolicy.keepLatest(1));
        assertThat(pruned.pruned()).isTrue();
        assertThat(journal("pruned")).noneMatch(e -> Json.write(e.event()).contains("canary"));
        // regression: History.journal() threw "seq 1 was pruned" instead of returning the journal the session keeps
        assertThat(s.history().journal()).extracting(StoredEvent::seq).first().isEqualTo(pruned.prunedThrough() + 1);
        assertThat(s.history().journal()).last().extracting(StoredEvent::seq).isEqualTo(s.state().seq());

        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), CANARY))
                .anyMatch(h -> h.startsWith("session 'pruned': the text is in its history base (pruned through seq "));
        tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo@acme");
        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), CANARY)).isEmpty();
    }

    @Test
    void anErasureStoppedMidwayIsContinuedUnderItsReceiptWhenRunAgain() {
        withCanary("ada-1", "ada");
        withCanary("ada-2", "ada");
        clock.advance(Duration.ofHours(1)); // past this runtime's own leases
        assertThat(store.acquire(new SessionKey("acme", "ada-2"), "another-process",
                Duration.ofMinutes(5), null)).isInstanceOf(dev.threadline.core.store.LeaseResult.Acquired.class);
        DataSubject ada = DataSubject.user("acme", "ada");
        // a runtime that waits for no lease (not closed here: closing a runtime closes its store, which tl shares)
        Threadline impatient = Threadline.builder().store(store).clock(clock).model(ScriptedModel.demo()).leaseWait(Duration.ZERO).build();
        assertThatThrownBy(() -> impatient.lifecycle().erase(ada, "dpo")).hasMessageContaining("stopped midway");
        ErasureReceipt first = tl.lifecycle().unfinished(ada).orElseThrow();
        assertThat(first.complete()).isFalse();
        assertThat(tl.lifecycle().receipts("acme")).containsExactly(first);

        // the other process's lease on ada-2 lapses, and so does the impatient runtime's on the records session
        // (it is not closed, so it never releases it)
        clock.advance(Duration.ofMinutes(10));
        ErasureReceipt done = tl.lifecycle().erase(ada, "dpo");
        assertThat(done.id()).as("the same erasure, continued").isEqualTo(first.id());
        assertThat(done.complete()).isTrue();
        assertThat(done.sessionHashes()).containsExactlyInAnyOrder(DataLifecycle.hash("acme", "ada-1"), DataLifecycle.hash("acme", "ada-2"));
        assertThat(tl.lifecycle().receipts("acme")).containsExactly(done);
        assertThat(tl.lifecycle().unfinished(ada)).isEmpty();
        assertThat(sessions()).isEmpty();
    }

    @Test
    void holdsDataOfTellsAMistypedSubjectFromOneThatIsThereAndGoesFalseAfterTheErasure() {
        withCanary("ada-1", "ada");
        session("other", "cy", null).edit("test", "v",
                List.of(new Edit.SetVariable(VariableScope.USER, "only-vars", TextNode.valueOf("x"))));
        DataLifecycle lc = tl.lifecycle();
        assertThat(lc.holdsDataOf(DataSubject.user("acme", "ada"))).isTrue();
        assertThat(lc.holdsDataOf(DataSubject.user("acme", "adda"))).isFalse();
        assertThat(lc.holdsDataOf(DataSubject.session("acme", "ada-1"))).isTrue();
        assertThat(lc.holdsDataOf(DataSubject.session("acme", "ada-2"))).isFalse();
        assertThat(lc.holdsDataOf(DataSubject.tenant("acme"))).isTrue();
        assertThat(lc.holdsDataOf(DataSubject.tenant("acme-typo"))).isFalse();
        acme.delete("other");
        assertThat(lc.holdsDataOf(DataSubject.user("acme", "cy"))).as("variables alone are data").isTrue();

        session("kept", "bob", null);
        lc.erase(DataSubject.user("acme", "ada"), "ops");

        assertThat(lc.holdsDataOf(DataSubject.user("acme", "ada"))).isFalse();
        assertThat(lc.holdsDataOf(DataSubject.session("acme", "ada-1"))).isFalse();
        assertThat(lc.holdsDataOf(DataSubject.tenant("acme"))).as("bob's session is there").isTrue();
    }

    @Test
    void replayingAReceiptAfterARestoreErasesTheUserAgainAndKeepsTheReceipt() {
        withCanary("ada-1", "ada");
        acme.open("ada-1").fork(2, "ada-1-fork");
        session("bob-1", "bob", null).submit("hello");
        ErasureReceipt first = tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo");
        // what a restore of an older backup brings back: ada's sessions (under the same ids), no receipt
        withCanary("ada-1", "ada");
        acme.open("ada-1").fork(2, "ada-1-fork");
        session("other-fork", "cy", null);
        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), null)).isNotEmpty();

        ErasureReceipt again = tl.lifecycle().replay(first, "ops").orElseThrow();

        assertThat(again.sessions()).isEqualTo(2);
        assertThat(again.sessionHashes()).isEqualTo(first.sessionHashes());
        assertThat(again.subjectHash()).isEqualTo(first.subjectHash());
        assertThat(again.userVariables()).isEqualTo(1);
        assertThat(sessions()).containsExactly("bob-1", "other-fork");
        assertThat(tl.lifecycle().verify(DataSubject.user("acme", "ada"), CANARY))
                .allMatch(h -> h.contains("'bob-1'") || h.contains("'other-fork'"));
        assertThat(tl.lifecycle().replay(first, "ops")).as("nothing of it is there any more").isEmpty();
        assertThat(tl.lifecycle().receipts("acme")).extracting(ErasureReceipt::id).contains(first.id(), again.id());

        tl.lifecycle().placeHold(DataSubject.user("acme", "ada"), "case 3", "legal");
        withCanary("ada-2", "ada");
        assertThatThrownBy(() -> tl.lifecycle().replay(first, "ops")).isInstanceOf(LegalHoldException.class);
        assertThat(sessions()).contains("ada-2");
    }

    @Test
    void erasingASessionTakesItsBranchesAndLeavesItsParentAndSiblings() {
        Session root = withCanary("root", "ada");
        Session child = root.fork(2, "child");
        child.submit("x");
        child.fork(2, "grandchild");
        root.fork(2, "sibling");

        ErasureReceipt r = tl.lifecycle().erase(DataSubject.session("acme", "child"), "ops");

        assertThat(r.sessions()).isEqualTo(2);
        assertThat(sessions()).containsExactly("root", "sibling");
        assertThat(acme.userVariables("ada")).as("a session's erasure leaves its user's variables").isNotEmpty();
        assertThatThrownBy(() -> tl.lifecycle().erase(DataSubject.session("acme", "child"), "ops"))
                .isInstanceOf(SessionNotFoundException.class);
    }

    @Test
    void erasingATenantRemovesEverySessionAndItsUserAndAppVariables() {
        withCanary("ada-1", "ada");
        Session b = withCanary("bob-1", "bob");
        b.edit("test", "app", List.of(new Edit.SetVariable(VariableScope.APP, "motto", TextNode.valueOf(CANARY))));
        tl.tenant("other").create(NewSession.of("kept", SessionConfig.DEFAULT)).submit("hi");

        ErasureReceipt r = tl.lifecycle().erase(DataSubject.tenant("acme"), "ops");

        assertThat(sessions()).isEmpty();
        assertThat(acme.appVariables()).isEmpty();
        assertThat(acme.userVariables("ada")).isEmpty();
        assertThat(acme.userVariables("bob")).isEmpty();
        assertThat(r.userVariables()).isEqualTo(2);
        assertThat(r.appVariables()).isEqualTo(1);
        assertThat(tl.tenant("other").sessions().items()).hasSize(1);
    }

    @Test
    void aHeldUserIsRefusedAndUntouchedUntilTheHoldIsLifted() {
        withCanary("ada-1", "ada");
        LegalHold hold = tl.lifecycle().placeHold(DataSubject.user("acme", "ada"), "case 2026-117", "legal@acme");
        assertThat(tl.lifecycle().placeHold(DataSubject.user("acme", "ada"), "again", "x")).as("placing it twice keeps the first")
                .isEqualTo(hold);
        String before = Json.write(journal("ada-1"));

        assertThatThrownBy(() -> tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo"))
                .isInstanceOf(LegalHoldException.class).hasMessageContaining("user 'ada' of tenant 'acme'")
                .hasMessageContaining("case 2026-117").hasMessageContaining("legal@acme");
        assertThatThrownBy(() -> tl.lifecycle().erase(DataSubject.session("acme", "ada-1"), "dpo"))
                .as("nor any session of the held user").isInstanceOf(LegalHoldException.class);
        assertThat(Json.write(journal("ada-1"))).isEqualTo(before);
        assertThat(acme.userVariables("ada")).isNotEmpty();
        assertThat(tl.lifecycle().receipts("acme")).isEmpty();
        assertThat(tl.lifecycle().holds("acme")).containsExactly(hold);

        assertThat(tl.lifecycle().liftHold(DataSubject.user("acme", "ada"), "legal@acme")).isTrue();
        assertThat(tl.lifecycle().liftHold(DataSubject.user("acme", "ada"), "legal@acme")).isFalse();
        assertThat(tl.lifecycle().erase(DataSubject.user("acme", "ada"), "dpo").sessions()).isEqualTo(1);
        List<String> reasons = records().stream().map(e -> e.event().toString()).toList();
        assertThat(String.join("\n", reasons)).contains("place a legal hold on user 'ada' of tenant 'acme': case 2026-117")
                .contains("lift the legal hold on user 'ada' of tenant 'acme'").contains("erasure er-");
    }

    @Test
    void aHeldBranchKeepsTheWholeErasureFromHappening() {
        Session root = withCanary("root", "ada");
        root.fork(2, "evidence");
        tl.lifecycle().placeHold(DataSubject.session("acme", "evidence"), "exhibit A", "legal");

        assertThatThrownBy(() -> tl.lifecycle().erase(DataSubject.session("acme", "root"), "dpo"))
                .isInstanceOf(LegalHoldException.class).hasMessageContaining("session 'evidence'");
        assertThat(sessions()).containsExactly("evidence", "root");
    }

    @Test
    void retentionKeepsAHeldSessionPastItsExpiryAndRemovesItOnceLifted() {
        session("short", "ada", Duration.ofMinutes(1));
        session("other", "bob", Duration.ofMinutes(1));
        tl.lifecycle().placeHold(DataSubject.user("acme", "ada"), "case 9", "legal");
        clock.advance(Duration.ofMinutes(2));

        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0, 1));
        assertThat(sessions()).containsExactly("short");

        tl.lifecycle().liftHold(DataSubject.user("acme", "ada"), "legal");
        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0, 0));
        assertThat(sessions()).isEmpty();
    }

    @Test
    void badRequestsAreRefusedAndChangeNothing() {
        withCanary("ada-1", "ada");
        assertThatThrownBy(() -> tl.lifecycle().erase(DataSubject.tenant(DataLifecycle.RECORDS_TENANT), "x"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("threadline.records");
        assertThatThrownBy(() -> tl.lifecycle().erase(DataSubject.user("acme", "ada"), " "))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("actor");
        assertThatThrownBy(() -> tl.lifecycle().placeHold(DataSubject.user("acme", "ada"), "", "x"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("reason");
        assertThatThrownBy(() -> DataSubject.session("acme", "no spaces allowed"))
                .isInstanceOf(InvalidInputException.class);
        assertThat(sessions()).containsExactly("ada-1");
        assertThat(tl.tenant(DataLifecycle.RECORDS_TENANT).sessions().items()).isEmpty();
    }

    private List<StoredEvent> records() {
        SessionKey key = new SessionKey(DataLifecycle.RECORDS_TENANT, "data-lifecycle");
        return store.session(key).isEmpty() ? List.of() : store.readOwn(key, 1, store.head(key));
    }
}
