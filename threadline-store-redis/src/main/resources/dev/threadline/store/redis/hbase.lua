-- The session's history base (ADR 0045): its record version and payload, both nil when it was never pruned.
local g = gate(); if g then return g end
local m = redis.call('HMGET', hbase, 'v', 'payload')
return {'OK', m[1], m[2]}
