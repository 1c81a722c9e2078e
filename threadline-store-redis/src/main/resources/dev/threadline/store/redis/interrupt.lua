-- ARGV: 1 epoch, 2 reason. Records the session's interrupt request for that lease epoch (fields iepoch,
-- ireason of meta), replacing one not taken yet; it is gone with the session's keys.
local g = gate(); if g then return g end
redis.call('HSET', meta, 'iepoch', ARGV[1], 'ireason', ARGV[2])
return {'OK'}
