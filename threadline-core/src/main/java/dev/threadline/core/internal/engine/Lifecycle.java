package dev.threadline.core.internal.engine;

import dev.threadline.core.fault.CrashPoint;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LegalHoldException;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.DataLifecycle;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.ErasureReceipt;
import dev.threadline.core.runtime.LegalHold;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SharedVariables;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Legal holds and erasure ({@link DataLifecycle}). Holds and receipts are the app variables of the
 * reserved tenant, read straight from the store's shared variables (so every node sees a change at
 * once) and written by edits of its one session (so each change is a journalled step with its author,
 * serialised across nodes by that session's lease). Thread-safe (stateless between calls).
 */
public final class Lifecycle implements DataLifecycle {
    /** The reserved tenant's session whose edits write holds and receipts. */
    static final String SESSION = "data-lifecycle";
    private static final String HOLD = "hold:";
    private static final String RECEIPT = "receipt:";

    private final Function<String, Tenant> tenants;
    private final Sessions sessions;
    private final CommandGate gate;
    private final SharedVariables shared;
    private final Supplier<String> scrub;
    private final Clock clock;
    private final ErasureReads reads;
    private final Pruning pruning;

    /**
     * Tenants are views of {@code tenants}; sessions are deleted by {@code sessions} through the {@code gate};
     * the store's roles are read for what an erasure finds (pruned sessions' bases too), and {@code scrub} is the store's last step of one; {@code pruning}
     * makes what prunes histories, given the holds.
     */
    public Lifecycle(Function<String, Tenant> tenants, Sessions sessions, CommandGate gate, SessionIndex index, Journal journal,
                     SharedVariables shared, dev.threadline.core.store.HistoryPruning bases, Supplier<String> scrub, Clock clock,
                     Function<Supplier<List<LegalHold>>, Pruning> pruning) {
        this.pruning = pruning.apply(this::allHolds);
        this.tenants = tenants;
        this.sessions = sessions;
        this.gate = gate;
        this.shared = shared;
        this.scrub = scrub;
        this.clock = clock;
        this.reads = new ErasureReads(index, journal, shared, bases);
    }

    @Override
    public LegalHold placeHold(DataSubject subject, String reason, String actor) {
        notReserved(subject);
        Require.nonBlank(reason, "reason");
        Require.nonBlank(actor, "actor");
        Optional<LegalHold> existing = find(subject);
        if (existing.isPresent()) {
            return existing.get();
        }
        LegalHold hold = new LegalHold(subject, reason, clock.instant(), actor);
        records().edit(actor, "place a legal hold on " + subject + ": " + reason,
                List.of(new Edit.SetVariable(VariableScope.APP, holdName(subject), holdJson(hold))));
        return hold;
    }

    @Override
    public boolean liftHold(DataSubject subject, String actor) {
        Require.nonNull(subject, "subject");
        Require.nonBlank(actor, "actor");
        if (find(subject).isEmpty()) {
            return false;
        }
        records().edit(actor, "lift the legal hold on " + subject, List.of(new Edit.RemoveVariable(VariableScope.APP, holdName(subject))));
        return true;
    }

    @Override
    public List<LegalHold> holds(String tenant) {
        SessionInfo.checkId(tenant, "tenant");
        return allHolds().stream().filter(h -> h.subject().tenant().equals(tenant)).toList();
    }

    /** Every hold in place, of every tenant, oldest first: what retention reads once per pass. */
    public List<LegalHold> allHolds() {
        List<LegalHold> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : recordVariables().entrySet()) {
            if (e.getKey().startsWith(HOLD)) {
                out.add(hold(e.getValue()));
            }
        }
        out.sort(Comparator.comparing(LegalHold::placedAt).thenComparing(h -> h.subject().toString()));
        return out;
    }

    @Override
    public List<ErasureReceipt> receipts(String tenant) {
        SessionInfo.checkId(tenant, "tenant");
        List<ErasureReceipt> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : recordVariables().entrySet()) {
            if (e.getKey().startsWith(RECEIPT) && tenant.equals(e.getValue().path("tenant").asText())) {
                out.add(Json.convert(e.getValue(), ErasureReceipt.class));
            }
        }
        out.sort(Comparator.comparing(ErasureReceipt::at).thenComparing(ErasureReceipt::id));
        return out;
    }

    @Override
    public ErasureReceipt erase(DataSubject subject, String actor) {
        notReserved(subject);
        Require.nonBlank(actor, "actor");
        Optional<ErasureReceipt> earlier = unfinished(subject);
        if (earlier.isPresent() && !reads.holdsDataOf(subject)) {
            return finish(earlier.get(), subject, actor); // it removed everything, then stopped before its receipt
        }
        return run(reads.plan(subject), actor, earlier.orElse(null));
    }

    @Override
    public Optional<ErasureReceipt> unfinished(DataSubject subject) {
        Require.nonNull(subject, "subject");
        String hash = DataLifecycle.hash(subject.tenant(), subject.id());
        return receipts(subject.tenant()).stream().filter(r -> !r.complete() && r.kind() == subject.kind()
                && r.subjectHash().equals(hash)).reduce((first, second) -> second);
    }

    @Override
    public Optional<ErasureReceipt> replay(ErasureReceipt earlier, String actor) {
        Require.nonNull(earlier, "earlier");
        notReserved(DataSubject.tenant(earlier.tenant()));
        Require.nonBlank(actor, "actor");
        if (recordVariables().get(RECEIPT + earlier.id()) == null) {
            records().edit(actor, "erasure " + earlier.id() + " kept again, to be applied again",
                    List.of(new Edit.SetVariable(VariableScope.APP, RECEIPT + earlier.id(), Json.tree(earlier))));
        }
        return reads.replayPlan(earlier).map(plan -> run(plan, actor, null));
    }

    @Override
    public dev.threadline.core.runtime.PruneResult prune(String tenant, String sessionId, dev.threadline.core.runtime.PrunePolicy policy) {
        SessionInfo.checkId(tenant, "tenant");
        notReserved(DataSubject.tenant(tenant));
        SessionInfo.checkId(sessionId, "session");
        return pruning.prune(new SessionKey(tenant, sessionId), policy);
    }

    @Override
    public dev.threadline.core.runtime.PruneSweep pruneTenant(String tenant, dev.threadline.core.runtime.PrunePolicy policy) {
        SessionInfo.checkId(tenant, "tenant");
        notReserved(DataSubject.tenant(tenant));
        return pruning.pruneTenant(tenant, policy);
    }

    @Override
    public boolean holdsDataOf(DataSubject subject) {
        return reads.holdsDataOf(subject);
    }

    @Override
    public List<String> verify(DataSubject subject, String text) {
        return reads.verify(subject, text);
    }

    /**
     * Checks the holds; keeps a receipt that says the erasure is in progress (so that one stopped before
     * its end, by a crash, leaves a record an erasure run again completes); removes the plan's sessions
     * (branches first), then the variables, then scrubs; keeps the final receipt under the same id. An
     * {@code earlier} unfinished receipt of the subject is continued: its id, its sessions.
     */
    private ErasureReceipt run(ErasureReads.Plan plan, String actor, ErasureReceipt earlier) {
        String tenant = plan.tenant();
        for (LegalHold h : holds(tenant)) {
            boolean direct = (plan.subject() != null && h.subject().equals(plan.subject())) || h.subject().kind() == DataSubject.Kind.TENANT
                    || plan.kind() == DataSubject.Kind.TENANT; // a tenant's erasure would take every held user's data
            if (direct || plan.sessions().values().stream().anyMatch(i -> h.covers(i.tenant(), i.userId(), i.id()))) {
                throw new LegalHoldException("erasing " + plan.describe(), h.describe());
            }
        }
        String id = earlier == null ? "er-" + UUID.randomUUID() : earlier.id();
        Set<String> planned = new TreeSet<>(earlier == null ? List.of() : earlier.sessionHashes());
        plan.sessions().keySet().forEach(k -> planned.add(DataLifecycle.hash(k.tenant(), k.id())));
        keep(new ErasureReceipt(id, tenant, plan.kind(), plan.subjectHash(), clock.instant(), actor, planned.size(),
                List.copyOf(planned), 0, 0, "not scrubbed: in progress", false, IN_PROGRESS), actor, "started");
        Set<String> removed = new TreeSet<>(earlier == null ? List.of() : earlier.sessionHashes());
        int userVars = 0, appVars = 0;
        String failure = null;
        String scrub = "not scrubbed: the erasure stopped before";
        try {
            for (SessionKey key : plan.sessions().keySet()) {
                if (delete(key)) {
                    removed.add(DataLifecycle.hash(key.tenant(), key.id()));
                }
            }
            for (String user : plan.users()) {
                userVars += clearVariables(tenant, user, VariableScope.USER, actor);
            }
            if (plan.kind() == DataSubject.Kind.TENANT) {
                appVars = clearVariables(tenant, null, VariableScope.APP, actor);
            }
            CrashPoint.ERASE_BEFORE_RECEIPT.reach();
            scrub = this.scrub.get();
        } catch (ThreadlineException e) {
            failure = e.getMessage();
        }
        if (earlier != null) { // what the stopped run removed is not known: at least what it said
            userVars = Math.max(userVars, earlier.userVariables());
            appVars = Math.max(appVars, earlier.appVariables());
        }
        ErasureReceipt receipt = new ErasureReceipt(id, tenant, plan.kind(), plan.subjectHash(), clock.instant(),
                actor, removed.size(), List.copyOf(removed), userVars, appVars, scrub, failure == null, failure);
        keep(receipt, actor, failure == null ? "done" : "stopped midway");
        if (failure != null) {
            throw new ThreadlineException("erasing " + plan.describe() + " stopped midway (receipt " + receipt.id()
                    + " lists what went): " + failure + ". Run it again to remove the rest");
        }
        return receipt;
    }

    /** Deletes one session under its lease, after the commands queued on it here; false when it was gone already. */
    /** Why an erasure's receipt says "not complete" while it runs, and after a crash stopped it. */
    static final String IN_PROGRESS = "in progress; if this stays, the process stopped before the erasure ended:"
            + " erase the same subject again to finish it";

    /** An erasure that removed everything and stopped before its receipt: scrub, and complete the receipt. */
    private ErasureReceipt finish(ErasureReceipt earlier, DataSubject subject, String actor) {
        for (LegalHold h : holds(subject.tenant())) {
            if (h.subject().equals(subject) || h.subject().kind() == DataSubject.Kind.TENANT) {
                throw new LegalHoldException("finishing erasure " + earlier.id(), h.describe());
            }
        }
        String scrubbed;
        String failure = null;
        try {
            scrubbed = scrub.get();
        } catch (ThreadlineException e) {
            scrubbed = "not scrubbed: " + e.getMessage();
            failure = e.getMessage();
        }
        ErasureReceipt done = new ErasureReceipt(earlier.id(), earlier.tenant(), earlier.kind(), earlier.subjectHash(), clock.instant(),
                actor, earlier.sessions(), earlier.sessionHashes(), earlier.userVariables(), earlier.appVariables(), scrubbed,
                failure == null, failure);
        keep(done, actor, failure == null ? "done" : "stopped midway");
        return done;
    }

    private void keep(ErasureReceipt r, String actor, String state) {
        records().edit(actor, "erasure " + r.id() + " of a " + r.kind().name().toLowerCase() + " of tenant " + r.tenant() + ": " + state,
                List.of(new Edit.SetVariable(VariableScope.APP, RECEIPT + r.id(), Json.tree(r))));
    }

    private boolean delete(SessionKey key) {
        try {
            gate.call(key, Cmd.internal(), cmd -> {
                sessions.delete(key);
                return null;
            }, first -> null);
            return true;
        } catch (SessionNotFoundException gone) {
            return false;
        }
    }

    /**
     * Removes every variable of a user's scope (or the tenant's app scope, {@code user} null) with one edit
     * of a short-lived session of that user, deleted afterwards, so no journal keeps even the names.
     */
    private int clearVariables(String tenant, String user, VariableScope scope, String actor) {
        Map<String, JsonNode> vars = shared.variables(scope, scope == VariableScope.USER
                ? ScopedWrite.userKey(tenant, user) : ScopedWrite.appKey(tenant));
        if (vars.isEmpty()) {
            return 0;
        }
        Tenant t = tenants.apply(tenant);
        String id = "erasure-" + UUID.randomUUID().toString().substring(0, 8);
        Session s = t.create(new NewSession(id, user, SessionConfig.DEFAULT, Map.of("purpose", "erasure"), NewSession.FOREVER));
        try {
            List<Edit> edits = vars.keySet().stream().<Edit>map(n -> new Edit.RemoveVariable(scope, n)).toList();
            s.edit(actor, "erasure", edits);
        } finally {
            delete(new SessionKey(tenant, id));
        }
        return vars.size();
    }

    private Optional<LegalHold> find(DataSubject subject) {
        JsonNode v = recordVariables().get(holdName(subject));
        return v == null ? Optional.empty() : Optional.of(hold(v));
    }

    private Map<String, JsonNode> recordVariables() {
        return shared.variables(VariableScope.APP, ScopedWrite.appKey(RECORDS_TENANT));
    }

    /** The reserved tenant's session, created on its first write (never swept). */
    private Session records() {
        Tenant t = tenants.apply(RECORDS_TENANT);
        Optional<Session> s = t.find(SESSION);
        if (s.isPresent()) {
            return s.get();
        }
        try {
            return t.create(new NewSession(SESSION, null, SessionConfig.DEFAULT,
                    Map.of("purpose", "legal holds and erasure receipts"), NewSession.FOREVER));
        } catch (SessionExistsException raced) {
            return t.open(SESSION);
        }
    }

    private static void notReserved(DataSubject subject) {
        Require.nonNull(subject, "subject");
        if (subject.tenant().equals(RECORDS_TENANT)) {
            throw new InvalidInputException("subject", "tenant '" + RECORDS_TENANT + "' keeps the holds and erasure receipts;"
                    + " it can be neither held nor erased");
        }
    }

    private static String holdName(DataSubject s) {
        return HOLD + s.kind().name().toLowerCase() + ":" + DataLifecycle.hash(s.tenant(), s.id());
    }

    private static ObjectNode holdJson(LegalHold h) {
        return Json.object().put("tenant", h.subject().tenant()).put("kind", h.subject().kind().name()).put("id", h.subject().id())
                .put("reason", h.reason()).put("placedAt", h.placedAt().toString()).put("placedBy", h.placedBy());
    }

    private static LegalHold hold(JsonNode v) {
        return new LegalHold(new DataSubject(v.path("tenant").asText(), DataSubject.Kind.valueOf(v.path("kind").asText()),
                v.path("id").asText()), v.path("reason").asText(), Instant.parse(v.path("placedAt").asText()), v.path("placedBy").asText());
    }
}
