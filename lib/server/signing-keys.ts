import { createHmac } from 'node:crypto';
import { SigningKey } from '../core/signing-key';
import type { PhantomServerOptions } from './server-options';

/**
 * The keys that sign what a server hands a client to hand back: list cursors and the stateless
 * era's `requestState`. A key the options set stays; the others are random per process until
 * `share()` derives them from the secret the replicas share (the `store`'s), so that any replica
 * accepts what another signed.
 */
export class SigningKeys {
  readonly cursor: SigningKey;
  readonly requestState: SigningKey;

  constructor(private readonly options: Pick<PhantomServerOptions, 'cursorKey' | 'stateKey'>) {
    this.cursor = new SigningKey(options.cursorKey);
    this.requestState = new SigningKey(options.stateKey);
  }

  share(secret: Buffer): void {
    // One key per purpose, so that a token of one kind never opens as the other.
    if (this.options.cursorKey === undefined) this.cursor.replace(derived(secret, 'cursor'));
    if (this.options.stateKey === undefined) this.requestState.replace(derived(secret, 'requestState'));
  }
}

function derived(secret: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`phantom-mcp ${purpose}`).digest();
}
