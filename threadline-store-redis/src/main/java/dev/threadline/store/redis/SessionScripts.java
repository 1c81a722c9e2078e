package dev.threadline.store.redis;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.SessionKey;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.List;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * Runs scripts on one session's keys and settles branches whose create did not finish. A branch is
 * written first (marked unfinished) and becomes real when its parent adopts it (the parent's
 * {@code kids} hash maps its id to its creation token); until then scripts on it reply PEND. This
 * class answers PEND by looking at the parent: adopted means the creator died after the commit point,
 * so the mark is cleared and the script run again; not adopted means the branch does not exist (yet).
 * Thread-safe.
 */
final class SessionScripts {
    private static final Logger LOG = Logs.get(SessionScripts.class);

    private final Connection redis;
    private final Keys keys;

    SessionScripts(Connection redis, Keys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** The script's reply, with PEND settled: the reply of the finished branch, or NF when it is not adopted. */
    Reply run(SessionKey key, Scripts script, String... args) {
        return run(redis.sync, key, script, args);
    }

    /**
     * Like {@link #run}, then, with replicated acknowledgements on, waits for the replicas to confirm
     * (see {@link Connection#acked}) unless the reply says the script wrote nothing.
     */
    Reply acked(SessionKey key, Scripts script, String... args) {
        return redis.acked(keys.session(key)[Keys.META], on -> run(on, key, script, args), SessionScripts::wrote);
    }

    /** Like {@link #raw}, then waits for the replicas as {@link #acked(SessionKey, Scripts, String...)} does. */
    Reply ackedRaw(String[] k, Scripts script, String... args) {
        return redis.acked(k[0], on -> Reply.of(script.run(on, k, args)), SessionScripts::wrote);
    }

    /** Whether a script's reply may follow a write: not for a refusal before any write. */
    private static boolean wrote(Reply r) {
        return !(r.is("NF") || r.is("LEASE") || r.is("SEQ") || r.is("HELD") || r.is("PEND") || r.is("LOST")
                || r.is("EXISTS") || r.is("PASTHEAD") || r.is("KIDS") || r.is("REFUSED"));
    }

    private Reply run(RedisClusterCommands<String, String> on, SessionKey key, Scripts script, String... args) {
        String[] k = keys.session(key);
        for (int attempt = 0; ; attempt++) {
            Reply r = Reply.of(script.run(on, k, args));
            if (!r.is("PEND")) {
                return r;
            }
            if (attempt > 2 || !settle(key, r.text(0), r.text(1))) {
                return new Reply("NF", List.of());
            }
        }
    }

    /** Like {@link #run} but an absent session is a {@link SessionNotFoundException}. */
    Reply existing(SessionKey key, Scripts script, String... args) {
        Reply r = run(key, script, args);
        if (r.is("NF")) {
            throw new SessionNotFoundException(key.id());
        }
        return r;
    }

    /** Runs a script on keys other than a session's (an index, a scope of shared variables). */
    Reply raw(String[] k, Scripts script, String... args) {
        return Reply.of(script.run(redis.sync, k, args));
    }

    /** Whether the unfinished branch (token, parent) was adopted by its parent; if so, marks it finished. */
    boolean settle(SessionKey key, String token, String parent) {
        if (token == null || parent == null) {
            return false;
        }
        if (!token.equals(redis.sync.hget(keys.session(key.sibling(parent))[Keys.KIDS], key.id()))) {
            return false;
        }
        raw(keys.session(key), Scripts.SETTLE, token, "1");
        return true;
    }

    /** Confirms ("1") or drops ("0") a branch of this token; a failure is logged, the next access settles it. */
    void settleQuietly(SessionKey key, String token, String adopted) {
        try {
            raw(keys.session(key), Scripts.SETTLE, token, adopted);
        } catch (RuntimeException e) {
            LOG.warn("redis store: branch '{}' stays marked unfinished ({}); the next access settles it", key.id(), Failures.cause(e));
        }
    }
}
