-- KEYS[1]: a tenant's index. Removes ARGV[1] if its score is still ARGV[2] (a re-created session keeps its entry).
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
return {'OK'}
