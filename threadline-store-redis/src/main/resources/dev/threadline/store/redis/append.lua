-- The fenced, conditional append. ARGV: 1 expected seq, 2 epoch, 3 updated, 4 command id (or ''),
-- 5 command record, 6 shared writes to apply after it (or ''), 7 now (epoch ms; unused, as in create.lua), 8.. events (numbered from expected + 1).
local g = gate(); if g then return g end
local m = redis.call('HMGET', meta, 'epoch', 'head', 'wip')
local epoch, head = tonumber(m[1]), tonumber(m[2])
if epoch ~= tonumber(ARGV[2]) then return {'LEASE', epoch} end
if head ~= tonumber(ARGV[1]) then return {'SEQ', head} end
if m[3] then return {'WIP', m[3]} end
if ARGV[4] ~= '' then
  local e = redis.call('HGET', cmd, ARGV[4])
  if e then return {'DUP', e} end
end
for i = 8, #ARGV do redis.call('RPUSH', ev, ARGV[i]) end
local nh = head + #ARGV - 7
redis.call('HSET', meta, 'head', nh, 'upd', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', cmd, ARGV[4], ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', meta, 'wip', ARGV[6]) end
return {'OK', nh}
