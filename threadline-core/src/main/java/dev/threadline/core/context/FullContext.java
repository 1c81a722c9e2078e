package dev.threadline.core.context;

import dev.threadline.core.model.Message;
import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.State;
import java.util.ArrayList;
import java.util.List;

/** The {@code full} policy: the whole context since the last clear; a compaction summary stands in for what it covers. */
final class FullContext implements ContextPolicy {
    static final FullContext INSTANCE = new FullContext();

    private FullContext() {}

    @Override
    public String name() {
        return "full";
    }

    @Override
    public List<Message> view(State state) {
        List<Message> all = state.messages();
        Compaction c = state.compaction();
        if (c == null || c.boundary() <= state.contextStart()) {
            return all.subList(state.contextStart(), all.size());
        }
        List<Message> out = new ArrayList<>(all.size() - c.boundary() + 1);
        out.add(Message.user("Summary of the earlier conversation:\n" + c.summary()));
        out.addAll(all.subList(c.boundary(), all.size()));
        return out;
    }
}
