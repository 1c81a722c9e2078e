package dev.threadline.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.server.keys.KeyStore;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The webhook subscriptions of every tenant and their delivery records, kept in the state store
 * itself (so every node on one store shares them, as the API keys are, ADR 0022; ADR 0041): per
 * tenant, the session variables of one session of the server's reserved tenant {@value KeyStore#TENANT},
 * written by typed edits (each change a journalled step, serialised across nodes by that session's
 * lease). Variables: {@code sub:<id>} a subscription, {@code c:<id>:<session>} how far its delivery got
 * in that session ({@link Cursor}), {@code f:<id>:<session>:<seq>} a delivery that failed for good.
 * A second, empty session per tenant carries the delivery lease. Thread-safe.
 */
public final class WebhookStore {
    static final String KIND = "webhooks";
    private static final String AUTHOR = "threadline webhooks";
    private static final String SUB = "sub:";
    private static final String CURSOR = "c:";
    private static final String FAILED = "f:";
    private static final int MAX_URL = 2000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Threadline runtime;
    private final Tenant records;
    private final Clock clock;

    /** The webhook records in {@code runtime}'s store (a runtime of its own, which lets leases go at once: see {@link KeyStore#open}). */
    public WebhookStore(Threadline runtime, Clock clock) {
        this.runtime = java.util.Objects.requireNonNull(runtime, "runtime");
        this.records = runtime.tenant(KeyStore.TENANT);
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    /** The runtime the records are written with. */
    Threadline runtime() {
        return runtime;
    }

    /**
     * Adds a subscription of {@code tenant} to {@code events} at {@code url}, with a new signing secret.
     *
     * @throws InvalidInputException when the tenant is invalid or reserved, the URL is not an absolute
     *                               http(s) URL of at most 2000 characters, or an event type is unknown or none is given
     */
    public Subscription add(String tenant, String url, List<String> events) {
        SessionInfo.checkId(tenant, "tenant");
        if (tenant.equals(KeyStore.TENANT) || tenant.equals(KeyStore.ADMIN)) {
            throw new InvalidInputException("tenant", "'" + tenant + "' is reserved for the server's own records");
        }
        URI uri = checkUrl(url);
        if (events == null || events.isEmpty()) {
            throw new InvalidInputException("events", "name at least one of " + WebhookEvents.TYPES);
        }
        for (String e : events) {
            if (!WebhookEvents.TYPES.contains(e)) {
                throw new InvalidInputException("events", "'" + e + "' is not an event type: use " + WebhookEvents.TYPES);
            }
        }
        Subscription s = new Subscription("wh_" + HexFormat.of().formatHex(random(8)), tenant, uri, new LinkedHashSet<>(events),
                Signature.newSecret(), clock.instant());
        session(tenant, true).orElseThrow().edit(AUTHOR, "add webhook " + s.id() + " to " + uri.getHost(),
                List.of(new Edit.SetVariable(VariableScope.SESSION, SUB + s.id(), record(s))));
        lease(tenant);
        return s;
    }

    /** The tenant's subscriptions, oldest first (with their secrets: the caller shows them only to their tenant). */
    public List<Subscription> list(String tenant) {
        SessionInfo.checkId(tenant, "tenant");
        return session(tenant, false).map(s -> subscriptions(tenant, s.variables(VariableScope.SESSION))).orElse(List.of());
    }

    /** The tenant's subscription {@code id}, or empty. */
    public Optional<Subscription> find(String tenant, String id) {
        return list(tenant).stream().filter(s -> s.id().equals(id)).findFirst();
    }

    /** Removes a subscription with its delivery records; false when the tenant has none of that id. */
    public boolean remove(String tenant, String id) {
        Optional<Session> s = session(tenant, false);
        if (s.isEmpty() || find(tenant, id).isEmpty()) {
            return false;
        }
        List<Edit> edits = new ArrayList<>();
        for (String name : s.get().variables(VariableScope.SESSION).keySet()) {
            if (name.equals(SUB + id) || name.startsWith(CURSOR + id + ":") || name.startsWith(FAILED + id + ":")) {
                edits.add(new Edit.RemoveVariable(VariableScope.SESSION, name));
            }
        }
        s.get().edit(AUTHOR, "remove webhook " + id, edits);
        return true;
    }

    /**
     * Removes every subscription of {@code tenant} with its delivery records, the records' journal
     * included (a tenant's erasure: their URLs are the tenant's). Returns how many subscriptions went.
     */
    public int removeTenant(String tenant) {
        int n = list(tenant).size();
        for (String id : List.of(recordsSession(tenant), leaseSession(tenant))) {
            try {
                records.delete(id);
            } catch (dev.threadline.core.error.SessionNotFoundException gone) {
                // none, or another node removed it
            }
        }
        return n;
    }

    /** The deliveries of subscription {@code id} that failed for good, newest first. */
    public List<Failure> failures(String tenant, String id) {
        List<Failure> out = new ArrayList<>();
        session(tenant, false).ifPresent(s -> s.variables(VariableScope.SESSION).forEach((name, v) -> {
            if (name.startsWith(FAILED + id + ":")) {
                out.add(Json.convert(v, Failure.class));
            }
        }));
        out.sort(Comparator.comparing(Failure::failedAt).reversed());
        return out;
    }

    /** Every tenant that has a webhook records session (so may have subscriptions). */
    List<String> tenants() {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            Page<SessionSummary> page = records.sessions(new SessionFilter(null, Map.of("kind", KIND), 1000, cursor));
            for (SessionSummary s : page.items()) {
                out.add(s.info().metadata().get("tenant"));
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    /** Everything the tenant's records hold: subscriptions and cursors, read once per delivery pass. */
    Records read(String tenant) {
        Map<String, JsonNode> vars = session(tenant, false).map(s -> s.variables(VariableScope.SESSION)).orElse(Map.of());
        return new Records(subscriptions(tenant, vars), vars);
    }

    /** Writes the cursors and failures a delivery pass moved, as one step. */
    void write(String tenant, Map<String, Cursor> cursors, Map<String, Failure> failed, Set<String> removed) {
        List<Edit> edits = new ArrayList<>();
        removed.forEach(name -> edits.add(new Edit.RemoveVariable(VariableScope.SESSION, name)));
        cursors.forEach((name, c) -> edits.add(new Edit.SetVariable(VariableScope.SESSION, name, c.json())));
        failed.forEach((name, f) -> edits.add(new Edit.SetVariable(VariableScope.SESSION, name, Json.tree(f))));
        if (!edits.isEmpty()) {
            session(tenant, true).orElseThrow().edit(AUTHOR, "webhook deliveries", edits);
        }
    }

    /** The variable holding subscription {@code subId}'s cursor in {@code session}. */
    static String cursorName(String subId, String session) {
        return CURSOR + subId + ":" + session;
    }

    /** The subscription and session of a cursor's variable name, or empty when it is not one. */
    static Optional<String[]> cursorOf(String name) {
        if (!name.startsWith(CURSOR)) {
            return Optional.empty();
        }
        int colon = name.indexOf(':', CURSOR.length());
        return colon < 0 ? Optional.empty() : Optional.of(new String[] {name.substring(CURSOR.length(), colon), name.substring(colon + 1)});
    }

    /** The variable holding a failed delivery of subscription {@code subId}. */
    static String failureName(String subId, Failure f) {
        return FAILED + subId + ":" + f.session() + ":" + f.seq();
    }

    private static String recordsSession(String tenant) {
        return "webhooks-" + sha256(tenant);
    }

    /** The session id that carries the tenant's delivery lease (created with the records). */
    static String leaseSession(String tenant) {
        return "webhooks-lease-" + sha256(tenant);
    }

    /** What a delivery pass reads: the subscriptions and every variable (the cursors among them). */
    record Records(List<Subscription> subscriptions, Map<String, JsonNode> variables) {
        Optional<Cursor> cursor(String subId, String session) {
            JsonNode v = variables.get(cursorName(subId, session));
            return v == null ? Optional.empty() : Optional.of(Cursor.of(v));
        }
    }

    private List<Subscription> subscriptions(String tenant, Map<String, JsonNode> vars) {
        List<Subscription> out = new ArrayList<>();
        vars.forEach((name, v) -> {
            if (name.startsWith(SUB)) {
                Set<String> events = new LinkedHashSet<>();
                v.path("events").forEach(e -> events.add(e.asText()));
                out.add(new Subscription(v.path("id").asText(), tenant, URI.create(v.path("url").asText()), events,
                        v.path("secret").asText(), Instant.parse(v.path("createdAt").asText())));
            }
        });
        out.sort(Comparator.comparing(Subscription::createdAt).thenComparing(Subscription::id));
        return out;
    }

    private Optional<Session> session(String tenant, boolean create) {
        String id = recordsSession(tenant);
        Optional<Session> s = records.find(id);
        if (s.isPresent() || !create) {
            return s;
        }
        try {
            return Optional.of(records.create(new NewSession(id, null, SessionConfig.DEFAULT,
                    Map.of("kind", KIND, "tenant", tenant, "purpose", "webhook subscriptions and deliveries"), NewSession.FOREVER)));
        } catch (SessionExistsException raced) {
            return Optional.of(records.open(id));
        }
    }

    private void lease(String tenant) {
        String id = leaseSession(tenant);
        if (records.find(id).isEmpty()) {
            try {
                records.create(new NewSession(id, null, SessionConfig.DEFAULT, Map.of("purpose", "the webhook delivery lease"),
                        NewSession.FOREVER));
            } catch (SessionExistsException raced) {
                // another node made it
            }
        }
    }

    private static URI checkUrl(String url) {
        if (url == null || url.isBlank() || url.length() > MAX_URL) {
            throw new InvalidInputException("url", "give the receiver's absolute http(s) URL (at most " + MAX_URL + " characters)");
        }
        try {
            URI u = new URI(url);
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https")) || u.getHost() == null) {
                throw new InvalidInputException("url", "'" + url + "' is not an absolute http(s) URL");
            }
            return u;
        } catch (java.net.URISyntaxException e) {
            throw new InvalidInputException("url", "'" + url + "' is not a URL: " + e.getReason());
        }
    }

    private static ObjectNode record(Subscription s) {
        ObjectNode o = Json.object().put("id", s.id()).put("url", s.url().toString()).put("secret", s.secret())
                .put("createdAt", s.createdAt().toString());
        ArrayNode events = o.putArray("events");
        s.events().forEach(events::add);
        return o;
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8))).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
