-- The session's own events with ARGV[1] <= seq <= ARGV[2], as one nested list.
local g = gate(); if g then return g end
local m = redis.call('HMGET', meta, 'base', 'head')
local base, head = tonumber(m[1]), tonumber(m[2])
local from = math.max(tonumber(ARGV[1]), base + 1)
local to = math.min(tonumber(ARGV[2]), head)
if from > to then return {'OK', {}} end
return {'OK', redis.call('LRANGE', ev, from - base - 1, to - base - 1)}
