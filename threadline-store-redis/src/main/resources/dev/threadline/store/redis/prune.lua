-- Prunes the session's history through seq ARGV[1] (ADR 0045): keeps the base (ARGV[2] its record version,
-- ARGV[3] its payload) and removes the session's own events and snapshots at or before it. ARGV[4..] are the
-- branches the caller found, three values each: id, token, branch point ('' for one that is gone).
-- Replies OK; KIDS when the branches changed meanwhile (look again); REFUSED with info, head and the seq of the
-- current base (0 for none) when the base is at or past the head, not past the current base or branch point, or
-- past a live branch's branch point. A refusal writes nothing.
local g = gate(); if g then return g end
if redis.call('HLEN', kids) * 3 ~= #ARGV - 3 then return {'KIDS'} end
local b = tonumber(ARGV[1])
local m = redis.call('HMGET', meta, 'info', 'base', 'head')
local first, head = tonumber(m[2]), tonumber(m[3])
local refused = b >= head or b <= first
for i = 4, #ARGV, 3 do
  if redis.call('HGET', kids, ARGV[i]) ~= ARGV[i + 1] then return {'KIDS'} end
  if ARGV[i + 2] ~= '' and tonumber(ARGV[i + 2]) < b then refused = true end
end
if refused then return {'REFUSED', m[1], head, tonumber(redis.call('HGET', hbase, 'seq') or '0')} end
redis.call('LTRIM', ev, b - first, -1)
redis.call('HSET', meta, 'base', b)
local old = redis.call('ZRANGEBYSCORE', snapi, '-inf', b)
for i = 1, #old, 1000 do
  redis.call('HDEL', snap, unpack(old, i, math.min(i + 999, #old)))
end
redis.call('ZREMRANGEBYSCORE', snapi, '-inf', b)
redis.call('HSET', hbase, 'seq', b, 'v', ARGV[2], 'payload', ARGV[3])
return {'OK'}
