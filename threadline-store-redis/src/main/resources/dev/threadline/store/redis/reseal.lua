-- A re-seal's write (ADR 0049): values sealed again, each replaced only where it still holds what was read, so a
-- value another writer changed meanwhile keeps what that writer wrote. ARGV: groups of five, kind, a, b, old, new:
--   E: the event of seq a (an entry of ev, at a - base - 1: a prune meanwhile moved it);
--   H: field b of the hash KEYS[a] (a snapshot, the base's payload, a command record, a variable);
--   I: meta's ireason, while meta's iepoch is still a (the reason's place);
--   W: meta's wip, while meta's upd is still a (the step that recorded it has not been followed by another).
-- Replies {'OK', how many were replaced}.
local n = 0
for i = 1, #ARGV, 5 do
  local kind, a, b, old, new = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  if kind == 'E' then
    local base = redis.call('HGET', meta, 'base')
    local at = base and tonumber(a) - tonumber(base) - 1 or -1
    if at >= 0 and redis.call('LINDEX', ev, at) == old then
      redis.call('LSET', ev, at, new)
      n = n + 1
    end
  elseif kind == 'H' then
    local key = KEYS[tonumber(a)]
    if redis.call('HGET', key, b) == old then
      redis.call('HSET', key, b, new)
      n = n + 1
    end
  else
    local m = redis.call('HMGET', meta, kind == 'I' and 'iepoch' or 'upd', kind == 'I' and 'ireason' or 'wip')
    if m[1] == a and m[2] == old then
      redis.call('HSET', meta, kind == 'I' and 'ireason' or 'wip', new)
      n = n + 1
    end
  end
end
return {'OK', n}
