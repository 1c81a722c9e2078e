-- ARGV: 1 epoch. Takes (removes and returns) the request made for that epoch while it is still the
-- session's current one: {'OK', reason}; otherwise {'NONE'} and nothing changes.
if redis.call('EXISTS', meta) == 0 then return {'NONE'} end
local m = redis.call('HMGET', meta, 'epoch', 'iepoch', 'ireason')
if not m[3] or tonumber(m[1]) ~= tonumber(ARGV[1]) or tonumber(m[2]) ~= tonumber(ARGV[1]) then return {'NONE'} end
redis.call('HDEL', meta, 'iepoch', 'ireason')
return {'OK', m[3]}
