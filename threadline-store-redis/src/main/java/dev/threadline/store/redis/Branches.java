package dev.threadline.store.redis;

import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.internal.json.RecordCodec;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The links between a session and its branches, which live in different hash slots. A branch's create
 * is committed by its parent's adoption (a script on the parent that checks the branch point and the
 * command id and maps the branch's id to its creation token); a delete unlinks after it deletes. A link
 * left by a delete that died before unlinking is told apart by its token: the branch it names is gone,
 * or is another session of the same id. Thread-safe.
 */
final class Branches {
    private final Connection redis;
    private final Keys keys;
    private final SessionScripts scripts;
    private final long timeoutMillis;
    private final Sealer sealer;

    Branches(Connection redis, Keys keys, SessionScripts scripts, long timeoutMillis, Sealer sealer) {
        this.sealer = sealer;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * The commit point of a branch's create; on refusal the unfinished branch is dropped.
     *
     * @throws SessionNotFoundException  when the parent does not exist
     * @throws InvalidInputException     when the branch point is past the parent's head or in its pruned history
     * @throws DuplicateCommandException when the parent already has the command id
     */
    void adopt(SessionInfo info, String token, CommandRecord onParent, Instant now) {
        SessionKey key = SessionKey.of(info);
        SessionKey parent = key.sibling(info.parentId());
        Reply r;
        try {
            r = scripts.acked(parent, Scripts.ADOPT, key.id(), token, Long.toString(info.parentSeq()),
                    onParent == null ? "" : onParent.commandId(), onParent == null ? "" : Records.encodeCommand(onParent, sealer),
                    Long.toString(now.toEpochMilli()));
        } catch (RuntimeException e) {
            scripts.settleQuietly(key, token, "0");
            throw e;
        }
        if (r.is("OK")) {
            scripts.settleQuietly(key, token, "1");
            return;
        }
        scripts.raw(keys.session(key), Scripts.SETTLE, token, "0");
        switch (r.status()) {
            case "NF" -> throw new SessionNotFoundException(info.parentId());
            case "PASTHEAD" -> StoreChecks.branchPoint(info, r.number(0));
            case "PRUNED" -> StoreChecks.branchPoint(info, r.number(0), r.number(1));
            case "DUP" -> throw new DuplicateCommandException(Records.decodeCommand(parent, onParent.commandId(), r.text(0), sealer));
            default -> { }
        }
        throw new StorageException("redis store: unexpected reply " + r.status() + " to the adoption of '" + key.id() + "'");
    }

    /** The live branches of a session, sorted. */
    List<String> of(SessionKey key) {
        List<String> live = live(key, adopted(key));
        live.sort(null);
        return live;
    }

    /**
     * Deletes the session unless live branches depend on it, then unlinks it from its parent and the
     * index (each only if the entry is still this session's).
     */
    void delete(SessionKey key) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Map<String, String> adopted = adopted(key);
            List<String> live = live(key, adopted);
            if (!live.isEmpty()) {
                live.sort(null);
                throw new InvalidInputException("session", "'" + key.id() + "' has branches " + live
                        + " that share its journal; delete them first");
            }
            List<String> gone = new ArrayList<>();
            adopted.forEach((id, token) -> {
                gone.add(id);
                gone.add(token);
            });
            Reply r = scripts.acked(key, Scripts.DELETE, gone.toArray(String[]::new));
            if (r.is("NF")) {
                throw new SessionNotFoundException(key.id());
            }
            if (r.is("KIDS")) {
                continue; // a branch was adopted meanwhile: look again
            }
            if (r.text(1) != null) {
                scripts.raw(keys.session(key.sibling(r.text(1))), Scripts.DISOWN, key.id(), r.text(0));
            }
            scripts.raw(new String[] {keys.index(key.tenant())}, Scripts.UNINDEX, key.id(),
                    Long.toString((long) Records.score(Instant.parse(r.text(2)))));
            Expiry.remove(redis, keys, key);
            return;
        }
        throw new StorageException("session '" + key.id() + "': its branches kept changing while it was being deleted; try again");
    }

    /**
     * The branches the session adopted as {@code prune.lua} takes them, three values each: id, token, and the
     * branch point of a live one ({@code ""} for one that is gone); {@code points} gets each live one's branch
     * point. One pipelined round after the session's links are read.
     *
     * @throws SessionNotFoundException when the session does not exist
     */
    List<String> withPoints(SessionKey key, Map<String, Long> points) {
        Map<String, String> adopted = adopted(key);
        Map<String, RedisFuture<List<KeyValue<String, String>>>> rows = new HashMap<>();
        adopted.keySet().forEach(id -> rows.put(id, redis.async.hmget(keys.session(key.sibling(id))[Keys.META], "tok", "info")));
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : adopted.entrySet()) {
            List<KeyValue<String, String>> row = await(rows.get(e.getKey()), e.getKey());
            String point = "";
            if (e.getValue().equals(row.get(0).getValueOrElse(null)) && row.get(1).hasValue()) {
                long p = RecordCodec.decodeSession(e.getKey(), row.get(1).getValue()).parentSeq();
                points.put(e.getKey(), p);
                point = Long.toString(p);
            }
            out.addAll(List.of(e.getKey(), e.getValue(), point));
        }
        return out;
    }

    /** The branches the session adopted, id to token (some may be gone). */
    private Map<String, String> adopted(SessionKey key) {
        List<String> pairs = scripts.existing(key, Scripts.KIDS).list(0);
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            out.put(pairs.get(i), pairs.get(i + 1));
        }
        return out;
    }

    /** Of the adopted branches, those that still exist as the session adopted (same token); one pipelined round. */
    private List<String> live(SessionKey key, Map<String, String> adopted) {
        Map<String, RedisFuture<String>> tokens = new HashMap<>();
        adopted.keySet().forEach(id -> tokens.put(id, redis.async.hget(keys.session(key.sibling(id))[Keys.META], "tok")));
        List<String> live = new ArrayList<>();
        for (Map.Entry<String, String> e : adopted.entrySet()) {
            if (e.getValue().equals(await(tokens.get(e.getKey()), e.getKey()))) {
                live.add(e.getKey());
            }
        }
        return live;
    }

    private <T> T await(RedisFuture<T> f, String branch) {
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while checking branch '" + branch + "'", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new StorageException("redis store " + redis.url() + " unavailable: cannot check branch '" + branch
                    + "' (" + Failures.cause(e) + ")", e);
        }
    }
}
