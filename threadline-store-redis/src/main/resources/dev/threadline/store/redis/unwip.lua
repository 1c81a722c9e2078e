-- Clears the shared writes recorded by an append once they are applied. ARGV: 1 the writes as recorded.
if redis.call('HGET', meta, 'wip') == ARGV[1] then redis.call('HDEL', meta, 'wip') end
return {'OK'}
