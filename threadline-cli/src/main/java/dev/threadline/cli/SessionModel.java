package dev.threadline.cli;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;

/**
 * Which model a chat's session runs on, said in one line. A new session runs on the model the chat
 * chose; an existing one on its own (the one it was created with, or its latest model edit) unless
 * {@code --model} names another (or {@code --base-url} another API root for it): then the chat
 * journals that change as a {@code StateEdited} step ({@link Edit.SetModel}) and says so, so a rewind
 * before it goes back to the old model.
 */
final class SessionModel {
    /** The author of the model edits {@code threadline chat} records. */
    static final String AUTHOR = "threadline chat";

    private SessionModel() {}

    /**
     * Applies {@code asked}'s model and base URL to the existing {@code session} when {@code chosen} (the
     * user named a model) and they differ from what it runs on, then prints the line that says which
     * model applies. Without a base URL, the same model keeps the session's own; another model gets the
     * environment's or the provider's default.
     */
    static void apply(Session session, SessionConfig asked, boolean chosen, PrintWriter out) {
        SessionConfig now = session.config();
        SessionConfig wanted = asked.baseUrl() != null || !asked.model().equals(now.model()) ? asked
                : asked.withModel(asked.model(), now.baseUrl());
        if (chosen && !(now.model().equals(wanted.model()) && Objects.equals(now.baseUrl(), wanted.baseUrl()))) {
            session.edit(AUTHOR, "--model " + wanted.model() + (wanted.baseUrl() == null ? "" : " --base-url " + wanted.baseUrl()),
                    List.of(Edit.setModel(wanted.model(), wanted.baseUrl())));
            out.println("model: " + describe(wanted) + " - session " + session.id() + " now uses it (was " + describe(now)
                    + "; a /rewind before this change goes back to it)");
            return;
        }
        if (!chosen) {
            out.println("model: " + describe(now) + " - this session's model (--model SPEC [--base-url URL] changes it)");
        } else {
            out.println("model: " + describe(now));
        }
    }

    /**
     * Throws {@code noKey} (the chosen model needs a key at its default base URL) unless {@code existing} runs on
     * that model at a base URL of its own, where it needs none. Does nothing when {@code noKey} is null.
     */
    static void requireKey(ThreadlineException noKey, Session existing, SessionConfig chosen) {
        if (noKey == null) {
            return;
        }
        SessionConfig has = existing == null ? null : existing.config();
        if (has == null || !has.model().equals(chosen.model()) || has.baseUrl() == null) {
            throw noKey;
        }
    }

    /** A model spec and, when the session keeps one, its base URL. */
    static String describe(SessionConfig config) {
        return config.model() + (config.baseUrl() == null ? "" : " at " + config.baseUrl());
    }
}
