import type { Cluster, ClusterNode, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { PhantomError, StoreUnavailableError } from '../core/errors';
import { RedisChannels } from './redis-channels';

/** Where the Redis is and how keys are named. */
export interface RedisSettings {
  /** `redis://[user:password@]host:port/db` or `rediss://` for TLS (default `redis://127.0.0.1:6379`). */
  readonly url?: string;
  /**
   * ioredis options, for what a URL cannot say (TLS files, Sentinel: `sentinels` and `name`).
   * Merged over the URL's settings.
   */
  readonly options?: RedisOptions;
  /**
   * A Redis Cluster instead of one server (or a Sentinel set: that is `options.sentinels` and
   * `options.name`): its seed nodes and ioredis's cluster options. Every key one script touches
   * carries a hash tag (`{sessions}`, `{<stream id>}`), so each script runs on one slot.
   */
  readonly cluster?: { readonly nodes: readonly ClusterNode[]; readonly options?: ClusterOptions };
  /** Put before every key and channel, so that several servers can share one Redis (default `phantom:`). */
  readonly keyPrefix?: string;
  /** How long `open()` waits for Redis to answer before it fails, in ms (default 5 s). */
  readonly connectTimeoutMs?: number;
}

/** The default `keyPrefix`, `phantom:`: before every key and channel the Redis stores and bus use. */
export const DEFAULT_KEY_PREFIX = 'phantom:';
const DEFAULT_URL = 'redis://127.0.0.1:6379';
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

interface Ioredis {
  readonly default: new (url: string, options: RedisOptions) => Redis;
  readonly Cluster: new (nodes: ClusterNode[], options: ClusterOptions) => Cluster;
}

/**
 * The connections one server keeps to Redis: one for commands, and one for subscriptions (a
 * connection that subscribes can run nothing else), made on first use. Both reconnect by
 * themselves after Redis restarts; commands sent meanwhile fail at once rather than queue, so
 * that a request fails with a clear error instead of hanging (before the first connection they
 * wait for it, bounded by one reconnection attempt).
 */
export class RedisConnections {
  readonly prefix: string;
  private commandClient?: Redis;
  private subscriberClient?: Redis;
  private channelTable?: RedisChannels;
  private readonly url: string;
  private readonly connectTimeoutMs: number;
  /** Set by `close()`: what runs late (a stream's grace timer, a sweep) must not connect again and hold the process open. */
  private closed = false;

  constructor(private readonly settings: RedisSettings = {}) {
    this.prefix = settings.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.url = settings.url ?? DEFAULT_URL;
    this.connectTimeoutMs = settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  /** The connection for commands; throws `redis_closed` once closed. */
  get commands(): Redis {
    return (this.commandClient ??= this.client({ batched: true }));
  }

  /** The connection for SUBSCRIBE and its messages; throws `redis_closed` once closed. */
  get subscriber(): Redis {
    return (this.subscriberClient ??= this.client({ batched: false }));
  }

  /** The channels of the subscriber connection, shared by the stores and the bus. */
  get channels(): RedisChannels {
    return (this.channelTable ??= new RedisChannels(this.subscriber));
  }

  /**
   * Connects both, then runs `prepare` on the command connection (what must be agreed on before
   * anything is served), or fails naming the address and the cause.
   */
  async open(prepare?: (commands: Redis) => Promise<void>): Promise<void> {
    try {
      await Promise.all([this.connect(this.commands), this.connect(this.subscriber)]);
      await prepare?.(this.commands);
    } catch (error) {
      // Released, not closed: the owner may try to open again.
      await this.release();
      throw new StoreUnavailableError('redis_unavailable', `Redis at ${redactedUrl(this.url)} cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Whether the command connection is up and Redis answers. */
  async ready(): Promise<boolean> {
    if (this.commandClient?.status !== 'ready') return false;
    try {
      return (await this.commandClient.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Ends both connections for good: later commands fail with `redis_closed` instead of connecting again. */
  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }

  private async release(): Promise<void> {
    const clients = [this.commandClient, this.subscriberClient].filter((c): c is Redis => c !== undefined);
    this.commandClient = this.subscriberClient = undefined;
    this.channelTable = undefined;
    await Promise.all(clients.map(async (client) => {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    }));
  }

  /**
   * `batched`: the commands issued in one turn of the event loop leave in one write (ioredis's
   * auto-pipelining). Each write is a system call here and a wake-up of Redis, which reads and
   * answers each one separately: under load they were most of what a call on Redis cost over
   * one in memory, on both sides (the node's CPU profile: a third of it in the socket write). The
   * subscriber connection is not batched (SUBSCRIBE is never pipelined) and has nothing to gain.
   */
  private client({ batched }: { batched: boolean }): Redis {
    if (this.closed) throw new PhantomError('redis_closed', `the connections to Redis at ${redactedUrl(this.url)} are closed (the server was closed)`);
    const ioredis = loadIoredis();
    const options: RedisOptions = {
      lazyConnect: true,
      // Until the first connection, commands wait for it (a handler mounted before `open()`
      // resolved); see below for after.
      enableOfflineQueue: true,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2_000),
      enableAutoPipelining: batched,
      ...this.settings.options,
    };
    const { cluster } = this.settings;
    // A cluster client speaks the same commands as one server's (what the stores and the bus use).
    const client = cluster
      ? new ioredis.Cluster([...cluster.nodes], { lazyConnect: true, enableOfflineQueue: true, enableAutoPipelining: batched, redisOptions: options, ...cluster.options }) as unknown as Redis
      : new ioredis.default(this.url, options);
    // Once connected, a command fails at once while Redis is away instead of queueing for as
    // long as it is down: a request fails with a clear error, and the client reconnects in the
    // background. ioredis reads the option on every command.
    if (this.settings.options?.enableOfflineQueue === undefined) client.once('ready', () => void (client.options.enableOfflineQueue = false));
    // Errors also reach the callers of the failed commands; unhandled, they would crash the process.
    client.on('error', () => undefined);
    return client;
  }

  private async connect(client: Redis): Promise<void> {
    if (client.status === 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.connectTimeoutMs} ms`)), this.connectTimeoutMs);
    });
    try {
      await Promise.race([client.status === 'wait' ? client.connect() : new Promise<void>((resolve) => client.once('ready', () => resolve())), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function loadIoredis(): Ioredis {
  try {
    // An optional peer dependency: only a server configured for Redis needs it installed.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('ioredis') as Ioredis;
  } catch (error) {
    throw new PhantomError('redis_client_missing', `redis(): the ioredis package is not installed (npm install ioredis): ${error instanceof Error ? error.message : String(error)}`);
  }
}

function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an invalid URL)';
  }
}
