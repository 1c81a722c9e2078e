package dev.threadline.adk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionException;
import com.google.adk.sessions.State;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cases of ADK 1.8.0's tests for its InMemorySessionService, on the Threadline service. */
class ThreadlineSessionServiceTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final ThreadlineSessionService service = new ThreadlineSessionService(tl);

    @AfterEach
    void close() {
        tl.close();
    }

    private static Event withDelta(Map<String, Object> delta) {
        return Event.builder().actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(delta)).build()).build();
    }

    private static Map<String, Object> everyScope() {
        return Map.of("sessionKey", "sessionValue", "app:appKey", "appValue",
                "user:userKey", "userValue", "temp:tempKey", "tempValue");
    }

    private Session get(Session s) {
        return service.getSession(s.appName(), s.userId(), s.id(), Optional.empty()).blockingGet();
    }

    @Test
    void noSessionIsFoundListedOrHasEvents() {
        assertThat(service.getSession("app-name", "user-id", "session-id", Optional.empty()).blockingGet()).isNull();
        assertThat(service.listSessions("app-name", "user-id").blockingGet().sessions()).isEmpty();
        assertThat(service.listEvents("app-name", "user-id", "session-id").blockingGet().events()).isEmpty();
    }

    @Test
    void createdSessionHasAnIdItsAppAndUserAndNoState() {
        Session session = service.createSession("app-name", "user-id").blockingGet();
        assertThat(session.id()).isNotBlank();
        assertThat(session.appName()).isEqualTo("app-name");
        assertThat(session.userId()).isEqualTo("user-id");
        assertThat(session.state()).isEmpty();
    }

    @Test
    void createdSessionIsFound() {
        Session session = service.createSession("app-name", "user-id").blockingGet();
        assertThat(get(session).id()).isEqualTo(session.id());
    }

    @Test
    void listedSessionsHaveTheirStateButNoEventsAndNoTempState() {
        Session session = service.createSession("app-name", "user-id", new HashMap<>(), "session-1").blockingGet();
        service.appendEvent(session, withDelta(everyScope())).blockingGet();

        ListSessionsResponse response = service.listSessions("app-name", "user-id").blockingGet();
        assertThat(response.sessions()).hasSize(1);
        Session listed = response.sessions().get(0);
        assertThat(listed.id()).isEqualTo("session-1");
        assertThat(listed.events()).isEmpty();
        assertThat(listed.state()).containsEntry("sessionKey", "sessionValue")
                .containsEntry("app:appKey", "appValue").containsEntry("user:userKey", "userValue")
                .doesNotContainKey("temp:tempKey"); // ADK's in-memory service lists it: temp is never journalled here
    }

    @Test
    void deletedSessionIsGone() {
        Session session = service.createSession("app-name", "user-id").blockingGet();
        service.deleteSession(session.appName(), session.userId(), session.id()).blockingAwait();
        assertThat(get(session)).isNull();
        assertThat(tl.tenant("app-name").find(session.id())).isEmpty();
    }

    @Test
    void deletingOneSessionKeepsTheUsersOthers() {
        Session one = service.createSession("app-name", "user-id").blockingGet();
        Session two = service.createSession("app-name", "user-id").blockingGet();
        service.deleteSession(one.appName(), one.userId(), one.id()).blockingAwait();
        assertThat(get(two)).isNotNull();
        assertThat(service.listSessions("app-name", "user-id").blockingGet().sessionIds()).containsExactly(two.id());
    }

    @Test
    void appendedDeltaUpdatesTheSessionObjectAndTheStoredState() {
        Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
        service.appendEvent(session, withDelta(everyScope())).blockingGet();

        assertThat(session.state()).containsAllEntriesOf(everyScope());
        assertThat(get(session).state()).containsEntry("sessionKey", "sessionValue")
                .containsEntry("app:appKey", "appValue").containsEntry("user:userKey", "userValue")
                .doesNotContainKey("temp:tempKey");
    }

    @Test
    void removedKeysLeaveEveryScope() {
        Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
        service.appendEvent(session, withDelta(everyScope())).blockingGet();
        Map<String, Object> remove = new HashMap<>();
        everyScope().keySet().forEach(k -> remove.put(k, State.REMOVED));
        service.appendEvent(session, withDelta(remove)).blockingGet();

        assertThat(get(session).state()).doesNotContainKeys("sessionKey", "app:appKey", "user:userKey", "temp:tempKey");
        assertThat(session.state()).doesNotContainKeys("sessionKey", "app:appKey", "user:userKey", "temp:tempKey");
        assertThat(get(session).events().get(1).actions().stateDelta())
                .containsEntry("sessionKey", State.REMOVED).doesNotContainKey("temp:tempKey");
    }

    @Test
    void lastUpdateTimeIsTheEventsTimestampWithItsFraction() {
        Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
        service.appendEvent(session, Event.builder().timestamp(5500).build()).blockingGet();
        assertThat(get(session).lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5, 500_000_000L));
        assertThat(session.lastUpdateTime()).isEqualTo(Instant.ofEpochSecond(5, 500_000_000L));
    }

    @Test
    void sequentialAgentsShareTempStateOnTheSessionObjectOnly() {
        Session session = service.createSession("app", "user", new HashMap<>(), "session1").blockingGet();
        service.appendEvent(session, withDelta(Map.of("temp:agent1_output", "data"))).blockingGet();
        assertThat(session.state()).containsEntry("temp:agent1_output", "data");

        service.appendEvent(session, withDelta(Map.of("temp:agent2_output", "processed_data",
                "temp:agent1_output", State.REMOVED))).blockingGet();
        assertThat(session.state()).doesNotContainKey("temp:agent1_output")
                .containsEntry("temp:agent2_output", "processed_data");
        assertThat(get(session).state()).isEmpty();
        assertThat(get(session).events()).hasSize(2);
    }

    @Test
    void numRecentEventsAndAfterTimestampBothApply() {
        Session session = service.createSession("app", "user").blockingGet();
        for (long ts : new long[] {100, 200, 300, 400, 500}) {
            service.appendEvent(session, Event.builder().timestamp(ts).build()).blockingGet();
        }
        GetSessionConfig config = GetSessionConfig.builder().numRecentEvents(4)
                .afterTimestamp(Instant.ofEpochMilli(300)).build();
        Session got = service.getSession("app", "user", session.id(), Optional.of(config)).blockingGet();
        assertThat(got.events()).extracting(Event::timestamp).containsExactly(300L, 400L, 500L);
        assertThat(service.getSession("app", "user", session.id(),
                Optional.of(GetSessionConfig.builder().numRecentEvents(2).build())).blockingGet().events())
                .extracting(Event::timestamp).containsExactly(400L, 500L);
        assertThat(service.listEvents("app", "user", session.id()).blockingGet().events()).hasSize(5);
    }

    // ours

    @Test
    void eventsReadBackAsAppended() {
        Session session = service.createSession("app", "user").blockingGet();
        Event event = Event.builder().id("e-1").invocationId("inv-1").author("agent").timestamp(42)
                .actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(Map.of("n", 3))).build()).build();
        service.appendEvent(session, event).blockingGet();
        Event read = get(session).events().get(0);
        assertThat(read.id()).isEqualTo("e-1");
        assertThat(read.invocationId()).isEqualTo("inv-1");
        assertThat(read.author()).isEqualTo("agent");
        assertThat(read.actions().stateDelta()).containsEntry("n", 3);
    }

    @Test
    void initialStateStaysInItsSessionAndAppendedUserAndAppStateIsShared() {
        Session first = service.createSession("app", "ann", everyScope(), "s1").blockingGet();
        assertThat(first.state()).containsAllEntriesOf(everyScope());
        assertThat(service.createSession("app", "ann", null, "s2").blockingGet().state()).isEmpty();
        assertThat(tl.tenant("app").appVariables()).doesNotContainKey("appKey");

        service.appendEvent(first, withDelta(everyScope())).blockingGet();
        Session second = service.createSession("app", "ann", null, "s3").blockingGet();
        assertThat(second.state()).containsOnly(Map.entry("app:appKey", "appValue"), Map.entry("user:userKey", "userValue"));
        Session other = service.createSession("app", "bob", null, "s4").blockingGet();
        assertThat(other.state()).containsOnly(Map.entry("app:appKey", "appValue"));
        assertThat(tl.tenant("app").appVariables()).containsKey("appKey");
    }

    @Test
    void anotherUsersSessionIsNotFound() {
        Session session = service.createSession("app", "ann").blockingGet();
        assertThat(service.getSession("app", "bob", session.id(), Optional.empty()).blockingGet()).isNull();
        assertThat(service.listSessions("app", "bob").blockingGet().sessions()).isEmpty();
        service.deleteSession("app", "bob", session.id()).blockingAwait();
        assertThat(get(session)).isNotNull();
    }

    @Test
    void aTakenIdOrAppendingToADeletedSessionIsASessionException() {
        Session session = service.createSession("app", "ann", null, "taken").blockingGet();
        assertThatThrownBy(() -> service.createSession("app", "ann", null, "taken").blockingGet())
                .isInstanceOf(SessionException.class).hasMessageContaining("taken");
        service.deleteSession("app", "ann", "taken").blockingAwait();
        assertThatThrownBy(() -> service.appendEvent(session, Event.builder().build()).blockingGet())
                .isInstanceOf(com.google.adk.sessions.SessionNotFoundException.class);
    }

    @Test
    void partialEventsAreNotRecorded() {
        Session session = service.createSession("app", "ann").blockingGet();
        service.appendEvent(session, Event.builder().partial(true).build()).blockingGet();
        assertThat(get(session).events()).isEmpty();
    }
}
