import type { RedisConnections } from './redis-connections';

/** What the Redis stores use of the connections: they never open or close them (their owner does). */
export type RedisLink = Pick<RedisConnections, 'commands' | 'channels' | 'prefix'>;
