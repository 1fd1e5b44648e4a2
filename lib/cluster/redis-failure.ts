import { StoreUnavailableError } from '../core/errors';

/**
 * Runs a call to Redis, turning its failure (Redis down, restarting, refusing) into one clear
 * error that names what could not be done: the protocol answers it as an internal error, and
 * the next call tries again, since the connections reconnect by themselves.
 */
export async function viaRedis<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new StoreUnavailableError('redis_unavailable', `${what}: Redis failed (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}
