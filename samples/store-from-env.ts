import { redis } from '../lib/entries/redis';
import type { SharedStores } from '../lib/entries/seams';

/**
 * What a sample shares with its other copies, from the environment: with `REDIS_URL` set, its
 * sessions, SSE event logs and session bus live in that Redis (keys under `REDIS_PREFIX`, default
 * `phantom:`), so several copies behind one load balancer serve a client as one server; without
 * it, nothing: the in-memory default of a single process. Copies of one sample share a prefix;
 * different servers on one Redis need different ones (each hears the broadcasts of its prefix).
 *
 * @example
 * REDIS_URL=redis://127.0.0.1:6379 REDIS_PREFIX=hello: node dist/samples/01-hello-tool/main.js --http --port 3001
 */
export function storeFromEnv(env: NodeJS.ProcessEnv = process.env): SharedStores | undefined {
  if (!env.REDIS_URL) return undefined;
  return redis(env.REDIS_URL, { keyPrefix: env.REDIS_PREFIX || undefined });
}
