import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisScript } from './redis-script';

/** Keeps the secret that is there, or sets the one offered; answers what Redis then holds. KEYS: the secret. ARGV: the offer. */
const AGREE = new RedisScript(`
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`);

/**
 * The secret the servers on one Redis and key prefix share, kept at `<prefix>secret` without
 * expiry: the first server to agree makes it, the others take it. Redis may lose it (restarted
 * without persistence): each server offers the one it holds again once its connection is back,
 * and all take whichever arrived first, so the replicas agree again without a restart.
 */
export class RedisSharedSecret {
  private held?: string;
  private readonly listeners = new Set<(secret: Buffer) => void>();

  constructor(private readonly prefix: string) {}

  /** Agrees on the secret over `commands`, and again each time that connection is back. */
  async agreeOn(commands: Redis): Promise<void> {
    await this.agree(commands);
    commands.on('ready', () => void this.agree(commands).catch(() => undefined));
  }

  /** Hears the secret now (once agreed) and each time it changes; returns how to stop. */
  onChange(use: (secret: Buffer) => void): () => void {
    this.listeners.add(use);
    if (this.held !== undefined) use(Buffer.from(this.held, 'base64url'));
    return () => void this.listeners.delete(use);
  }

  private async agree(commands: Redis): Promise<void> {
    const offer = this.held ?? randomBytes(32).toString('base64url');
    const agreed = await AGREE.run(commands, [`${this.prefix}secret`], [offer]);
    if (typeof agreed !== 'string' || agreed === this.held) return;
    this.held = agreed;
    for (const use of this.listeners) use(Buffer.from(agreed, 'base64url'));
  }
}
