package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The journal as a ledger of side effects: the side_effect calls started after a seq. A pure read. Stateless. */
public final class SideEffects {
    private SideEffects() {}

    /** The side effects the session's journal records after {@code seq}, oldest first. */
    public static List<SideEffect> after(JournalReader store, SessionKey key, long seq) {
        long head = store.head(key);
        if (seq >= head) {
            return List.of();
        }
        Map<String, Started> started = new LinkedHashMap<>();
        Map<String, String> outcomes = new LinkedHashMap<>();
        for (StoredEvent e : store.read(key, seq + 1, head)) {
            if (e.event() instanceof Event.ToolCallStarted s && s.effect() == Effect.SIDE_EFFECT) {
                started.put(s.toolUseId(), new Started(e.seq(), s));
            } else if (e.event() instanceof Event.EffectCompensated c && started.containsKey(c.toolUseId())) {
                if (c.error()) {
                    outcomes.merge(c.toolUseId(), "; compensation failed: " + c.outcome(), String::concat);
                } else {
                    started.remove(c.toolUseId()); // undone: no longer an effect going back would leave
                }
            } else if (e.event() instanceof Event.ToolCallEnded end && started.containsKey(end.toolUseId())) {
                String content = end.resultContent();
                outcomes.put(end.toolUseId(), (end.isError() ? "" : "ok: ") + (content.length() > 80 ? content.substring(0, 79) + "…" : content));
            }
        }
        List<SideEffect> out = new ArrayList<>(started.size());
        for (Started e : started.values()) {
            Event.ToolCallStarted s = e.call();
            out.add(new SideEffect(s.toolUseId(), s.name(), e.seq(), outcomes.getOrDefault(s.toolUseId(), "no result recorded")));
        }
        return out;
    }

    /** A side-effecting call and the seq of its start. */
    private record Started(long seq, Event.ToolCallStarted call) {}
}
