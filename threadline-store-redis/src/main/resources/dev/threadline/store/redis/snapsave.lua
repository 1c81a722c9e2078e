-- ARGV: 1 seq, 2 stored snapshot, 3 now (epoch ms; unused, as in create.lua).
local g = gate(); if g then return g end
redis.call('ZADD', snapi, ARGV[1], ARGV[1])
redis.call('HSET', snap, ARGV[1], ARGV[2])
return {'OK'}
