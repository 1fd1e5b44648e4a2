import { createHmac, timingSafeEqual } from 'node:crypto';
import { SigningKey } from './signing-key';

/**
 * Opaque, tamper-evident tokens (`base64url(text).signature`, HMAC-SHA256 under one key) for what
 * the server hands a client to hand back: pagination cursors, the stateless era's `requestState`.
 * Without a key, a random one per process: set one, or give a `SigningKey` that is replaced with
 * a shared one, when several replicas must accept each other's tokens.
 */
export class TokenSigner {
  private readonly key: SigningKey;

  /** `signatureLength`: characters of the base64url signature kept (default all 43; 22 is 128 bits). */
  constructor(key?: string | Buffer | SigningKey, private readonly signatureLength?: number) {
    this.key = key instanceof SigningKey ? key : new SigningKey(key);
  }

  seal(text: string): string {
    const body = Buffer.from(text, 'utf8').toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The text of a token this signer sealed; `undefined` for anything else (edited, foreign, malformed). */
  open(token: unknown): string | undefined {
    if (typeof token !== 'string') return undefined;
    const [body, signature, extra] = token.split('.');
    if (extra !== undefined || !body || !signature) return undefined;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    return Buffer.from(body, 'base64url').toString('utf8');
  }

  private sign(body: string): string {
    const signature = createHmac('sha256', this.key.current).update(body).digest('base64url');
    return this.signatureLength === undefined ? signature : signature.slice(0, this.signatureLength);
  }
}
