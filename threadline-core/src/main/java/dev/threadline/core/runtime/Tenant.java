package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import java.util.Map;
import java.util.Optional;

/**
 * One tenant's view of a runtime: every session operation goes through one. Session ids are unique
 * within a tenant; another tenant's session behaves exactly like one that does not exist (the same
 * exception, the same message). Obtained from {@link Threadline#tenant}. Thread-safe; cheap to obtain.
 */
public interface Tenant {

    /** The tenant's id. */
    String id();

    /**
     * Creates a session.
     *
     * @throws dev.threadline.core.error.SessionExistsException when this tenant already has a session with that id
     * @throws dev.threadline.core.error.InvalidInputException  when the id or config is invalid (nothing is created)
     */
    Session create(NewSession session);

    /**
     * A view of this tenant whose creates carry {@code options}: with a command id, repeating a create
     * returns the session the first one created (it is refused with a
     * {@link dev.threadline.core.error.SessionExistsException} when the id is taken by another command's
     * session, and with a {@link dev.threadline.core.error.CommandConflictException} when the command id was
     * used for a different session). Only creates read them: the sessions the view returns carry no options.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code options} is null
     */
    Tenant with(CommandOptions options);

    /** Creates a session with this id and config for the runtime's default user. */
    default Session create(String id, SessionConfig config) {
        return create(NewSession.of(id, config));
    }

    /** Creates a session with a generated id. */
    default Session create(SessionConfig config) {
        return create(NewSession.of(null, config));
    }

    /**
     * Opens an existing session of this tenant.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when this tenant has no session with that id
     */
    Session open(String id);

    /** The session, or empty when this tenant has none with that id. */
    Optional<Session> find(String id);

    /**
     * Opens the session, creating it with {@code config} when it does not exist; atomic: when two callers
     * race to create it, both get the one session.
     */
    Session openOrCreate(String id, SessionConfig config);

    /** One page of this tenant's sessions, most recently updated first. */
    Page<SessionSummary> sessions(SessionFilter filter);

    /** The first page (up to 100) of this tenant's sessions. */
    default Page<SessionSummary> sessions() {
        return sessions(SessionFilter.FIRST_PAGE);
    }

    /**
     * Deletes a session and its journal.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when this tenant has no session with that id
     * @throws dev.threadline.core.error.InvalidInputException    while branches depend on it
     */
    void delete(String id);

    /** This tenant's app-scoped variables. */
    Map<String, JsonNode> appVariables();

    /** A user's variables in this tenant. */
    Map<String, JsonNode> userVariables(String userId);

    /**
     * Calls {@code listener} with every step committed by this runtime to this tenant's sessions, after
     * it is durable, in commit order per session, on a delivery thread (see {@link EventListener}). Steps
     * written by other processes are seen through {@link History#awaitEvents}.
     */
    void addListener(EventListener listener);

    /** Stops calling {@code listener}. */
    void removeListener(EventListener listener);
}
