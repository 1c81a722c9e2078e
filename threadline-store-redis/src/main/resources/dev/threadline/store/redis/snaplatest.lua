-- Up to 8 stored snapshots with seq <= ARGV[1], newest first, then their seqs in the same order.
local g = gate(); if g then return g end
local seqs = redis.call('ZREVRANGEBYSCORE', snapi, ARGV[1], '-inf', 'LIMIT', 0, 8)
if #seqs == 0 then return {'OK', {}, {}} end
return {'OK', redis.call('HMGET', snap, unpack(seqs)), seqs}
