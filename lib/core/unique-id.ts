import { randomBytes } from 'node:crypto';

/**
 * 48 random bits drawn once per process: ids made here never meet those of another replica,
 * while each id costs a counter increment, not a call into the CSPRNG.
 */
const PROCESS_PREFIX = randomBytes(6).toString('hex');
let counter = 0;

/**
 * An id unique across every process of a deployment (server-to-client request ids, stream ids,
 * anything that crosses nodes): a per-process random prefix and a counter. Not a secret: ids a
 * client must not guess (sessions) come from `randomBytes` alone.
 */
export function uniqueId(): string {
  counter += 1;
  return `${PROCESS_PREFIX}-${counter.toString(36)}`;
}
