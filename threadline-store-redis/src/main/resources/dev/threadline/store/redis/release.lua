-- ARGV: 1 owner, 2 epoch. Gives the lease up only if it is still this one.
if redis.call('EXISTS', meta) == 0 then return {'OK'} end
local m = redis.call('HMGET', meta, 'epoch', 'owner')
if m[2] == ARGV[1] and tonumber(m[1]) == tonumber(ARGV[2]) then
  redis.call('HDEL', meta, 'owner', 'lsec', 'lnano')
end
return {'OK'}
