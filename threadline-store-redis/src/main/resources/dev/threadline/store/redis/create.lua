-- Creates a session with its first events. ARGV: 1 token of a stale pending create to replace (or ''),
-- 2 info json, 3 base (parentSeq), 4 updated, 5 token, 6 pending flag, 7 parent id (or ''), 8 expiry ms (or ''),
-- 9 command id (or ''), 10 command record, 11 now (epoch ms; unused since expiry left Redis for the sweeper),
-- 12 history base record version (or '' for none), 13 its payload (a session created from a base, ADR 0045: ARGV[3]
-- is then the base's seq, so a read before it finds the gap a prune leaves), 14.. events.
if redis.call('EXISTS', meta) == 1 then
  local t = redis.call('HMGET', meta, 'pend', 'tok', 'par', 'upd')
  if not t[1] then return {'EXISTS'} end
  if ARGV[1] == '' or t[2] ~= ARGV[1] then return {'PEND', t[2], t[3], t[4]} end
  redis.call('DEL', meta, ev, cmd, snapi, snap, kids, hbase)
end
local n = #ARGV - 13
redis.call('HSET', meta, 'info', ARGV[2], 'base', ARGV[3], 'head', tonumber(ARGV[3]) + n, 'upd', ARGV[4],
  'tok', ARGV[5], 'epoch', 0)
if ARGV[6] == '1' then redis.call('HSET', meta, 'pend', '1') end
if ARGV[7] ~= '' then redis.call('HSET', meta, 'par', ARGV[7]) end
if ARGV[8] ~= '' then redis.call('HSET', meta, 'exp', ARGV[8]) end
for i = 14, #ARGV do redis.call('RPUSH', ev, ARGV[i]) end
if ARGV[9] ~= '' then redis.call('HSET', cmd, ARGV[9], ARGV[10]) end
if ARGV[12] ~= '' then redis.call('HSET', hbase, 'seq', ARGV[3], 'v', ARGV[12], 'payload', ARGV[13]) end
return {'OK'}
