package dev.threadline.core.session;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The fixed description of a session (the container, not its content): who owns it, how it runs,
 * and, for a fork or a rewind branch, the checkpoint it branched from.
 *
 * @param parentId  the session this one branched from, or null
 * @param parentSeq the last journal seq shared with the parent (0 when there is no parent)
 * @param expiresAt when retention may remove it, or null for never
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionInfo(String id, String tenant, String userId, SessionConfig config, Map<String, String> metadata,
                          Instant createdAt, Instant expiresAt, String parentId, long parentSeq) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");
    /** The tenant of a runtime used by one tenant only ({@code Threadline.defaultTenant()}). */
    public static final String DEFAULT_TENANT = "default";

    public SessionInfo {
        checkId(id, "session.id");
        tenant = tenant == null || tenant.isBlank() ? DEFAULT_TENANT : tenant;
        checkId(tenant, "session.tenant");
        userId = userId == null || userId.isBlank() ? "local" : userId;
        Require.nonNull(config, "session.config");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        Require.nonNull(createdAt, "session.createdAt");
        if (parentId == null) {
            Require.argument(parentSeq == 0, "session.parentSeq", "must be 0 when there is no parent");
        } else {
            checkId(parentId, "session.parentId");
            Require.argument(parentSeq >= 1, "session.parentSeq", "must be at least 1 for a branch, was " + parentSeq);
        }
    }

    /** Refuses ids that are empty, too long, or hold characters outside {@code [A-Za-z0-9._:@-]}. */
    public static String checkId(String id, String field) {
        Require.nonNull(id, field);
        if (!ID.matcher(id).matches()) {
            throw new InvalidInputException(field, "'" + id + "' is not a valid id: use 1-128 characters of"
                    + " letters, digits and . _ : @ -, starting with a letter or digit");
        }
        return id;
    }

    /** The description of a new session {@code id} of the default tenant and user {@code local}. */
    public static SessionInfo create(String id, SessionConfig config, Instant now) {
        return new SessionInfo(id, DEFAULT_TENANT, "local", config, Map.of(), now, null, null, 0);
    }

    /**
     * The description of branch {@code newId} of this session at {@code atSeq} (a fork or a rewind), created {@code
     * now}.
     */
    public SessionInfo asBranch(String newId, long atSeq, Instant now) {
        return new SessionInfo(newId, tenant, userId, config, metadata, now, expiresAt, id, atSeq);
    }

    /** Whether this session is a branch (it has a parent). */
    @JsonIgnore // derived from parentId; a stored "branch" property could not be read back
    public boolean isBranch() {
        return parentId != null;
    }
}
