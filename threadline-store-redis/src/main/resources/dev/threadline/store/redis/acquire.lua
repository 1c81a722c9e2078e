-- ARGV: 1 owner, 2-3 now (seconds, nanos), 4-5 expiry (seconds, nanos), 6 owner proven dead (or '').
local g = gate(); if g then return g end
local m = redis.call('HMGET', meta, 'epoch', 'owner', 'lsec', 'lnano')
local epoch = tonumber(m[1])
if m[2] == ARGV[1] then
  redis.call('HSET', meta, 'lsec', ARGV[4], 'lnano', ARGV[5])
  return {'OK', epoch}
end
if m[2] and m[2] ~= ARGV[6] then
  local s, n, ns, nn = tonumber(m[3]), tonumber(m[4]), tonumber(ARGV[2]), tonumber(ARGV[3])
  if ns < s or (ns == s and nn < n) then return {'HELD', epoch, m[2], m[3], m[4]} end
end
redis.call('HSET', meta, 'epoch', epoch + 1, 'owner', ARGV[1], 'lsec', ARGV[4], 'lnano', ARGV[5])
if m[2] then return {'OK', epoch + 1, m[2], m[1], m[3], m[4]} end
return {'OK', epoch + 1}
