package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.DataLifecycle;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SharedVariables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What erasure reads, and changes nothing by: which sessions and users an erasure (or the replay of an
 * earlier one's receipt) removes, whether a subject has anything in the store, and where a subject or a
 * text is still found. Stateless; thread-safe.
 */
final class ErasureReads {
    /**
     * What one erasure removes.
     *
     * @param tenant      the tenant
     * @param kind        the kind of subject, as the receipt records it
     * @param subjectHash the subject's hashed id, as the receipt records it
     * @param subject     the subject as found, for hold checks and messages; null when a replay found only sessions
     * @param sessions    the sessions to delete, each after all its branches
     * @param users       whose user-scope variables go
     */
    record Plan(String tenant, DataSubject.Kind kind, String subjectHash, DataSubject subject,
                Map<SessionKey, SessionInfo> sessions, Set<String> users) {
        String describe() {
            return subject != null ? subject.toString() : "sessions of tenant '" + tenant + "' (a " + kind.name().toLowerCase() + ")";
        }
    }

    private final SessionIndex index;
    private final Journal journal;
    private final SharedVariables shared;
    private final dev.threadline.core.store.HistoryPruning bases;

    ErasureReads(SessionIndex index, Journal journal, SharedVariables shared, dev.threadline.core.store.HistoryPruning bases) {
        this.index = index;
        this.journal = journal;
        this.shared = shared;
        this.bases = bases;
    }

    /** What erasing {@code subject} removes. */
    Plan plan(DataSubject subject) {
        Map<SessionKey, SessionInfo> doomed = doomed(subject);
        Set<String> users = new LinkedHashSet<>();
        if (subject.kind() == DataSubject.Kind.USER) {
            users.add(subject.id());
        } else if (subject.kind() == DataSubject.Kind.TENANT) {
            doomed.values().forEach(i -> users.add(i.userId()));
        }
        return new Plan(subject.tenant(), subject.kind(), DataLifecycle.hash(subject.tenant(), subject.id()), subject, doomed, users);
    }

    /**
     * What applying {@code earlier} again removes: the tenant (if anything of it is there); or the user
     * whose id hashes to its subject hash, with their sessions; the session whose id does; and every
     * session whose id hashes to one of its session hashes, with its branches. Empty when none is there.
     */
    Optional<Plan> replayPlan(ErasureReceipt earlier) {
        String tenant = earlier.tenant();
        if (earlier.kind() == DataSubject.Kind.TENANT) {
            DataSubject t = DataSubject.tenant(tenant);
            return holdsDataOf(t) ? Optional.of(plan(t)) : Optional.empty();
        }
        Set<String> hashes = new HashSet<>(earlier.sessionHashes());
        if (earlier.kind() == DataSubject.Kind.SESSION) {
            hashes.add(earlier.subjectHash());
        }
        List<SessionKey> roots = new ArrayList<>();
        DataSubject user = null;
        for (SessionSummary s : sessions(tenant, null)) {
            SessionInfo info = s.info();
            boolean theUser = earlier.kind() == DataSubject.Kind.USER
                    && DataLifecycle.hash(tenant, info.userId()).equals(earlier.subjectHash());
            if (theUser) {
                user = DataSubject.user(tenant, info.userId());
            }
            if (theUser || hashes.contains(DataLifecycle.hash(tenant, info.id()))) {
                roots.add(SessionKey.of(info));
            }
        }
        if (roots.isEmpty()) {
            return Optional.empty();
        }
        Map<SessionKey, SessionInfo> doomed = new LinkedHashMap<>();
        roots.forEach(r -> collect(r, doomed));
        Set<String> users = user == null ? Set.of() : Set.of(user.id());
        DataSubject subject = user != null ? user : earlier.kind() == DataSubject.Kind.SESSION ? doomed.values().stream()
                .filter(i -> DataLifecycle.hash(tenant, i.id()).equals(earlier.subjectHash()))
                .map(i -> DataSubject.session(tenant, i.id())).findFirst().orElse(null) : null;
        return Optional.of(new Plan(tenant, earlier.kind(), earlier.subjectHash(), subject, doomed, users));
    }

    /** Every session of {@code tenant} (of {@code user} only, unless null), page by page through the store's listing. */
    private List<SessionSummary> sessions(String tenant, String user) {
        List<SessionSummary> out = new ArrayList<>();
        String cursor = null;
        do {
            Page<SessionSummary> page = index.list(new SessionQuery(tenant, user, null, SessionQuery.MAX_LIMIT, cursor));
            out.addAll(page.items());
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    /** See {@code DataLifecycle.holdsDataOf}. */
    boolean holdsDataOf(DataSubject subject) {
        Require.nonNull(subject, "subject");
        String tenant = subject.tenant();
        return switch (subject.kind()) {
            case SESSION -> index.session(new SessionKey(tenant, subject.id())).isPresent();
            case USER -> !index.list(new SessionQuery(tenant, subject.id(), null, 1, null)).items().isEmpty()
                    || !shared.variables(VariableScope.USER, ScopedWrite.userKey(tenant, subject.id())).isEmpty();
            case TENANT -> !index.list(new SessionQuery(tenant, null, null, 1, null)).items().isEmpty()
                    || !shared.variables(VariableScope.APP, ScopedWrite.appKey(tenant)).isEmpty();
        };
    }

    /** See {@code DataLifecycle.verify}. */
    List<String> verify(DataSubject subject, String text) {
        Require.nonNull(subject, "subject");
        if (text != null && text.isBlank()) {
            throw new InvalidInputException("text", "must not be blank: give the text to look for, or none");
        }
        String tenant = subject.tenant();
        List<String> hits = new ArrayList<>();
        if (subject.kind() == DataSubject.Kind.SESSION && index.session(new SessionKey(tenant, subject.id())).isPresent()) {
            hits.add("session '" + subject.id() + "' exists");
        }
        Set<String> users = new TreeSet<>();
        if (subject.kind() == DataSubject.Kind.USER) {
            users.add(subject.id());
        }
        String quoted = text == null ? null : Json.write(text);
        String escaped = quoted == null ? null : quoted.substring(1, quoted.length() - 1); // the text as stored JSON spells it
        for (SessionSummary s : sessions(tenant, null)) {
            SessionInfo info = s.info();
            users.add(info.userId());
            if (subject.kind() == DataSubject.Kind.USER && info.userId().equals(subject.id())) {
                hits.add("session '" + info.id() + "' of user '" + subject.id() + "' exists");
            }
            if (text != null) {
                if (has(Json.write(info), text, escaped)) {
                    hits.add("session '" + info.id() + "': the text is in its description");
                }
                SessionKey key = SessionKey.of(info);
                Optional<dev.threadline.core.store.HistoryBase> base = bases.historyBase(key);
                if (base.isPresent() && has(Json.write(base.get()), text, escaped)) { // what pruning folded away
                    hits.add("session '" + info.id() + "': the text is in its history base (pruned through seq " + base.get().seq() + ")");
                }
                for (var e : journal.readOwn(key, 1, journal.head(key))) {
                    if (has(Json.write(e.event()), text, escaped)) {
                        hits.add("session '" + info.id() + "' seq " + e.seq() + ": the text is in its " + e.event().getClass().getSimpleName());
                    }
                }
            }
        }
        for (String user : users) {
            Map<String, JsonNode> vars = shared.variables(VariableScope.USER, ScopedWrite.userKey(tenant, user));
            if (subject.kind() == DataSubject.Kind.USER && user.equals(subject.id()) && !vars.isEmpty()) {
                hits.add("user '" + user + "' has " + vars.size() + " user-scope variable(s)");
            } else if (text != null && has(Json.write(vars), text, escaped)) {
                hits.add("the user-scope variables of user '" + user + "' hold the text");
            }
        }
        if (text != null && has(Json.write(shared.variables(VariableScope.APP, ScopedWrite.appKey(tenant))), text, escaped)) {
            hits.add("the app variables of tenant '" + tenant + "' hold the text");
        }
        return hits;
    }

    private static boolean has(String json, String text, String escaped) {
        return json.contains(text) || json.contains(escaped);
    }

    /** Which sessions an erasure of {@code subject} removes, each after all its branches (depth first, post-order). */
    private Map<SessionKey, SessionInfo> doomed(DataSubject subject) {
        List<SessionKey> roots = new ArrayList<>();
        if (subject.kind() == DataSubject.Kind.SESSION) {
            SessionKey key = new SessionKey(subject.tenant(), subject.id());
            if (index.session(key).isEmpty()) {
                throw new SessionNotFoundException(subject.id());
            }
            roots.add(key);
        } else {
            String user = subject.kind() == DataSubject.Kind.USER ? subject.id() : null;
            sessions(subject.tenant(), user).forEach(s -> roots.add(SessionKey.of(s.info())));
        }
        Map<SessionKey, SessionInfo> out = new LinkedHashMap<>();
        for (SessionKey root : roots) {
            collect(root, out);
        }
        return out;
    }

    private void collect(SessionKey key, Map<SessionKey, SessionInfo> out) {
        collect(key, out, new HashSet<>());
    }

    private void collect(SessionKey key, Map<SessionKey, SessionInfo> out, Set<SessionKey> seen) {
        if (out.containsKey(key) || !seen.add(key)) {
            return;
        }
        Optional<SessionInfo> info = index.session(key);
        if (info.isEmpty()) {
            return; // deleted meanwhile
        }
        try {
            for (String child : index.branches(key)) {
                collect(key.sibling(child), out, seen);
            }
        } catch (SessionNotFoundException gone) {
            return; // deleted meanwhile, with its branches before it
        }
        out.put(key, info.get());
    }
}
