package dev.threadline.store.redis;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Redis store's history pruning (ADR 0045). A prune is one script on the session's keys ({@code prune.lua}):
 * it keeps the base in the session's {@code hbase} hash, in the record form the JDBC stores keep it in
 * ({@link RecordCodec#encodeBase}, with its version; sealed with encryption at rest on), trims the events list to the seqs after it (moving the
 * meta hash's {@code base}, so a read of a pruned seq finds the gap core turns into a
 * {@link dev.threadline.core.error.HistoryPrunedException}) and removes the snapshots at or before it. Redis
 * keeps no text index, so there is none to prune. The branches' branch points live in other hash slots: they
 * are read first and passed in, and the script checks that the session's branches are still those, so a fork
 * adopted meanwhile is looked at again; the refusals are {@link StoreChecks#prune}'s, decided in the script.
 * Thread-safe.
 */
final class HistoryBases {
    private final SessionScripts scripts;
    private final Branches branches;
    private final Sealer sealer;

    HistoryBases(SessionScripts scripts, Branches branches, Sealer sealer) {
        this.sealer = sealer;
        this.scripts = scripts;
        this.branches = branches;
    }

    /**
     * Keeps {@code base} and removes what it stands for, in one script; waits for the replicas when acknowledged
     * writes are on.
     *
     * @return the seq the session is now pruned through
     *
     * @throws SessionNotFoundException when the session does not exist
     * @throws dev.threadline.core.error.InvalidInputException as {@link StoreChecks#prune} refuses; nothing changed
     */
    long prune(SessionKey key, HistoryBase base) {
        sealer.ready(key.tenant());
        String payload = sealer.seal(RecordCodec.encodeBase(base), place(key));
        for (int attempt = 0; attempt < 5; attempt++) {
            Map<String, Long> points = new TreeMap<>();
            List<String> args = new ArrayList<>(List.of(Long.toString(base.seq()), Integer.toString(RecordCodec.VERSION), payload));
            args.addAll(branches.withPoints(key, points));
            Reply r = scripts.acked(key, Scripts.PRUNE, args.toArray(String[]::new));
            switch (r.status()) {
                case "OK" -> {
                    return base.seq();
                }
                case "NF" -> throw new SessionNotFoundException(key.id());
                case "KIDS" -> { } // a branch was adopted or unlinked meanwhile: look again
                case "REFUSED" -> {
                    StoreChecks.prune(RecordCodec.decodeSession(key.id(), r.text(0)), r.number(1), r.number(2), base.seq(), points);
                    throw new StorageException("redis store: the prune of session '" + key.id() + "' through seq " + base.seq()
                            + " was refused for no reason this store knows");
                }
                default -> throw new StorageException("redis store: unexpected reply " + r.status() + " to a prune");
            }
        }
        throw new StorageException("session '" + key.id() + "': its branches kept changing while it was being pruned; try again");
    }

    /**
     * The session's base, or empty when it was never pruned.
     *
     * @throws SessionNotFoundException when the session does not exist
     * @throws StorageException         when the stored base is unreadable
     */
    Optional<HistoryBase> base(SessionKey key) {
        Reply r = scripts.existing(key, Scripts.HBASE);
        if (r.text(1) == null) {
            return Optional.empty();
        }
        int version;
        try {
            version = Integer.parseInt(r.text(0));
        } catch (NumberFormatException e) {
            version = -1; // decodeBase names the session and refuses the version
        }
        return Optional.of(RecordCodec.decodeBase(key.id(), version, sealer.open(r.text(1), place(key))));
    }

    /** The place of a session's history base. */
    static Sealer.Place place(SessionKey key) {
        return new Sealer.Place("base", key.tenant(), key.id(), "");
    }
}
