package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import dev.threadline.core.session.SessionInfo;

/**
 * Whose data a legal hold or an erasure is about: a whole tenant, one user of a tenant, or one session
 * (with its branches). Immutable.
 *
 * @param tenant the tenant
 * @param kind   what the subject is
 * @param id     the user id or session id; the tenant id again for {@link Kind#TENANT}
 */
public record DataSubject(String tenant, Kind kind, String id) {

    /** What a subject is. */
    public enum Kind {
        /** Every session of a tenant, its users' and app variables. */
        TENANT,
        /** Every session of one user of a tenant (with their branches) and the user's variables. */
        USER,
        /** One session with its branches. */
        SESSION
    }

    /** @throws dev.threadline.core.error.InvalidInputException when the tenant or id is invalid */
    public DataSubject {
        SessionInfo.checkId(tenant, "tenant");
        Require.nonNull(kind, "kind");
        if (kind == Kind.TENANT) {
            id = tenant;
        } else if (kind == Kind.SESSION) {
            SessionInfo.checkId(id, "session");
        } else {
            Require.nonBlank(id, "user");
        }
    }

    /** A whole tenant. */
    public static DataSubject tenant(String tenant) {
        return new DataSubject(tenant, Kind.TENANT, tenant);
    }

    /** One user of a tenant. */
    public static DataSubject user(String tenant, String userId) {
        return new DataSubject(tenant, Kind.USER, userId);
    }

    /** One session of a tenant (with its branches). */
    public static DataSubject session(String tenant, String sessionId) {
        return new DataSubject(tenant, Kind.SESSION, sessionId);
    }

    /** The subject as a person reads it: {@code tenant 'acme'}, {@code user 'u1' of tenant 'acme'}, ... */
    @Override
    public String toString() {
        return switch (kind) {
            case TENANT -> "tenant '" + tenant + "'";
            case USER -> "user '" + id + "' of tenant '" + tenant + "'";
            case SESSION -> "session '" + id + "' of tenant '" + tenant + "'";
        };
    }
}
