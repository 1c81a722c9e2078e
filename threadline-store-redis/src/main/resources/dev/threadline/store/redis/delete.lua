-- Deletes the session if its branches are exactly the ones the caller found gone (ARGV: id, token, ...).
-- Replies OK with its token, parent and updated time, or KIDS when its branches changed meanwhile.
local g = gate(); if g then return g end
if redis.call('HLEN', kids) * 2 ~= #ARGV then return {'KIDS'} end
for i = 1, #ARGV, 2 do
  if redis.call('HGET', kids, ARGV[i]) ~= ARGV[i + 1] then return {'KIDS'} end
end
local m = redis.call('HMGET', meta, 'tok', 'par', 'upd')
redis.call('DEL', meta, ev, cmd, snapi, snap, kids, hbase)
return {'OK', m[1], m[2], m[3]}
