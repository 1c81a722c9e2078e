-- Shared by every script. KEYS are one session's keys, all in one hash slot:
-- meta (hash), ev (list of events), cmd (hash of command records), snapi (zset of snapshot seqs),
-- snap (hash seq -> snapshot), kids (hash branch id -> creation token), hbase (hash: the history base of a
-- pruned session, ADR 0045: seq, v (record version), payload). The list ev holds seqs base+1..head, where
-- meta's base is the branch point, or the seq the session was pruned through once it was.
local meta, ev, cmd, snapi, snap, kids, hbase = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]

-- nil when the session exists and is complete; otherwise the reply that says why not:
-- NF (no such session) or PEND (a branch whose create may not have reached its parent yet).
local function gate()
  if redis.call('EXISTS', meta) == 0 then return {'NF'} end
  if redis.call('HEXISTS', meta, 'pend') == 1 then
    local t = redis.call('HMGET', meta, 'tok', 'par', 'upd')
    return {'PEND', t[1], t[2], t[3]}
  end
  return nil
end

-- Redis never removes a session by itself: retention does (Threadline.sweep, after taking its lease), as on
-- the other stores, since a PEXPIRE would drop a session whose turn is still running. Keys an older version
-- gave a PEXPIRE keep it (those sessions may not be in the expiry index, which came later).
