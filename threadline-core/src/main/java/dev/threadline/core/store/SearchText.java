package dev.threadline.core.store;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.SearchHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every {@link TextSearch} shares, so that all backends index the same text and cut the same
 * snippets: which events are documents and their text, the words of a text (runs of letters and
 * digits, lower-cased), the query's checks, the snippet, and the in-process ranking (Okapi BM25, k1
 * 1.2, b 0.75) of the default search. Stateless: safe from any thread.
 */
public final class SearchText {
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private SearchText() {}

    /**
     * The searchable part of a message event: its role and text.
     *
     * @param role who said it (a tool's result as {@link Role#USER}: it travels in a user turn)
     * @param text the text blocks and tool results, one per line
     */
    public record Document(Role role, String text) {}

    /**
     * The distinct words of {@code query}, in order, once the query and limit are checked.
     *
     * @throws InvalidInputException when the query is missing, empty, longer than {@link SearchHit#MAX_QUERY},
     *         has no word, or the limit is outside 1 to 100
     */
    public static Set<String> terms(String query, int limit) {
        if (query == null || query.length() > SearchHit.MAX_QUERY) {
            throw new InvalidInputException("query", query == null ? "is missing"
                    : "is " + query.length() + " characters; at most " + SearchHit.MAX_QUERY);
        }
        if (query.isBlank()) {
            throw new InvalidInputException("query", "is empty; give the words to search for");
        }
        if (limit < 1 || limit > 100) {
            throw new InvalidInputException("limit", "must be 1 to 100, was " + limit);
        }
        Set<String> words = new LinkedHashSet<>(words(query));
        if (words.isEmpty()) {
            throw new InvalidInputException("query", "has no word to search for (letters or digits)");
        }
        return words;
    }

    /** The document of a message event (user, assistant text, a tool's result) with some text, else empty. */
    public static Optional<Document> document(StoredEvent e) {
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
                role = Role.USER;
                text = t.content();
            }
            default -> {
                return Optional.empty();
            }
        }
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(new Document(role, text));
    }

    /** The words of {@code text}: runs of letters and digits, lower-cased (ROOT locale), in order. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** Up to {@link SearchHit#SNIPPET} characters of {@code text} around the first of {@code terms} in it, "…" where cut. */
    public static String snippet(String text, Set<String> terms) {
        String flat = text.replaceAll("\\s+", " ").strip();
        if (flat.length() <= SearchHit.SNIPPET) {
            return flat;
        }
        int at = 0;
        Matcher m = WORD.matcher(flat);
        while (m.find()) {
            if (terms.contains(m.group().toLowerCase(Locale.ROOT))) {
                at = m.start();
                break;
            }
        }
        int from = Math.max(0, Math.min(at - SearchHit.SNIPPET / 3, flat.length() - (SearchHit.SNIPPET - 2)));
        int to = Math.min(flat.length(), from + SearchHit.SNIPPET - 2);
        return (from > 0 ? "…" : "") + flat.substring(from, to) + (to < flat.length() ? "…" : "");
    }

    private record Doc(StoredEvent at, Document doc, Map<String, Integer> terms, int length) {}

    /**
     * The hits of {@code query} among {@code events}' documents, ranked by BM25 over them, best first
     * (ties by seq), at most {@code limit}: the default {@link TextSearch#search}, and the engine's
     * when it ranks a journal it has already read.
     *
     * @throws InvalidInputException as {@link #terms} does
     */
    public static List<SearchHit> rank(List<StoredEvent> events, String query, int limit) {
        Set<String> words = terms(query, limit);
        List<Doc> docs = new ArrayList<>();
        long total = 0;
        for (StoredEvent e : events) {
            Optional<Document> d = document(e);
            if (d.isPresent()) {
                Map<String, Integer> terms = new HashMap<>();
                List<String> ws = words(d.get().text());
                ws.forEach(w -> terms.merge(w, 1, Integer::sum));
                docs.add(new Doc(e, d.get(), terms, ws.size()));
                total += ws.size();
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
                hits.add(new SearchHit(d.at().sessionId(), d.at().seq(), d.doc().role(), d.at().time(),
                        snippet(d.doc().text(), words), score));
            }
        }
        hits.sort(Comparator.comparingDouble(SearchHit::score).reversed().thenComparingLong(SearchHit::seq));
        return List.copyOf(hits.subList(0, Math.min(limit, hits.size())));
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
}
