import { createHmac } from 'node:crypto';
import { SigningKey } from '../core/signing-key';
import type { PhantomServerOptions } from './server-options';

/**
 * The keys that sign what a server hands a client to hand back: list cursors, the stateless
 * era's `requestState`, and extensions' tokens (each extension derives one key per purpose from
 * `extensions`). A key the options set stays; the others are random per process until
 * `share()` derives them from the secret the replicas share (the `store`'s), so that any replica
 * accepts what another signed.
 */
export class SigningKeys {
  readonly cursor: SigningKey;
  readonly requestState: SigningKey;
  /** What extensions' token keys are derived from: from `stateKey` when it is set (replicas that share it share these), else as the others. */
  readonly extensions: SigningKey;

  constructor(private readonly options: Pick<PhantomServerOptions, 'cursorKey' | 'stateKey'>) {
    this.cursor = new SigningKey(options.cursorKey);
    this.requestState = new SigningKey(options.stateKey);
    this.extensions = new SigningKey(options.stateKey === undefined ? undefined : derived(Buffer.from(options.stateKey), 'extensions'));
  }

  share(secret: Buffer): void {
    // One key per purpose, so that a token of one kind never opens as the other.
    if (this.options.cursorKey === undefined) this.cursor.replace(derived(secret, 'cursor'));
    if (this.options.stateKey === undefined) this.requestState.replace(derived(secret, 'requestState'));
    if (this.options.stateKey === undefined) this.extensions.replace(derived(secret, 'extensions'));
  }
}

function derived(secret: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`phantom-mcp ${purpose}`).digest();
}
