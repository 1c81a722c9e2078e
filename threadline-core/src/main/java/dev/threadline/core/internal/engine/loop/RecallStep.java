package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.context.ContextRecall;
import dev.threadline.core.context.ContextView;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.state.RecalledMessage;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's half of a session's recall (ADR 0042): the query (the turn's latest user message, its
 * first {@value SearchHit#MAX_QUERY} characters), the search of the journal before the turn through the
 * store's {@code TextSearch}, and each hit's place in the transcript (a tool result by its call's id, a
 * message by equality, looked for below the view). {@link ContextRecall#choose} then picks what fits.
 * Reads only; thread-safe (stateless between calls).
 */
final class RecallStep {
    /** The most hits asked for and read: those inside the view are passed over. */
    private static final int HITS = 40;

    private final JournalReader journal;

    RecallStep(JournalReader journal) {
        this.journal = journal;
    }

    /** What the next model call recalls of the state's transcript, given its view without recall. */
    List<RecalledMessage> choose(SessionKey key, State state, ContextRecall setting, ContextView view, TokenCounter counter) {
        String query = query(state.messages());
        if (query == null || view.start() <= state.contextStart()) {
            return List.of(); // nothing to search for, or nothing older than the view
        }
        List<SearchHit> hits;
        try {
            hits = journal.search(key, journal.before(key, e -> e instanceof Event.UserMessageReceived), query, HITS);
        } catch (InvalidInputException e) {
            return List.of(); // a message without a word to search for
        }
        List<RecalledMessage> ranked = new ArrayList<>();
        for (SearchHit h : hits) {
            int at = place(key, state, view.start(), h.seq());
            if (at >= 0) {
                ranked.add(new RecalledMessage(h.seq(), at));
                if (ranked.size() >= 3 * setting.k()) {
                    break; // enough to choose k from, some over the budget
                }
            }
        }
        return setting.choose(state, view, ranked, counter);
    }

    /** The text of the latest user message (not a tool result), cut to the longest query; null when there is none. */
    static String query(List<Message> transcript) {
        for (int i = transcript.size() - 1; i >= 0; i--) {
            Message m = transcript.get(i);
            if (m.role() == Role.USER && !m.text().isBlank()) {
                String t = m.text().strip();
                return t.length() <= SearchHit.MAX_QUERY ? t : t.substring(0, SearchHit.MAX_QUERY);
            }
        }
        return null;
    }

    /** The transcript index of the message the event at {@code seq} holds, if it is below {@code viewStart}; else -1. */
    private int place(SessionKey key, State state, int viewStart, long seq) {
        List<StoredEvent> read = journal.read(key, seq, seq);
        if (read.isEmpty()) {
            return -1;
        }
        List<Message> transcript = state.messages();
        Message wanted;
        switch (read.get(0).event()) {
            case Event.ToolCallCompleted t -> {
                int call = state.toolUseIds().messageIndexOf(t.toolUseId());
                return call >= 0 && call < viewStart ? call : -1;
            }
            case Event.UserMessageReceived u -> wanted = u.message();
            case Event.AssistantMessageReceived a -> wanted = a.message();
            default -> {
                return -1;
            }
        }
        int top = Math.min(viewStart, transcript.size()) - 1;
        // a message's index is below its seq (the journal's first event holds none) unless an edit appended several at once
        for (int i = (int) Math.min(top, seq - 1); i >= state.contextStart(); i--) {
            if (transcript.get(i).equals(wanted)) {
                return i;
            }
        }
        for (int i = top; i >= seq && i >= state.contextStart(); i--) {
            if (transcript.get(i).equals(wanted)) {
                return i;
            }
        }
        return -1;
    }
}
