-- KEYS[1]: one scope's shared variables. ARGV: 1 number of removed names, then the names, then name, json, ...
local n = tonumber(ARGV[1])
for i = 2, n + 1 do redis.call('HDEL', KEYS[1], ARGV[i]) end
for i = n + 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return {'OK'}
