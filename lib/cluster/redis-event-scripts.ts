import { RedisScript } from './redis-script';

/*
 * The event store's steps, each one atomic in Redis. Their keys, in order:
 *   KEYS[1]  the stream's record: a hash of `session`, `kind` (for a session's standalone stream
 *            only), `seq` (the last sequence number given out) and `ended` (set once the stream ended)
 *   KEYS[2]  the stream's events: a Redis stream whose entry ids are `0-<seq>`, one field `m`
 * Every step that changes a stream publishes on its channel, which tells followers to read again.
 */

/**
 * Numbers the next event and stores it (unless it is the priming event or the stream ended),
 * keeping the newest `max`; the first append records the stream's session and kind. ARGV: session
 * id, the message JSON ('' for the priming event), max, TTL in ms, channel, kind ('' for none).
 * Answers the sequence number.
 */
export const APPEND = new RedisScript(`
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
if redis.call('HSETNX', KEYS[1], 'session', ARGV[1]) == 1 and ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'kind', ARGV[6])
end
if ARGV[2] ~= '' and redis.call('HEXISTS', KEYS[1], 'ended') == 0 then
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], '0-' .. seq, 'm', ARGV[2])
  redis.call('PUBLISH', ARGV[5], seq)
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return seq
`);

/** Marks a known stream ended, once. ARGV: TTL in ms, channel. */
export const END = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HSETNX', KEYS[1], 'ended', '1') == 1 then redis.call('PUBLISH', ARGV[2], 'end') end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1
`);

/**
 * What a reader needs in one consistent view: [session | nil, ended (0 or 1), entries after the
 * given sequence number]. ARGV: that sequence number.
 */
export const READ_AFTER = new RedisScript(`
local record = redis.call('HMGET', KEYS[1], 'session', 'ended')
if not record[1] then return { false, 0, {} } end
return { record[1], record[2] and 1 or 0, redis.call('XRANGE', KEYS[2], '(0-' .. ARGV[1], '+') }
`);

/** Forgets a stream. ARGV: channel. */
export const DROP = new RedisScript(`
local dropped = redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[1], 'end')
return dropped
`);
