package dev.threadline.server.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.CommandConflictException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.StateStores;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The API keys of a server, kept in the state store itself so that every node on one store (SQLite,
 * PostgreSQL, Redis, ...) shares them: they are the app variables of a reserved internal tenant,
 * {@value #TENANT}, written by typed edits of its session {@value #SESSION} (so each change is a
 * journalled step, serialised across nodes by the session's lease). A key is stored under the SHA-256
 * of its secret, never the secret. A revocation is seen by the next request on every node, since
 * every lookup reads the store. Also holds which session id each create's Idempotency-Key first named
 * (as command ids of that session). See ADR 0022. Thread-safe.
 */
public final class KeyStore implements AutoCloseable {
    /** The reserved tenant that holds the keys; no key can be created for it. */
    public static final String TENANT = "threadline.server";
    /**
     * The tenant of admin keys ({@code threadline keys create --admin}): such a key opens the operator's
     * routes under {@code /v1/admin/} (erasure, legal holds) over every tenant, and nothing else.
     */
    public static final String ADMIN = "threadline.admin";
    /** The internal session whose edits write the keys. */
    static final String SESSION = "api-keys";
    private static final String AUTHOR = "threadline keys";

    private final Threadline runtime;
    private final boolean owned;
    private final Session session;
    private final Clock clock;

    private KeyStore(Threadline runtime, boolean owned, Clock clock) {
        this.runtime = runtime;
        this.owned = owned;
        this.clock = clock;
        this.session = internal(runtime.tenant(TENANT));
    }

    private static Session internal(Tenant t) {
        Optional<Session> s = t.find(SESSION);
        if (s.isPresent()) {
            return s.get();
        }
        try {
            return t.create(new NewSession(SESSION, null, SessionConfig.DEFAULT, Map.of("purpose", "the server's API keys"),
                    NewSession.FOREVER)); // never swept, whatever the runtime's default ttl
        } catch (SessionExistsException raced) { // another node created it at the same moment
            return t.open(SESSION);
        }
    }

    /**
     * Opens the store at {@code storeUrl} ({@code sqlite:PATH}, {@code postgresql://…}, {@code redis://…},
     * …) for its keys; closing the key store closes it. A server opens its keys apart from its sessions'
     * runtime, with a runtime that lets the internal session's lease go as soon as each change is
     * written, so nodes that write keys (or bind create keys) in turn do not wait for each other's
     * lease to lapse.
     *
     * @throws dev.threadline.core.error.StorageException  when the store cannot be opened
     * @throws InvalidInputException when the URL names no known kind of store
     */
    public static KeyStore open(String storeUrl) {
        Threadline runtime = Threadline.builder().store(StateStores.open(storeUrl)).leaseLinger(Duration.ZERO).build();
        try {
            return new KeyStore(runtime, true, Clock.systemUTC());
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
    }

    /**
     * The keys kept in {@code runtime}'s store, in its reserved tenant {@value #TENANT}; closing the key
     * store leaves the runtime open (it is the caller's). For a server that serves a runtime its caller
     * built: the keys then live beside the sessions, as with {@link #open}, but are written with that
     * runtime's lease settings (its lease linger may make another node that writes keys wait for it).
     *
     * @throws dev.threadline.core.error.StorageException when the store cannot be read
     */
    public static KeyStore on(Threadline runtime) {
        return new KeyStore(java.util.Objects.requireNonNull(runtime, "runtime"), false, Clock.systemUTC());
    }

    /**
     * Creates a key for {@code tenant} and returns it with its secret (the only time the secret is seen).
     *
     * @throws InvalidInputException when the tenant id is invalid or reserved
     */
    public NewKey create(String tenant) {
        SessionInfo.checkId(tenant, "tenant");
        if (tenant.equals(TENANT)) {
            throw new InvalidInputException("tenant", "'" + TENANT + "' is reserved for the server's own records");
        }
        String secret = Secrets.newSecret();
        ApiKey key = new ApiKey(Secrets.newId(), tenant, secret.substring(0, 7), clock.instant(), null);
        session.edit(AUTHOR, "create " + key.id() + " for tenant " + tenant, List.of(new Edit.SetVariable(VariableScope.APP, Secrets.hash(secret), record(key))));
        return new NewKey(key, secret);
    }

    /** Every key, revoked ones included, oldest first. */
    public List<ApiKey> list() {
        List<ApiKey> out = new ArrayList<>();
        for (JsonNode v : keys().values()) {
            key(v).ifPresent(out::add);
        }
        out.sort(Comparator.comparing(ApiKey::createdAt).thenComparing(ApiKey::id));
        return out;
    }

    /** Whether any key is still valid. */
    public boolean hasActiveKey() {
        return list().stream().anyMatch(ApiKey::active);
    }

    /** Revokes a key; false when no valid key has that id. */
    public boolean revoke(String id) {
        for (Map.Entry<String, JsonNode> e : keys().entrySet()) {
            Optional<ApiKey> k = key(e.getValue());
            if (k.isPresent() && k.get().id().equals(id) && k.get().active()) {
                ApiKey revoked = new ApiKey(id, k.get().tenant(), k.get().hint(), k.get().createdAt(), clock.instant());
                session.edit(AUTHOR, "revoke " + id, List.of(new Edit.SetVariable(VariableScope.APP, e.getKey(), record(revoked))));
                return true;
            }
        }
        return false;
    }

    /** The tenant a bearer secret acts for, or empty when it is unknown, revoked or malformed. */
    public Optional<String> tenantOf(String secret) {
        if (!Secrets.wellFormed(secret)) {
            return Optional.empty();
        }
        JsonNode v = keys().get(Secrets.hash(secret));
        return v == null ? Optional.empty() : key(v).filter(ApiKey::active).map(ApiKey::tenant);
    }

    /**
     * Removes every key of {@code tenant}, revoked ones too (for a tenant's erasure): no record of them
     * stays among the keys; the journal of the keys' session keeps only that they were removed, by
     * {@code actor}. Returns how many went.
     */
    public int removeTenant(String tenant, String actor) {
        List<Edit> removals = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : keys().entrySet()) {
            if (key(e.getValue()).filter(k -> k.tenant().equals(tenant)).isPresent()) {
                removals.add(new Edit.RemoveVariable(VariableScope.APP, e.getKey()));
            }
        }
        if (!removals.isEmpty()) {
            session.edit(actor, "remove the keys of an erased tenant", removals);
        }
        return removals.size();
    }

    /**
     * Binds an Idempotency-Key of a session create to the session id it first named: true when it is
     * bound to {@code sessionId} (now, or by an earlier create), false when it names another session.
     * The core records command ids per session, so a key reused to create a session of another id would
     * otherwise create a second session; the binding is a command id of the internal session, which the
     * core's command log makes first-writer-wins on every node.
     */
    public boolean claimCreate(String tenant, String idempotencyKey, String sessionId) {
        String commandId = "create-" + sha256(tenant + "\u0000" + idempotencyKey);
        try {
            // an edit that changes nothing: only its command id and its reason (the session it names) matter
            session.with(CommandOptions.builder().commandId(commandId).build()).edit(AUTHOR, "Idempotency-Key of a create in tenant " + tenant + " names session " + sessionId, List.of(new Edit.RemoveVariable(VariableScope.SESSION, "claim")));
            return true;
        } catch (CommandConflictException e) {
            return false;
        }
    }

    /** Closes the store when this key store opened it. Idempotent. */
    @Override
    public void close() {
        if (owned) {
            runtime.close();
        }
    }

    private Map<String, JsonNode> keys() {
        return session.variables(VariableScope.APP);
    }

    private static ObjectNode record(ApiKey k) {
        ObjectNode o = Json.object().put("id", k.id()).put("tenant", k.tenant()).put("hint", k.hint())
                .put("createdAt", k.createdAt().toString());
        if (k.revokedAt() != null) {
            o.put("revokedAt", k.revokedAt().toString());
        }
        return o;
    }

    private static Optional<ApiKey> key(JsonNode v) {
        if (!v.path("id").isTextual() || !v.path("tenant").isTextual() || !v.path("createdAt").isTextual()) {
            return Optional.empty(); // not a key record: never a match
        }
        String revoked = v.path("revokedAt").isTextual() ? v.path("revokedAt").asText() : null;
        return Optional.of(new ApiKey(v.path("id").asText(), v.path("tenant").asText(), v.path("hint").asText(""),
                Instant.parse(v.path("createdAt").asText()), revoked == null ? null : Instant.parse(revoked)));
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
