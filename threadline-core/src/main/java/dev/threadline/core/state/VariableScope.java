package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where a variable lives. {@link #SESSION} (the default) is journalled with the session and forks with
 * it; {@link #USER} is shared by all sessions of one user; {@link #APP} by every session; {@link #TEMP}
 * lives only for the current turn and is never persisted.
 */
public enum VariableScope {
    /** The session's own variables, journalled with it. */
    SESSION,
    /** Shared by every session of one user of the tenant. */
    USER,
    /** Shared by every session of the tenant. */
    APP,
    /** Only for the current turn; never persisted. */
    TEMP;

    /** The stored form: the name in lower case. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The scope {@code name} names, ignoring case.
     *
     * @throws dev.threadline.core.error.InvalidInputException when it names no scope
     */
    public static VariableScope parse(String name) {
        for (VariableScope s : values()) {
            if (s.wireName().equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new dev.threadline.core.error.InvalidInputException("scope",
                "'" + name + "' is not a variable scope; use session, user, app or temp");
    }
}
