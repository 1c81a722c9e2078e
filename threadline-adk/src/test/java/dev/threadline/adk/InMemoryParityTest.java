package dev.threadline.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.State;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The same calls on ADK 1.8.0's own {@link InMemorySessionService} and on {@link ThreadlineSessionService}:
 * every session's state, as {@code getSession} and {@code listSessions} show it, must be the same. The one
 * difference on purpose is {@code temp:} state, which is never journalled here (only the {@link Session}
 * object the caller holds has it), so the views compared leave {@code temp:} keys out.
 */
class InMemoryParityTest {
    private static final List<String[]> SESSIONS = List.of(
            new String[] {"app", "ann", "s1"}, new String[] {"app", "ann", "s2"},
            new String[] {"app", "bob", "s3"}, new String[] {"other-app", "ann", "s4"});

    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();

    @AfterEach
    void close() {
        tl.close();
    }

    private static Map<String, Object> everyScope(String suffix) {
        return Map.of("sessionKey", "session" + suffix, "app:appKey", "app" + suffix,
                "user:userKey", "user" + suffix, "temp:tempKey", "temp" + suffix);
    }

    private static Event withDelta(Map<String, Object> delta) {
        return Event.builder().actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(delta)).build()).build();
    }

    /** Runs {@code script} on a fresh ADK in-memory service and on ours; each session's state must read the same. */
    private void sameAsAdk(Consumer<BaseSessionService> script) {
        BaseSessionService adk = new InMemorySessionService();
        BaseSessionService ours = new ThreadlineSessionService(tl);
        script.accept(adk);
        script.accept(ours);
        assertThat(views(ours)).isEqualTo(views(adk));
    }

    private static Map<String, Object> views(BaseSessionService service) {
        Map<String, Object> views = new LinkedHashMap<>();
        for (String[] s : SESSIONS) {
            Session got = service.getSession(s[0], s[1], s[2], Optional.empty()).blockingGet();
            views.put("get " + String.join("/", s), got == null ? "absent" : withoutTemp(got.state()));
            service.listSessions(s[0], s[1]).blockingGet().sessions().stream()
                    .filter(l -> l.id().equals(s[2]))
                    .forEach(l -> views.put("list " + String.join("/", s), withoutTemp(l.state())));
        }
        return views;
    }

    private static Map<String, Object> withoutTemp(Map<String, Object> state) {
        Map<String, Object> kept = new TreeMap<>(state);
        kept.keySet().removeIf(k -> k.startsWith(State.TEMP_PREFIX));
        return kept;
    }

    private static Session create(BaseSessionService service, String[] s, Map<String, Object> state) {
        return service.createSession(s[0], s[1], state == null ? null : new HashMap<>(state), s[2]).blockingGet();
    }

    @Test
    void initialAppAndUserStateStaysInTheSessionCreatedWithIt() {
        sameAsAdk(service -> {
            create(service, SESSIONS.get(0), everyScope("0"));
            create(service, SESSIONS.get(1), null);
            create(service, SESSIONS.get(2), null);
            create(service, SESSIONS.get(3), null);
        });
    }

    @Test
    void theCreatedSessionObjectShowsItsInitialStateLikeAdks() {
        Session adk = create(new InMemorySessionService(), SESSIONS.get(0), everyScope("0"));
        Session ours = create(new ThreadlineSessionService(tl), SESSIONS.get(0), everyScope("0"));
        assertThat(ours.state()).isEqualTo(adk.state());
    }

    @Test
    void appendedAppAndUserStateIsSharedAndOverridesASessionsOwnInitialValue() {
        sameAsAdk(service -> {
            create(service, SESSIONS.get(0), everyScope("0"));
            create(service, SESSIONS.get(1), null);
            Session bob = create(service, SESSIONS.get(2), null);
            create(service, SESSIONS.get(3), null);
            Session ann2 = service.getSession("app", "ann", "s2", Optional.empty()).blockingGet();
            service.appendEvent(ann2, withDelta(everyScope("1"))).blockingGet();
            service.appendEvent(bob, withDelta(Map.of("user:userKey", "bob's", "sessionKey", "bob's"))).blockingGet();
        });
    }

    @Test
    void aSharedKeyRemovedElsewhereStaysInTheSessionsThatSetIt() {
        sameAsAdk(service -> {
            Session ann1 = create(service, SESSIONS.get(0), null);
            Session ann2 = create(service, SESSIONS.get(1), null);
            Session bob = create(service, SESSIONS.get(2), null);
            create(service, SESSIONS.get(3), null);
            service.appendEvent(ann1, withDelta(everyScope("1"))).blockingGet();
            service.appendEvent(bob, withDelta(Map.of("app:appKey", State.REMOVED))).blockingGet();
            service.appendEvent(ann2, withDelta(Map.of("user:userKey", State.REMOVED))).blockingGet();
        });
    }

    @Test
    void aSessionRemovingAnInitialSharedKeyRemovesItsOwnCopyToo() {
        sameAsAdk(service -> {
            Session ann1 = create(service, SESSIONS.get(0), everyScope("0"));
            create(service, SESSIONS.get(1), null);
            create(service, SESSIONS.get(2), null);
            create(service, SESSIONS.get(3), null);
            Map<String, Object> remove = new HashMap<>();
            everyScope("0").keySet().forEach(k -> remove.put(k, State.REMOVED));
            service.appendEvent(ann1, withDelta(remove)).blockingGet();
        });
    }
}
