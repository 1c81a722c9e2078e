-- On a parent: forgets branch ARGV[1] if it is still the one of token ARGV[2].
if redis.call('HGET', kids, ARGV[1]) == ARGV[2] then redis.call('HDEL', kids, ARGV[1]) end
return {'OK'}
