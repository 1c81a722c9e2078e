-- The session's row: info, head, updated, epoch, lease owner and expiry (seconds, nanos), parent, token.
local g = gate(); if g then return g end
local m = redis.call('HMGET', meta, 'info', 'head', 'upd', 'epoch', 'owner', 'lsec', 'lnano', 'par', 'tok')
return {'OK', m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9]}
