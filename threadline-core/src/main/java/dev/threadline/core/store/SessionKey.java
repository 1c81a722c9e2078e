package dev.threadline.core.store;

import dev.threadline.core.session.SessionInfo;

/**
 * Names one session in a store: session ids are unique within a tenant, not across tenants, so every
 * store operation on a session takes its tenant and id together. Immutable.
 *
 * @param tenant the tenant that owns the session
 * @param id     the session's id within that tenant
 */
public record SessionKey(String tenant, String id) {
    /**
     * @throws dev.threadline.core.error.InvalidInputException when either part is not a valid id
     */
    public SessionKey {
        SessionInfo.checkId(tenant, "tenant");
        SessionInfo.checkId(id, "session id");
    }

    /** The key of {@code info}. */
    public static SessionKey of(SessionInfo info) {
        return new SessionKey(info.tenant(), info.id());
    }

    /** The key of a session of the same tenant. */
    public SessionKey sibling(String otherId) {
        return new SessionKey(tenant, otherId);
    }

    @Override
    public String toString() {
        return tenant + "/" + id;
    }
}
