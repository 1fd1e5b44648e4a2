import { RedisScript } from './redis-script';

/*
 * The task store's steps, each one atomic in Redis. The keys they touch (under the prefix, all
 * with the hash tag {tasks}, so one step stays on one slot of a Redis Cluster):
 *   task:<id>        a hash: `json` (the record) and `v` (its version, raised by every write),
 *                    dropped by Redis at createdAt + ttlMs (PEXPIREAT)
 *   owner:<owner>    the owner's task ids scored by a sequence number (creation order): list
 *   running:<owner>  the owner's tasks that are not terminal, scored by createdAt + ttlMs: the
 *                    active count, where a task past its ttl leaves by score
 *   leases           the tasks that are not terminal and have a lease, scored by leaseUntil
 *   finished:<owner> the owner's finished tasks that hold an outcome, scored by a sequence number
 *                    (the order they finished)
 *   sizes:<owner>    a hash: for each of those, "<bytes of its outcome>:<its expireAt>"
 *   seq              the sequence number
 * Each sorted set (and the sequence) expires with the last task it names, so Redis frees them
 * once an owner's tasks are all gone, even when nobody lists them again. Ids whose task Redis
 * already dropped are pruned by the readers.
 */

/**
 * Lua helper: makes `key` expire at `at` (ms since the epoch) unless it already lives longer.
 * (PEXPIREAT's NX and GT would say this in one call, but need Redis 7; this runs on 6.2.)
 */
const EXTEND = `
local function extend(key, at)
  local clock = redis.call('TIME')
  local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 or now + ttl < tonumber(at) then redis.call('PEXPIREAT', key, at) end
end
`;

/**
 * Stores a new task unless its owner has `maxActive` tasks running. KEYS: task, owner, running,
 * leases, seq. ARGV: id, json, expireAt, now, maxActive, '1' when the task is not terminal,
 * leaseUntil ('' for none). Answers 1 when stored, 0 when refused, -1 when the id is taken.
 */
export const CREATE = new RedisScript(`${EXTEND}
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local id, at = ARGV[1], ARGV[3]
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[4])
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'v', 1)
redis.call('PEXPIREAT', KEYS[1], at)
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[5]), id)
extend(KEYS[2], at)
extend(KEYS[5], at)
if ARGV[6] == '1' then
  redis.call('ZADD', KEYS[3], at, id)
  extend(KEYS[3], at)
  if ARGV[7] ~= '' then
    redis.call('ZADD', KEYS[4], ARGV[7], id)
    extend(KEYS[4], at)
  end
end
return 1
`);

/**
 * Replaces a task if its version is still the one read (compare-and-set), keeping the running
 * set and the leases in step with the new record. KEYS: task, owner, running, leases. ARGV: id,
 * the version read, json, expireAt, '1' when not terminal, leaseUntil ('' for none). Answers 1
 * when written, 0 when another write came first (or the task is gone).
 */
export const COMMIT = new RedisScript(`${EXTEND}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[2] then return 0 end
local id, at = ARGV[1], ARGV[4]
redis.call('HSET', KEYS[1], 'json', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('PEXPIREAT', KEYS[1], at)
extend(KEYS[2], at)
if ARGV[5] == '1' then
  redis.call('ZADD', KEYS[3], at, id)
  extend(KEYS[3], at)
else
  redis.call('ZREM', KEYS[3], id)
end
if ARGV[5] == '1' and ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[6], id)
  extend(KEYS[4], at)
else
  redis.call('ZREM', KEYS[4], id)
end
return 1
`);

/** The JSON of each task of KEYS, in order, nil for one Redis no longer holds. */
export const READ_MANY = new RedisScript(`
local found = {}
for i = 1, #KEYS do found[i] = redis.call('HGET', KEYS[i], 'json') end
return found
`);

/**
 * Counts a task that has just ended holding an outcome among its owner's finished ones, and takes
 * out of the count the oldest ones beyond the bound (forgetting those past their expiry on the
 * way). KEYS: finished, sizes, seq. ARGV: id, bytes, expireAt, now, maxCount, maxBytes. Answers
 * the ids taken out, oldest first: the caller drops their outcomes.
 */
export const KEEP_FINISHED = new RedisScript(`${EXTEND}
local id, at, now = ARGV[1], ARGV[3], tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), id)
redis.call('HSET', KEYS[2], id, ARGV[2] .. ':' .. at)
extend(KEYS[1], at)
extend(KEYS[2], at)
extend(KEYS[3], at)
local live, sizes, count, total = {}, {}, 0, 0
for _, each in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local entry = redis.call('HGET', KEYS[2], each)
  local sep = entry and string.find(entry, ':', 1, true)
  if sep and tonumber(string.sub(entry, sep + 1)) > now then
    count = count + 1
    live[count] = each
    sizes[count] = tonumber(string.sub(entry, 1, sep - 1))
    total = total + sizes[count]
  else
    redis.call('ZREM', KEYS[1], each)
    redis.call('HDEL', KEYS[2], each)
  end
end
local dropped = {}
for i = 1, #live do
  if count <= tonumber(ARGV[5]) and total <= tonumber(ARGV[6]) then break end
  redis.call('ZREM', KEYS[1], live[i])
  redis.call('HDEL', KEYS[2], live[i])
  dropped[#dropped + 1] = live[i]
  count = count - 1
  total = total - sizes[i]
end
return dropped
`);
