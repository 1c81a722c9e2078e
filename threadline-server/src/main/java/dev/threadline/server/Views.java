package dev.threadline.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.export.ExportLines;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import java.util.function.Function;

/** The JSON shapes the API answers with. Stateless. */
final class Views {

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

    /** One journal event as a line of an export, and as the data of an SSE event: the CLI's export line ({@link ExportLines}). */
    static ObjectNode event(StoredEvent e) {
        return ExportLines.of(e);
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
