package dev.threadline.store.redis;

import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.SessionKey;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A Redis store's snapshots: each in the session's {@code snap} hash by seq (indexed by the {@code snapi} sorted
 * set), stored as {@code version, newline, payload}; sealed whole, with its session and seq as the place, when
 * encryption at rest is on. Thread-safe.
 */
final class Snapshots {
    private final SessionScripts scripts;
    private final Sealer sealer;
    private final Clock clock;

    Snapshots(SessionScripts scripts, Sealer sealer, Clock clock) {
        this.scripts = scripts;
        this.sealer = sealer;
        this.clock = clock;
    }

    /** Saves {@code snapshot} ({@code snapsave.lua}); the tenant is made ready first, so a missing key writes nothing. */
    void save(SessionKey key, StateSnapshot snapshot) {
        sealer.ready(key.tenant());
        String stored = sealer.seal(RecordCodec.VERSION + "\n" + RecordCodec.encodeSnapshot(snapshot), place(key, snapshot.seq()));
        scripts.existing(key, Scripts.SNAPSAVE, Long.toString(snapshot.seq()), stored, Long.toString(clock.millis()));
    }

    /** The newest readable snapshot at or before {@code maxSeq} ({@code snaplatest.lua}: up to 8, with their seqs). */
    Optional<StateSnapshot> latest(SessionKey key, long maxSeq) {
        Reply r = scripts.existing(key, Scripts.SNAPLATEST, Long.toString(maxSeq));
        List<String> stored = r.list(0);
        List<String> seqs = r.list(1);
        for (int i = 0; i < stored.size(); i++) {
            StateSnapshot s = decode(key.id(), sealer.open(stored.get(i), place(key, Long.parseLong(seqs.get(i)))));
            if (s != null) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The place of a session's snapshot at {@code seq}. */
    static Sealer.Place place(SessionKey session, long seq) {
        return new Sealer.Place("snapshot", session.tenant(), session.id(), Long.toString(seq));
    }

    /** A stored snapshot (opened when it was sealed), or null when it is old or corrupt (snapshots are a cache). */
    private static StateSnapshot decode(String sessionId, String stored) {
        int eol = stored == null ? -1 : stored.indexOf('\n');
        if (eol <= 0) {
            return null;
        }
        try {
            return RecordCodec.decodeSnapshot(sessionId, Integer.parseInt(stored.substring(0, eol)), stored.substring(eol + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
