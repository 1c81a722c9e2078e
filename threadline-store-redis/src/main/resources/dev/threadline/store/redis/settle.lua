-- On a branch whose create was pending. ARGV: 1 its token, 2 '1' to confirm it (its parent adopted it),
-- '0' to drop it (the parent refused it). Another create's session (another token) is left alone.
if redis.call('HGET', meta, 'tok') ~= ARGV[1] or redis.call('HEXISTS', meta, 'pend') == 0 then return {'OK'} end
if ARGV[2] == '1' then
  redis.call('HDEL', meta, 'pend')
else
  redis.call('DEL', meta, ev, cmd, snapi, snap, kids)
end
return {'OK'}
