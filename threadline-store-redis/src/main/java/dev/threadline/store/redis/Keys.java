package dev.threadline.store.redis;

import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.SessionKey;

/**
 * The keyspace. Every key of one session carries the hash tag {@code {tenant/id}}, so all of them are
 * in one hash slot and one Lua script may touch them atomically, on Redis Cluster too (ids and tenants
 * cannot hold braces, so the tag is exactly that). What spans sessions is kept apart, each under a tag
 * of its own: a tenant's index {@code {tenant}} and each scope of shared variables; the expiry index of
 * all tenants is one key. Immutable.
 *
 * @param prefix the first part of every key (one prefix per Threadline deployment on a server)
 */
record Keys(String prefix) {
    /** Positions in {@link #session}'s array. */
    static final int META = 0, EVENTS = 1, KIDS = 5, HBASE = 6;

    /** The session's keys in the order the scripts expect: meta, ev, cmd, snapi, snap, kids, hbase (its history base). */
    String[] session(SessionKey key) {
        String base = prefix + ":{" + key.tenant() + "/" + key.id() + "}:";
        return new String[] {base + "meta", base + "ev", base + "cmd", base + "snapi", base + "snap", base + "kids", base + "hbase"};
    }

    /** The sorted set of a tenant's session ids, by update time (score: minus the epoch millisecond). */
    String index(String tenant) {
        return prefix + ":idx:{" + tenant + "}";
    }

    /** The sorted set of every tenant's sessions that expire, by expiry (see {@link Expiry}). */
    String expiry() {
        return prefix + ":exp";
    }

    /** The hash of a tenant's wrapped data keys (ADR 0049): field the key's number, value {@link Records#encodeDataKey}. */
    String dataKeys(String tenant) {
        return prefix + ":dek:{" + tenant + "}";
    }

    /** The hash of one scope's shared variables ({@code key} is a ScopedWrite key). */
    String variables(VariableScope scope, String key) {
        return prefix + ":var:{" + scope.wireName() + ":" + key + "}";
    }
}
