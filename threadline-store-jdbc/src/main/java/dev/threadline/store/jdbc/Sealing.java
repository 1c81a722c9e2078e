package dev.threadline.store.jdbc;

import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.WrappedDataKey;
import dev.threadline.core.error.StorageException;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * How a JDBC store turns its payload columns into bytes and back (encryption at rest, ADR 0049). Three ways:
 * {@link #TEXT}, PostgreSQL's without keys: the payload bound as text into its {@code text} column, and read from
 * that column or, when it is NULL, from the {@code bytea} column beside it (so that a sealed value left by a store
 * opened with keys is refused with a clear line); {@link #PLAIN}, SQLite's without keys: bound as text but read as
 * bytes from the one column, refused the same way when sealed; and {@link #sealedBy}, every payload sealed by a
 * {@link PayloadSealer} and bound as bytes (SQLite keeps a BLOB in the same column, so plain and sealed rows sit
 * side by side; {@link #inSplitColumns} puts it in the {@code bytea} column beside the text one, PostgreSQL's way)
 * and every value read opened when it starts with {@link PayloadSealer#MARK}. The associated data of a payload is
 * its {@link Place}: a value copied to another row does not open.
 *
 * <p>Split columns (PostgreSQL, migration 11): each payload column {@code c} has a nullable {@code bytea} column
 * {@code c_sealed} beside it, and at most one of the two is set. The statements the kit writes ask this class for
 * their column lists ({@link #columns}, {@link #params}, {@link #excluded}, {@link #set}), which are the one
 * column and one parameter with one column (SQLite's statements unchanged), and both with split ones; a payload
 * read is always the last columns of a SELECT.
 *
 * <p>A store that seals calls {@link #ready} for each tenant a write touches on the caller's thread, before the
 * write is queued: that is where a missing or wrong key is refused (nothing written), and it leaves the
 * tenant's newest data key cached, so that sealing inside the write never has to read or add a data key.
 * Thread-safe: the sealer is.
 */
public final class Sealing {
    /** PostgreSQL without keys: text bound into the text column; read from either column, a sealed one refused. */
    public static final Sealing TEXT = new Sealing(null, true);
    /** No sealing, but sealed values are recognised and refused with a clear line (SQLite without keys). */
    public static final Sealing PLAIN = new Sealing(null, false);
    /** The suffix of the {@code bytea} column beside a text payload column, with split columns. */
    public static final String SEALED_SUFFIX = "_sealed";

    private final PayloadSealer sealer;
    private final boolean split;

    private Sealing(PayloadSealer sealer, boolean split) {
        this.sealer = sealer;
        this.split = split;
    }

    /** Every payload sealed and opened by {@code sealer}. */
    public static Sealing sealedBy(PayloadSealer sealer) {
        return new Sealing(Objects.requireNonNull(sealer, "sealer"), false);
    }

    /**
     * This sealing with each payload in two columns, {@code c} ({@code text}) and {@code c_sealed} ({@code bytea}),
     * of which a write sets one: the text one without keys, the sealed one with them (PostgreSQL's way).
     */
    public Sealing inSplitColumns() {
        return split ? this : new Sealing(sealer, true);
    }

    /** True when each payload has a text column and a {@code bytea} one beside it ({@link #inSplitColumns}). */
    public boolean split() {
        return split;
    }

    /** {@code column}, then its sealed column when they are split: for a SELECT (last) or an INSERT's column list. */
    public String columns(String column) {
        return split ? column + ", " + column + SEALED_SUFFIX : column;
    }

    /** The parameters {@link #bind} binds: {@code ?}, or {@code ?, ?} with split columns. */
    public String params() {
        return split ? "?, ?" : "?";
    }

    /** An upsert's {@code c = excluded.c} for the payload column, and its sealed column when split. */
    public String excluded(String column) {
        String one = column + " = excluded." + column;
        return split ? one + ", " + column + SEALED_SUFFIX + " = excluded." + column + SEALED_SUFFIX : one;
    }

    /** An UPDATE's {@code c = ?} for the payload column, and {@code c_sealed = ?} after it when split. */
    public String set(String column) {
        return split ? column + " = ?, " + column + SEALED_SUFFIX + " = ?" : column + " = ?";
    }

    /**
     * Every payload sealed under data keys wrapped by {@code keys}' key-encryption keys and kept in the
     * {@code data_keys} table of the store {@code db} runs on (each read or added in a unit of work of its own).
     */
    public static Sealing sealedBy(KeyProvider keys, Transactions db, Clock clock) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(clock, "clock");
        DataKeys rows = new DataKeys() {
            @Override
            public boolean keepsDataKeys() {
                return true;
            }

            @Override
            public List<WrappedDataKey> dataKeys(String tenant) {
                return db.read(() -> "read the data keys of tenant '" + tenant + "'", c -> DataKeyRows.find(c, tenant));
            }

            @Override
            public boolean addDataKey(WrappedDataKey key) {
                return db.write(() -> "add data key " + key.number() + " of tenant '" + key.tenant() + "'",
                        c -> DataKeyRows.add(c, key, clock.millis()));
            }

            @Override
            public boolean rewrapDataKey(WrappedDataKey current, WrappedDataKey rewrapped) {
                DataKeys.sameKey(current, rewrapped);
                return db.write(() -> "wrap data key " + current.number() + " of tenant '" + current.tenant() + "' again",
                        c -> DataKeyRows.rewrap(c, current, rewrapped));
            }
        };
        return sealedBy(new PayloadSealer(keys, rows, clock));
    }

    /** True when this store seals what it writes. */
    public boolean on() {
        return sealer != null;
    }

    /**
     * Makes sure {@code tenant} can be sealed for: its data key exists (made now if needed) and opens under its
     * key-encryption key. Call it on the caller's thread before a write; nothing when sealing is off.
     *
     * @throws dev.threadline.core.error.KeyUnavailableException naming the tenant and key id when its key is
     *         missing or wrong
     */
    public void ready(String tenant) {
        if (sealer != null) {
            sealer.ready(tenant);
        }
    }

    /**
     * The number of the data key {@code tenant}'s payloads are sealed under now ({@link PayloadSealer#ready}).
     *
     * @throws IllegalStateException when this store does not seal
     */
    public int newest(String tenant) {
        return sealer().ready(tenant);
    }

    /** A new data key for {@code tenant}; returns its number ({@link PayloadSealer#rotate}). */
    public int rotate(String tenant) {
        return sealer().rotate(tenant);
    }

    /** Wraps {@code tenant}'s data keys again under the active key-encryption key ({@link PayloadSealer#rewrap}). */
    public int rewrap(String tenant) {
        return sealer().rewrap(tenant);
    }

    /**
     * {@code stored} (plain, or sealed under any of the tenant's data keys) sealed again for {@code place} under the
     * tenant's newest data key: what a re-seal writes back.
     *
     * @throws IllegalStateException when this store does not seal
     */
    public byte[] reseal(byte[] stored, Place place) {
        return sealer().seal(place.tenant(), open(stored, place), place.bytes());
    }

    private PayloadSealer sealer() {
        if (sealer == null) {
            throw new IllegalStateException("this store does not seal (it was opened without keys)");
        }
        return sealer;
    }

    /**
     * Where a payload is, its associated data: the tenant, two parts that locate it (a session and seq, a
     * scope key and variable name …) and what kind of payload it is. Immutable.
     *
     * @param kind   what kind of payload (event, segment, snapshot, base, command, variable, interrupt)
     * @param tenant the tenant whose data key seals it
     * @param where  the first part of its place (a session id, a variable's scope and key)
     * @param at     the second part (a seq, a command id, a variable name)
     */
    public record Place(String kind, String tenant, String where, String at) {
        /** The place as the associated data of the seal. */
        public byte[] bytes() {
            return (kind + '\u0000' + tenant + '\u0000' + where + '\u0000' + at).getBytes(StandardCharsets.UTF_8);
        }

        /** The place of event {@code seq} of a session. */
        public static Place event(String tenant, String session, long seq) {
            return new Place("event", tenant, session, Long.toString(seq));
        }

        /** The place of the segment of a session that ends at {@code lastSeq}. */
        public static Place segment(String tenant, String session, long lastSeq) {
            return new Place("segment", tenant, session, Long.toString(lastSeq));
        }
    }

    /**
     * Binds {@code text} (not null) at {@code index}: as text, or sealed for {@code place} as bytes; with split
     * columns into the text parameter or the sealed one after it, the other NULL.
     *
     * @return the index of the next parameter
     * @throws SQLException when the driver refuses the value
     */
    public int bind(PreparedStatement ps, int index, String text, Place place) throws SQLException {
        if (sealer == null) {
            ps.setString(index, text);
            if (split) {
                ps.setNull(index + 1, Types.BINARY);
            }
        } else if (split) {
            ps.setNull(index, Types.VARCHAR);
            ps.setBytes(index + 1, seal(text, place));
        } else {
            ps.setBytes(index, seal(text, place));
        }
        return split ? index + 2 : index + 1;
    }

    /**
     * Binds NULL at {@code index} (and at the sealed parameter after it with split columns).
     *
     * @return the index of the next parameter
     * @throws SQLException when the driver refuses the value
     */
    public int bindNull(PreparedStatement ps, int index) throws SQLException {
        ps.setString(index, null);
        if (split) {
            ps.setNull(index + 1, Types.BINARY);
            return index + 2;
        }
        return index + 1;
    }

    /**
     * {@code text} sealed for {@code place}: what a sealing store writes (the caller binds it itself).
     *
     * @throws IllegalStateException when this store does not seal
     */
    public byte[] seal(String text, Place place) {
        if (sealer == null) {
            throw new IllegalStateException("this store does not seal its payloads");
        }
        return sealer.seal(place.tenant(), text.getBytes(StandardCharsets.UTF_8), place.bytes());
    }

    /**
     * Column {@code index} of the current row as text (null stays null): opened when it is sealed.
     *
     * @throws SQLException when the driver cannot read the column
     */
    public String text(ResultSet rs, int index, Place place) throws SQLException {
        if (split) {
            String plain = rs.getString(index);
            if (plain != null) {
                return plain;
            }
            byte[] sealed = rs.getBytes(index + 1);
            return sealed == null ? null : new String(open(sealed, place), StandardCharsets.UTF_8);
        }
        byte[] stored = rs.getBytes(index);
        return stored == null ? null : new String(open(stored, place), StandardCharsets.UTF_8);
    }

    /**
     * Column {@code index} of the current row as bytes (null stays null): opened when it is sealed; with split
     * columns the text column's bytes, or the sealed column's opened when the text one is NULL.
     *
     * @throws SQLException when the driver cannot read the column
     */
    public byte[] bytes(ResultSet rs, int index, Place place) throws SQLException {
        byte[] stored = rs.getBytes(index);
        if (split) {
            if (stored != null) {
                return stored;
            }
            byte[] sealed = rs.getBytes(index + 1);
            return sealed == null ? null : open(sealed, place);
        }
        return stored == null ? null : open(stored, place);
    }

    /**
     * {@code stored} itself when it is plain; opened when it is sealed.
     *
     * @throws dev.threadline.core.error.KeyUnavailableException when its data key's key-encryption key is missing or wrong
     * @throws StorageException naming the tenant and data key when it does not open (damage, or another place), or
     *         when this store has no keys to open it with
     */
    public byte[] open(byte[] stored, Place place) {
        if (!PayloadSealer.isSealed(stored)) {
            return stored;
        }
        if (sealer == null) {
            throw new StorageException("a " + place.kind() + " payload of tenant '" + place.tenant() + "' ("
                    + place.where() + " " + place.at() + ") is sealed (encryption at rest); open the store with its keys"
                    + (split ? " (postgresql://...?keys=keyring:FILE or ?keys=env)" : " (sqlite:PATH?keys=keyring:FILE or ?keys=env)"));
        }
        return sealer.open(place.tenant(), stored, place.bytes());
    }
}
