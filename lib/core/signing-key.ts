import { randomBytes } from 'node:crypto';

/**
 * The key a `TokenSigner` signs with, which its owner may replace: a server that runs as one of
 * several replicas starts with a random key and takes the one they share once its store tells it
 * (tokens signed before then no longer open).
 */
export class SigningKey {
  private bytes: Buffer;

  /** Without a key, a random one (32 bytes). */
  constructor(key?: string | Buffer) {
    this.bytes = key === undefined ? randomBytes(32) : Buffer.from(key);
  }

  get current(): Buffer {
    return this.bytes;
  }

  replace(key: Buffer): void {
    this.bytes = Buffer.from(key);
  }
}
