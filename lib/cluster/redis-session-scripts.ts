import { RedisScript } from './redis-script';

/*
 * The session store's steps, each one atomic in Redis. Their keys, in order:
 *   KEYS[1]  the session's state (JSON, lastActiveAt left out)
 *   KEYS[2]  the activity index: a sorted set of session ids scored by lastActiveAt
 *   KEYS[3+] subscriber sets (one per URI) the step adds the session to or removes it from
 * A step that changes a session first compares the stored JSON with the one its caller read
 * (compare-and-set): on a difference it changes nothing and answers 0, and the caller reads the
 * fresher state and decides again.
 */

/** The state and its lastActiveAt: [json | nil, score | nil]. ARGV: id. */
export const READ = new RedisScript(`
return { redis.call('GET', KEYS[1]), redis.call('ZSCORE', KEYS[2], ARGV[1]) }
`);

/**
 * Writes (or deletes) a session if it is still as read. ARGV: id, the JSON read ('' when there
 * was none), the next JSON ('' to delete), lastActiveAt ('' to keep it), TTL in ms, and how many
 * of KEYS[3+] to add the session to (the rest it leaves). Answers 1 when written.
 */
export const COMMIT = new RedisScript(`
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[2] then return 0 end
local id = ARGV[1]
local adds = tonumber(ARGV[6])
for i = 3, #KEYS do
  if i - 2 <= adds then redis.call('SADD', KEYS[i], id) else redis.call('SREM', KEYS[i], id) end
end
if ARGV[3] == '' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], id)
else
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[5])
  if ARGV[4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], id) end
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
return 1
`);

/**
 * Marks a stored session active: its lastActiveAt never moves back (GT), so a node whose clock
 * lags cannot shorten another's touch. ARGV: id, now, TTL in ms. Answers 0 for no such session.
 */
export const TOUCH = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], 'GT', ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
`);

/**
 * Expires a session if it is still as read and still idle (lastActiveAt before the cutoff), and
 * tells every node on the expiry channel. The node whose step removes the id from the index is
 * the one that announces it: the others answer 0. ARGV: id, the JSON read ('' when Redis had
 * already dropped it), cutoff, channel, message.
 */
export const EXPIRE = new RedisScript(`
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[2] then return 0 end
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not score or tonumber(score) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
for i = 3, #KEYS do redis.call('SREM', KEYS[i], ARGV[1]) end
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1
`);

/**
 * The sessions of one subscriber set with their lastActiveAt: [id, score, id, score ...]. Ids no
 * longer in the index (a session Redis dropped before any node swept it) leave the set here.
 * KEYS: the subscriber set, the index.
 */
export const SUBSCRIBERS = new RedisScript(`
local found = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local score = redis.call('ZSCORE', KEYS[2], id)
  if score then
    found[#found + 1] = id
    found[#found + 1] = score
  else
    redis.call('SREM', KEYS[1], id)
  end
end
return found
`);
