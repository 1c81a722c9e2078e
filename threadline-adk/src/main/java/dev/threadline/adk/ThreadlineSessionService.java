package dev.threadline.adk;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListEventsResponse;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.SessionException;
import com.google.adk.sessions.SessionNotFoundException;
import com.google.adk.sessions.State;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A Google ADK {@link BaseSessionService} on Threadline: durable, shared by every process on the same
 * store. An ADK app is a Threadline tenant ({@code threadline.tenant(appName)}), an ADK session a
 * Threadline session of that tenant (same id, ADK's user as its user, metadata {@code adapter=adk}).
 * Each appended event is one journal step (through {@code Session.recordStep}): the event as ADK's JSON
 * and its state delta as session variables, its {@code app:} keys also in the tenant's app scope and its
 * {@code user:} keys in the user's scope (both without the prefix), shared with the app's and the user's
 * other sessions. A new session's initial state stays in that session, {@code app:} and {@code user:}
 * keys included, as in ADK's {@code InMemorySessionService}; reading a session, the shared values win over
 * its own. {@code temp:} keys are never journalled: they live only on the {@link Session} object the
 * caller holds.
 *
 * <p>Every method does its work before it returns (the returned {@code Single}/{@code Maybe} holds the
 * outcome or the error), like ADK's {@code InMemorySessionService}. Thread-safe: concurrent
 * {@link #appendEvent} calls on one session each land as their own step, none lost; a {@link Session}
 * object shared by those threads is updated under its own lock.
 */
public final class ThreadlineSessionService implements BaseSessionService {
    private final Threadline threadline;
    private final SessionConfig config;

    /** A service on {@code threadline}; sessions it creates get {@link SessionConfig#DEFAULT}. */
    public ThreadlineSessionService(Threadline threadline) {
        this(threadline, SessionConfig.DEFAULT);
    }

    /** A service on {@code threadline} whose new sessions get {@code config} (it matters only for Threadline turns). */
    public ThreadlineSessionService(Threadline threadline, SessionConfig config) {
        this.threadline = Objects.requireNonNull(threadline, "threadline");
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * Creates a session (a generated UUID when {@code sessionId} is null or blank) with {@code state} as its
     * first step; that state is the session's own, its {@code app:} and {@code user:} keys not shared with
     * other sessions (ADK's in-memory service does the same). Fails with a {@link SessionException} when the app already has a session with that id,
     * or the id is not a valid Threadline id.
     */
    @Override
    public Single<Session> createSession(String appName, String userId, Map<String, Object> state, String sessionId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        String id = sessionId == null || sessionId.isBlank() ? UUID.randomUUID().toString() : sessionId.trim();
        try {
            Tenant tenant = threadline.tenant(appName);
            var session = tenant.create(new NewSession(id, userId, config,
                    Map.of(SessionVars.ADAPTER_KEY, SessionVars.ADAPTER), null));
            if (state != null && !state.isEmpty()) {
                session.recordStep(s -> StateDelta.events(state, Map.of(), false));
            }
            Session created = read(appName, userId, session, List.of(), session.info().createdAt());
            if (state != null) {
                state.forEach((k, v) -> {
                    if (k.startsWith(State.TEMP_PREFIX) && v != null && v != State.REMOVED) {
                        created.state().put(k, v);
                    }
                });
            }
            return Single.just(created);
        } catch (SessionExistsException e) {
            return Single.error(new SessionException("app '" + appName + "' already has a session '" + id + "'", e));
        } catch (ThreadlineException e) {
            return Single.error(new SessionException(e.getMessage(), e));
        }
    }

    /** Like {@link #createSession(String, String, Map, String)}. */
    @Override
    @SuppressWarnings("deprecation") // ADK still declares and calls this form; a session service must serve it
    public Single<Session> createSession(String appName, String userId, ConcurrentMap<String, Object> state, String sessionId) {
        return createSession(appName, userId, (Map<String, Object>) state, sessionId);
    }

    /**
     * The session with its state and events, read from the journal; empty when the app has no such session
     * for this user. {@code numRecentEvents} keeps the last n events, then {@code afterTimestamp} drops
     * events before that instant (both may apply, in that order, as in ADK's in-memory service).
     */
    @Override
    public Maybe<Session> getSession(String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        Objects.requireNonNull(sessionId, "sessionId cannot be null");
        Objects.requireNonNull(config, "config cannot be null");
        try {
            Optional<dev.threadline.core.runtime.Session> found = find(appName, userId, sessionId);
            if (found.isEmpty()) {
                return Maybe.empty();
            }
            var session = found.get();
            List<Event> events = AdkEvents.fromJournal(session.history().journal());
            Instant updated = events.isEmpty() ? session.info().createdAt()
                    : Instant.ofEpochMilli(events.getLast().timestamp());
            List<Event> kept = new ArrayList<>(events);
            GetSessionConfig c = config.orElse(null);
            if (c != null && c.numRecentEvents().isPresent() && c.numRecentEvents().get() < kept.size()) {
                kept = new ArrayList<>(kept.subList(kept.size() - c.numRecentEvents().get(), kept.size()));
            }
            if (c != null && c.afterTimestamp().isPresent()) {
                Instant after = c.afterTimestamp().get();
                kept.removeIf(e -> Instant.ofEpochMilli(e.timestamp()).isBefore(after));
            }
            return Maybe.just(read(appName, userId, session, kept, updated));
        } catch (ThreadlineException e) {
            return Maybe.error(new SessionException(e.getMessage(), e));
        }
    }

    /** The user's sessions of this app (those this adapter created), with their state and no events. */
    @Override
    public Single<ListSessionsResponse> listSessions(String appName, String userId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        try {
            Tenant tenant = threadline.tenant(appName);
            List<Session> sessions = new ArrayList<>();
            String cursor = null;
            do {
                Page<SessionSummary> page = tenant.sessions(new SessionFilter(userId,
                        Map.of(SessionVars.ADAPTER_KEY, SessionVars.ADAPTER), 100, cursor));
                for (SessionSummary summary : page.items()) {
                    tenant.find(summary.info().id()).ifPresent(s ->
                            sessions.add(read(appName, userId, s, List.of(), summary.updatedAt())));
                }
                cursor = page.nextCursor();
            } while (cursor != null);
            return Single.just(ListSessionsResponse.builder().sessions(sessions).build());
        } catch (ThreadlineException e) {
            return Single.error(new SessionException(e.getMessage(), e));
        }
    }

    /** Deletes the session and its journal; nothing happens when the app has no such session for this user. */
    @Override
    public Completable deleteSession(String appName, String userId, String sessionId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        Objects.requireNonNull(sessionId, "sessionId cannot be null");
        try {
            if (find(appName, userId, sessionId).isPresent()) {
                threadline.tenant(appName).delete(sessionId);
            }
            return Completable.complete();
        } catch (dev.threadline.core.error.SessionNotFoundException e) {
            return Completable.complete();
        } catch (ThreadlineException e) {
            return Completable.error(new SessionException(e.getMessage(), e));
        }
    }

    /** Every event of the session, oldest first (none when the app has no such session for this user). */
    @Override
    public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
        Objects.requireNonNull(appName, "appName cannot be null");
        Objects.requireNonNull(userId, "userId cannot be null");
        Objects.requireNonNull(sessionId, "sessionId cannot be null");
        try {
            List<Event> events = find(appName, userId, sessionId)
                    .map(s -> AdkEvents.fromJournal(s.history().journal())).orElse(List.of());
            return Single.just(ListEventsResponse.builder().events(events).build());
        } catch (ThreadlineException e) {
            return Single.error(new SessionException(e.getMessage(), e));
        }
    }

    /**
     * Journals {@code event} as one step (partial events are returned unrecorded, as ADK's services do),
     * then applies its state delta (temp keys included) and the event to {@code session}, and sets its
     * last update time to the event's timestamp. Fails with {@link SessionNotFoundException} when the
     * session does not exist (any more).
     */
    @Override
    public Single<Event> appendEvent(Session session, Event event) {
        Objects.requireNonNull(session, "session cannot be null");
        Objects.requireNonNull(event, "event cannot be null");
        Objects.requireNonNull(session.appName(), "session.appName cannot be null");
        Objects.requireNonNull(session.userId(), "session.userId cannot be null");
        Objects.requireNonNull(session.id(), "session.id cannot be null");
        if (event.partial().orElse(false)) {
            return Single.just(event);
        }
        try {
            var stored = find(session.appName(), session.userId(), session.id()).orElseThrow(() ->
                    new SessionNotFoundException("app '" + session.appName() + "' has no session '" + session.id()
                            + "' of user '" + session.userId() + "'"));
            EventActions actions = event.actions();
            Map<String, Object> delta = actions == null ? null : actions.stateDelta();
            var events = StateDelta.events(delta, Map.of(SessionVars.EVENT, AdkEvents.toJournal(event)), true);
            stored.recordStep(s -> events);
        } catch (SessionException e) {
            return Single.error(e);
        } catch (ThreadlineException e) {
            return Single.error(new SessionException(e.getMessage(), e));
        }
        synchronized (session) {
            if (event.actions() != null && event.actions().stateDelta() != null) {
                event.actions().stateDelta().forEach((k, v) -> {
                    if (v == State.REMOVED) {
                        session.state().remove(k);
                    } else {
                        session.state().put(k, v);
                    }
                });
            }
            session.events().add(event);
            session.lastUpdateTime(Instant.ofEpochMilli(event.timestamp()));
        }
        return Single.just(event);
    }

    private Optional<dev.threadline.core.runtime.Session> find(String appName, String userId, String sessionId) {
        return threadline.tenant(appName).find(sessionId)
                .filter(s -> s.info().userId().equals(userId)
                        && SessionVars.ADAPTER.equals(s.info().metadata().get(SessionVars.ADAPTER_KEY)));
    }

    private static Session read(String appName, String userId, dev.threadline.core.runtime.Session session,
                                List<Event> events, Instant updated) {
        Map<String, JsonNode> vars = session.variables(VariableScope.SESSION);
        Map<String, JsonNode> user = session.variables(VariableScope.USER);
        Map<String, JsonNode> app = session.variables(VariableScope.APP);
        return Session.builder(session.id()).appName(appName).userId(userId)
                .state(new ConcurrentHashMap<>(StateDelta.adkState(vars, user, app)))
                .events(events).lastUpdateTime(updated).build();
    }
}
