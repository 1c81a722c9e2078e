package dev.threadline.server.keys;

import dev.threadline.core.StorageException;
import dev.threadline.core.model.SessionInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The API keys of a server: a small SQLite file of its own beside the sessions' database (keys are
 * the server's concern, not the state store's, so they stay out of the store SPI). Holds each key's
 * SHA-256, never the secret, and which session id each create's Idempotency-Key first named. Several server processes may share one file; a revocation is seen by the
 * next request on every node, since every lookup reads the file. Thread-safe.
 */
public final class KeyStore implements AutoCloseable {
    private final Connection db;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();

    private KeyStore(Connection db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** The key file that goes with a sessions database: {@code <db>.keys}. */
    public static Path besideDb(Path dbFile) {
        Path abs = dbFile.toAbsolutePath();
        return abs.resolveSibling(abs.getFileName() + ".keys");
    }

    /**
     * Opens (creating when missing) the key file.
     *
     * @throws StorageException when the file cannot be opened or is not a key file
     */
    public static KeyStore open(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 5000");
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, tenant TEXT NOT NULL,"
                        + " hash TEXT NOT NULL UNIQUE, hint TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)");
                s.execute("CREATE TABLE IF NOT EXISTS create_keys (tenant TEXT NOT NULL, idempotency_key TEXT NOT NULL,"
                        + " session_id TEXT NOT NULL, PRIMARY KEY (tenant, idempotency_key))");
            }
            return new KeyStore(c, Clock.systemUTC());
        } catch (SQLException | java.io.IOException e) {
            throw new StorageException("cannot open the key file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates a key for {@code tenant} and returns it with its secret (the only time the secret is seen).
     *
     * @throws dev.threadline.core.InvalidInputException when the tenant id is invalid
     */
    public NewKey create(String tenant) {
        SessionInfo.checkId(tenant, "tenant");
        String secret = Secrets.newSecret();
        ApiKey key = new ApiKey(Secrets.newId(), tenant, secret.substring(0, 7), clock.instant(), null);
        run(() -> {
            try (PreparedStatement p = db.prepareStatement("INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, NULL)")) {
                p.setString(1, key.id());
                p.setString(2, tenant);
                p.setString(3, Secrets.hash(secret));
                p.setString(4, key.hint());
                p.setString(5, key.createdAt().toString());
                p.executeUpdate();
            }
            return null;
        });
        return new NewKey(key, secret);
    }

    /** Every key, revoked ones included, oldest first. */
    public List<ApiKey> list() {
        return run(() -> {
            List<ApiKey> out = new ArrayList<>();
            try (Statement s = db.createStatement();
                 ResultSet r = s.executeQuery("SELECT id, tenant, hint, created_at, revoked_at FROM api_keys ORDER BY created_at, id")) {
                while (r.next()) {
                    String revoked = r.getString(5);
                    out.add(new ApiKey(r.getString(1), r.getString(2), r.getString(3), Instant.parse(r.getString(4)),
                            revoked == null ? null : Instant.parse(revoked)));
                }
            }
            return out;
        });
    }

    /** Whether any key is still valid. */
    public boolean hasActiveKey() {
        return list().stream().anyMatch(ApiKey::active);
    }

    /** Revokes a key; false when no valid key has that id. */
    public boolean revoke(String id) {
        return run(() -> {
            try (PreparedStatement p = db.prepareStatement("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
                p.setString(1, clock.instant().toString());
                p.setString(2, id);
                return p.executeUpdate() == 1;
            }
        });
    }

    /** The tenant a bearer secret acts for, or empty when it is unknown, revoked or malformed. */
    public Optional<String> tenantOf(String secret) {
        if (!Secrets.wellFormed(secret)) {
            return Optional.empty();
        }
        String hash = Secrets.hash(secret);
        return run(() -> {
            try (PreparedStatement p = db.prepareStatement("SELECT tenant FROM api_keys WHERE hash = ? AND revoked_at IS NULL")) {
                p.setString(1, hash);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(r.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    /**
     * Binds an Idempotency-Key of a session create to the session id it first named, and returns the id
     * it is bound to (this one on first use). The core records command ids per session, so a key reused
     * to create a session of another id would otherwise create a second session; this table, shared by
     * every node on the file, lets the server refuse that instead.
     */
    public String claimCreate(String tenant, String idempotencyKey, String sessionId) {
        return run(() -> {
            try (PreparedStatement p = db.prepareStatement("INSERT OR IGNORE INTO create_keys VALUES (?, ?, ?)")) {
                p.setString(1, tenant);
                p.setString(2, idempotencyKey);
                p.setString(3, sessionId);
                p.executeUpdate();
            }
            try (PreparedStatement p = db.prepareStatement("SELECT session_id FROM create_keys WHERE tenant = ? AND idempotency_key = ?")) {
                p.setString(1, tenant);
                p.setString(2, idempotencyKey);
                try (ResultSet r = p.executeQuery()) {
                    r.next();
                    return r.getString(1);
                }
            }
        });
    }

    /** Closes the file. Idempotent. */
    @Override
    public void close() {
        run(() -> {
            db.close();
            return null;
        });
    }

    private interface Sql<T> {
        T run() throws SQLException;
    }

    private <T> T run(Sql<T> work) {
        lock.lock();
        try {
            return work.run();
        } catch (SQLException e) {
            throw new StorageException("key file: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }
}
