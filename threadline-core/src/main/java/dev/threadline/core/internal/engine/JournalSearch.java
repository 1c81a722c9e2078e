package dev.threadline.core.internal.engine;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.runtime.History;
import dev.threadline.core.runtime.SearchHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link History#search} over a journal already read: each message event (user, assistant text, a
 * tool's result) is a document; documents are ranked by Okapi BM25 (k1 1.2, b 0.75) for the query's
 * distinct words. In process, linear in the journal: a first step before per-backend indexes (issue 38).
 * Stateless.
 */
final class JournalSearch {
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private JournalSearch() {}

    private record Doc(StoredEvent at, Role role, String text, Map<String, Integer> terms, int length) {}

    static List<SearchHit> search(List<StoredEvent> journal, String query, int limit) {
        if (query == null || query.length() > History.MAX_QUERY) {
            throw new InvalidInputException("query", query == null ? "is missing"
                    : "is " + query.length() + " characters; at most " + History.MAX_QUERY);
        }
        if (limit < 1 || limit > 100) {
            throw new InvalidInputException("limit", "must be 1 to 100, was " + limit);
        }
        Set<String> words = new LinkedHashSet<>(words(query));
        if (words.isEmpty()) {
            throw new InvalidInputException("query", "has no word to search for (letters or digits)");
        }
        List<Doc> docs = new ArrayList<>();
        long total = 0;
        for (StoredEvent e : journal) {
            Doc d = doc(e);
            if (d != null) {
                docs.add(d);
                total += d.length();
            }
        }
        if (docs.isEmpty()) {
            return List.of();
        }
        double avg = Math.max(1.0, (double) total / docs.size());
        Map<String, Integer> df = new HashMap<>();
        for (Doc d : docs) {
            for (String w : words) {
                if (d.terms().containsKey(w)) {
                    df.merge(w, 1, Integer::sum);
                }
            }
        }
        List<SearchHit> hits = new ArrayList<>();
        for (Doc d : docs) {
            double score = 0;
            for (String w : words) {
                Integer tf = d.terms().get(w);
                if (tf != null) {
                    double idf = Math.log(1 + (docs.size() - df.get(w) + 0.5) / (df.get(w) + 0.5));
                    score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * d.length() / avg));
                }
            }
            if (score > 0) {
                hits.add(new SearchHit(d.at().sessionId(), d.at().seq(), d.role(), d.at().time(), snippet(d.text(), words), score));
            }
        }
        hits.sort(Comparator.comparingDouble(SearchHit::score).reversed().thenComparingLong(SearchHit::seq));
        return List.copyOf(hits.subList(0, Math.min(limit, hits.size())));
    }

    /** The searchable text of a message event, or null for another event. */
    private static Doc doc(StoredEvent e) {
        Role role;
        String text;
        switch (e.event()) {
            case Event.UserMessageReceived u -> {
                role = Role.USER;
                text = text(u.message());
            }
            case Event.AssistantMessageReceived a -> {
                role = Role.ASSISTANT;
                text = text(a.message());
            }
            case Event.ToolCallCompleted t -> {
                role = Role.USER; // a tool's result travels in a user turn
                text = t.content();
            }
            default -> {
                return null;
            }
        }
        if (text.isBlank()) {
            return null;
        }
        Map<String, Integer> terms = new HashMap<>();
        List<String> ws = words(text);
        ws.forEach(w -> terms.merge(w, 1, Integer::sum));
        return new Doc(e, role, text, terms, ws.size());
    }

    private static String text(Message m) {
        StringBuilder sb = new StringBuilder();
        for (ContentBlock b : m.content()) {
            String t = switch (b) {
                case ContentBlock.Text x -> x.text();
                case ContentBlock.ToolResult r -> r.content();
                default -> null;
            };
            if (t != null && !t.isBlank()) {
                sb.append(sb.isEmpty() ? "" : "\n").append(t);
            }
        }
        return sb.toString();
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** Up to {@link SearchHit#SNIPPET} characters around the first query word found. */
    private static String snippet(String text, Set<String> words) {
        String flat = text.replaceAll("\\s+", " ").strip();
        if (flat.length() <= SearchHit.SNIPPET) {
            return flat;
        }
        int at = 0;
        Matcher m = WORD.matcher(flat);
        while (m.find()) {
            if (words.contains(m.group().toLowerCase(Locale.ROOT))) {
                at = m.start();
                break;
            }
        }
        int from = Math.max(0, Math.min(at - SearchHit.SNIPPET / 3, flat.length() - (SearchHit.SNIPPET - 2)));
        int to = Math.min(flat.length(), from + SearchHit.SNIPPET - 2);
        return (from > 0 ? "…" : "") + flat.substring(from, to) + (to < flat.length() ? "…" : "");
    }
}
