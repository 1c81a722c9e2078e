-- Shared by every script. KEYS are one session's keys, all in one hash slot:
-- meta (hash), ev (list of events), cmd (hash of command records), snapi (zset of snapshot seqs),
-- snap (hash seq -> snapshot), kids (hash branch id -> creation token).
local meta, ev, cmd, snapi, snap, kids = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]

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

-- Gives every key of the session its expiry (SessionInfo.expiresAt, epoch ms), when it has one. The time
-- left is judged by the writer's clock (now_ms, passed in), not the server's, like lease expiry.
local function expire(now_ms)
  local at = redis.call('HGET', meta, 'exp')
  if at then
    local left = math.max(1, tonumber(at) - tonumber(now_ms))
    for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, left) end
  end
end
