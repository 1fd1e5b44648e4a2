/**
 * `phantom-mcp/redis`: the Redis implementations of the seams (`phantom-mcp/seams`), so that
 * several replicas share sessions, resumable streams, tasks and the messages between them.
 * Needs the optional peer dependency `ioredis`.
 *
 * @example
 * import { redis } from 'phantom-mcp/redis';
 * const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], store: redis(process.env.REDIS_URL) });
 *
 * @module phantom-mcp/redis
 */
export { redis, type RedisOptions } from '../cluster/redis';
export { DEFAULT_KEY_PREFIX, type RedisSettings } from '../cluster/redis-connections';
export { RedisSessionStore, DEFAULT_MAX_UPDATE_ATTEMPTS, type RedisSessionStoreOptions } from '../cluster/redis-session-store';
export { RedisEventStore, DEFAULT_EVENT_TTL_MS, DEFAULT_FOLLOWER_CHECK_MS, type RedisEventStoreOptions } from '../cluster/redis-event-store';
export { RedisSessionBus, DEFAULT_BUS_MAX_MESSAGE_BYTES, type RedisSessionBusOptions } from '../cluster/redis-session-bus';
export { RedisTaskStore, DEFAULT_MAX_ABANDONED_PER_CALL, type RedisTaskStoreOptions } from '../cluster/redis-task-store';
