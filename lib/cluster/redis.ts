import type { EventStore } from '../protocol/seams/event-store';
import type { SessionBus } from '../protocol/seams/session-bus';
import type { SessionStore } from '../protocol/seams/session-store';
import type { BusSettings, SessionStoreSettings, SharedStores } from '../protocol/seams/shared-stores';
import type { TaskStore } from '../protocol/seams/task-store';
import { RedisConnections, type RedisSettings } from './redis-connections';
import { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store';
import { RedisSessionBus, type RedisSessionBusOptions } from './redis-session-bus';
import { RedisSessionStore, type RedisSessionStoreOptions } from './redis-session-store';
import { RedisSharedSecret } from './redis-shared-secret';
import { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store';

/** Where the Redis is, how keys are named, and the limits of what is kept and carried there. */
export interface RedisOptions extends RedisSettings, RedisEventStoreOptions, Pick<RedisSessionStoreOptions, 'maxUpdateAttempts' | 'sweepIntervalMs' | 'touchIntervalMs'>,
  Pick<RedisTaskStoreOptions, 'maxAbandonedPerCall'> {
  /** The largest bus message, in bytes of JSON (default `DEFAULT_BUS_MAX_MESSAGE_BYTES`, 4 MiB + 1 KiB). */
  readonly maxBusMessageBytes?: RedisSessionBusOptions['maxMessageBytes'];
  /**
   * A secret shared by every replica through their configuration (at least 32 bytes; never put
   * in Redis), e.g. `process.env.MCP_BUS_SECRET`: bus messages are signed with it and those
   * without a valid signature are dropped, so a client of the Redis without it cannot send the
   * replicas' clients notifications or answers. Default: none (messages are only checked for shape).
   */
  readonly busSecret?: RedisSessionBusOptions['secret'];
}

/**
 * Sessions, SSE event logs, tasks and the session bus in Redis, for several replicas behind one URL:
 * any node serves any request of any session, without sticky sessions. `url` defaults to
 * `redis://127.0.0.1:6379`; the connections are made by `server.start()` (or `listen()`).
 *
 * @example
 * const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], store: redis(process.env.REDIS_URL) });
 * await server.listen({ port: 3000, host: '0.0.0.0' });
 */
export function redis(url?: string | RedisOptions, options: Omit<RedisOptions, 'url'> = {}): SharedStores {
  const settings: RedisOptions = typeof url === 'object' ? { ...url, ...options } : { ...options, url };
  return new RedisStores(settings);
}

class RedisStores implements SharedStores {
  private readonly connections: RedisConnections;
  private readonly secret: RedisSharedSecret;

  constructor(private readonly settings: RedisOptions) {
    this.connections = new RedisConnections(settings);
    this.secret = new RedisSharedSecret(this.connections.prefix);
  }

  open(): Promise<void> {
    return this.connections.open((commands) => this.secret.agreeOn(commands));
  }

  onSecret(use: (secret: Buffer) => void): () => void {
    return this.secret.onChange(use);
  }

  sessions(settings: SessionStoreSettings): SessionStore {
    const { maxUpdateAttempts, sweepIntervalMs, touchIntervalMs } = this.settings;
    return new RedisSessionStore(this.connections, { ...settings, maxUpdateAttempts, sweepIntervalMs, touchIntervalMs });
  }

  events(): EventStore {
    const { maxEventsPerStream, ttlMs, followerCheckMs } = this.settings;
    return new RedisEventStore(this.connections, { maxEventsPerStream, ttlMs, followerCheckMs });
  }

  /** Tasks on the shared connections; `maxUpdateAttempts` bounds a task's updates as it does a session's. */
  tasks(): TaskStore {
    const { maxUpdateAttempts, maxAbandonedPerCall } = this.settings;
    return new RedisTaskStore(this.connections, { maxUpdateAttempts, maxAbandonedPerCall });
  }

  bus({ diagnostics }: BusSettings): SessionBus {
    return new RedisSessionBus(this.connections, { maxMessageBytes: this.settings.maxBusMessageBytes, secret: this.settings.busSecret, diagnostics });
  }

  ready(): Promise<boolean> {
    return this.connections.ready();
  }

  close(): Promise<void> {
    return this.connections.close();
  }
}
