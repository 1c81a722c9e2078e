package dev.threadline.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import java.util.function.Function;

/** The JSON shapes the API answers with. Stateless. */
final class Views {
    /** The version of the export line shape (that of {@code threadline sessions export}). */
    static final int EXPORT_VERSION = 2;

    private Views() {}

    static ObjectNode session(SessionInfo info) {
        ObjectNode o = (ObjectNode) Json.tree(info);
        o.remove("tenant");
        return o;
    }

    static ObjectNode summary(SessionSummary s) {
        ObjectNode o = session(s.info());
        o.put("headSeq", s.headSeq());
        o.put("updatedAt", s.updatedAt().toString());
        return o;
    }

    static ObjectNode state(String sessionId, State state) {
        ObjectNode o = Json.object();
        o.put("sessionId", sessionId);
        o.setAll((ObjectNode) Json.tree(state));
        return o;
    }

    static ObjectNode checkpoint(Checkpoint c) {
        return (ObjectNode) Json.tree(c);
    }

    /** One journal event as a line of an export, and as the data of an SSE event. */
    static ObjectNode event(StoredEvent e) {
        ObjectNode o = Json.object();
        o.put("v", EXPORT_VERSION);
        o.put("session", e.sessionId());
        o.put("seq", e.seq());
        o.put("step", e.step());
        o.put("time", e.time().toString());
        o.put("command", e.commandId());
        o.put("source", e.source().wireName());
        o.set("event", Json.tree(e.event()));
        return o;
    }

    static <T> ObjectNode page(Page<T> page, Function<T, ObjectNode> view) {
        ObjectNode o = Json.object();
        var items = o.putArray("items");
        page.items().forEach(i -> items.add(view.apply(i)));
        if (page.nextCursor() != null) {
            o.put("nextCursor", page.nextCursor());
        } else {
            o.putNull("nextCursor");
        }
        return o;
    }
}
