-- On the parent: the commit point of a branch's create. ARGV: 1 branch id, 2 its token, 3 branch point,
-- 4 command id (or ''), 5 command record, 6 now (epoch ms; unused, as in create.lua).
local g = gate(); if g then return g end
local head = tonumber(redis.call('HGET', meta, 'head'))
if tonumber(ARGV[3]) > head then return {'PASTHEAD', head} end
local pruned = tonumber(redis.call('HGET', hbase, 'seq') or '0')
if tonumber(ARGV[3]) < pruned then return {'PRUNED', head, pruned} end
if ARGV[4] ~= '' then
  local e = redis.call('HGET', cmd, ARGV[4])
  if e then return {'DUP', e} end
  redis.call('HSET', cmd, ARGV[4], ARGV[5])
end
redis.call('HSET', kids, ARGV[1], ARGV[2])
return {'OK'}
