-- The command record ARGV[1], or nothing.
local g = gate(); if g then return g end
return {'OK', redis.call('HGET', cmd, ARGV[1])}
