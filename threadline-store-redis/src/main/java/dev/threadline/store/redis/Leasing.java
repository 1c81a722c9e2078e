package dev.threadline.store.redis;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Leases as scripts on the session's meta hash (fields {@code epoch}, {@code owner}, {@code lsec},
 * {@code lnano}), judged by the time this store's clock passes in. The server's own clock plays no
 * part, so the clocks of the processes sharing a server must agree to well within a lease's ttl (NTP
 * keeps them within milliseconds; a lease is seconds). An interrupt request's reason is sealed with encryption at
 * rest on. Thread-safe.
 */
final class Leasing {
    private final SessionScripts scripts;
    private final Clock clock;
    private final Sealer sealer;

    Leasing(SessionScripts scripts, Clock clock, Sealer sealer) {
        this.sealer = sealer;
        this.scripts = scripts;
        this.clock = clock;
    }

    LeaseResult acquire(SessionKey key, String owner, Duration ttl, String deadHolder) {
        Instant now = clock.instant();
        Instant until = now.plus(ttl);
        String[] n = Records.secNanos(now);
        String[] u = Records.secNanos(until);
        Reply r = scripts.acked(key, Scripts.ACQUIRE, owner, n[0], n[1], u[0], u[1], deadHolder == null ? "" : deadHolder);
        if (r.is("NF")) {
            throw new SessionNotFoundException(key.id());
        }
        if (r.is("HELD")) {
            return new LeaseResult.Held(new Lease(key, r.text(1), r.number(0), Records.instant(r.text(2), r.text(3))));
        }
        Lease previous = r.values().size() > 1
                ? new Lease(key, r.text(1), Long.parseLong(r.text(2)), Records.instant(r.text(3), r.text(4))) : null;
        return new LeaseResult.Acquired(new Lease(key, owner, r.number(0), until), previous);
    }

    Lease renew(Lease lease, Duration ttl) {
        Instant until = clock.instant().plus(ttl);
        String[] u = Records.secNanos(until);
        Reply r = scripts.existing(lease.key(), Scripts.RENEW, lease.owner(), Long.toString(lease.epoch()), u[0], u[1]);
        if (r.is("LOST")) {
            throw new LeaseLostException(lease.key().id(), lease.epoch(), r.number(0));
        }
        return new Lease(lease.key(), lease.owner(), lease.epoch(), until);
    }

    void release(Lease lease) {
        scripts.run(lease.key(), Scripts.RELEASE, lease.owner(), Long.toString(lease.epoch()));
    }

    /** Records an interrupt request for the holder at {@code epoch} ({@code interrupt.lua}). */
    void requestInterrupt(SessionKey key, long epoch, String reason) {
        sealer.ready(key.tenant());
        scripts.existing(key, Scripts.INTERRUPT, Long.toString(epoch), sealer.seal(reason, place(key, epoch)));
    }

    /** The place of the reason of an interrupt request at {@code epoch}. */
    static Sealer.Place place(SessionKey key, long epoch) {
        return new Sealer.Place("interrupt", key.tenant(), key.id(), Long.toString(epoch));
    }

    /** Takes the request made for this lease's epoch while it is current ({@code takeinterrupt.lua}). */
    Optional<String> takeInterruptRequest(Lease lease) {
        Reply r = scripts.run(lease.key(), Scripts.TAKEINTERRUPT, Long.toString(lease.epoch()));
        return r.is("OK") ? Optional.of(sealer.open(r.text(0), place(lease.key(), lease.epoch()))) : Optional.empty();
    }

    /** The lease in a {@code describe.lua} reply (epoch, owner, lsec, lnano at 3..6), or empty. */
    static Optional<Lease> of(SessionKey key, Reply described) {
        return described.text(4) == null ? Optional.empty() : Optional.of(new Lease(key, described.text(4),
                Long.parseLong(described.text(3)), Records.instant(described.text(5), described.text(6))));
    }
}
