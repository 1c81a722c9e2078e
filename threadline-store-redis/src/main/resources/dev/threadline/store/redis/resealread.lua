-- A re-seal's read of a session's events (ADR 0049). ARGV: 1 from seq, 2 how many. Replies
-- {'OK', base, entries} with the entries of seqs max(from, base + 1) on (at most that many), or {'NF'} when the
-- session has no meta. No gate: a branch whose create never finished is re-sealed too (its values may be plain).
local base = redis.call('HGET', meta, 'base')
if not base then return {'NF'} end
local at = math.max(tonumber(ARGV[1]) - tonumber(base) - 1, 0)
return {'OK', base, redis.call('LRANGE', ev, at, at + tonumber(ARGV[2]) - 1)}
