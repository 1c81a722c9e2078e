-- ARGV: 1 owner, 2 epoch, 3-4 new expiry (seconds, nanos).
local g = gate(); if g then return g end
local m = redis.call('HMGET', meta, 'epoch', 'owner')
if m[2] ~= ARGV[1] or tonumber(m[1]) ~= tonumber(ARGV[2]) then return {'LOST', tonumber(m[1])} end
redis.call('HSET', meta, 'lsec', ARGV[3], 'lnano', ARGV[4])
return {'OK'}
