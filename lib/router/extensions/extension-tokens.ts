import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json';
import { principalIdentity } from '../../core/auth-info';
import { SigningKey } from '../../core/signing-key';
import { TokenSigner } from '../../core/token-signer';
import type { JsonObject } from '../../core/wire.types';
import type { ExtensionTokens, TokenOpening } from './extension';

interface Payload {
  /** digest of the principal's identity */ readonly p: string;
  /** expiry, ms since the epoch */ readonly e: number;
  /** the value sealed */ readonly v: JsonObject;
}

/**
 * Tokens of one extension and purpose: HMAC-SHA256 under a key derived from `base` (the server's
 * extensions key, shared by replicas) and `extension purpose`, so that a token of one purpose or
 * extension never opens as another's. The key is derived on each use: `base` is replaced when the
 * server learns the replicas' shared secret.
 */
export function extensionTokens(base: SigningKey, extension: string, purpose: string, now: () => number = Date.now): ExtensionTokens {
  const key = new DerivedKey(base, `${extension}\u0000${purpose}`);
  const signer = new TokenSigner(key);
  return {
    seal(value, principal, ttlMs) {
      const payload: Payload = { p: identityDigest(principal), e: now() + ttlMs, v: value };
      return signer.seal(JSON.stringify(payload));
    },
    open(token, principal): TokenOpening {
      const text = signer.open(token);
      if (text === undefined) return { ok: false, reason: 'invalid' };
      let payload: Payload;
      try {
        payload = JSON.parse(text) as Payload;
      } catch {
        return { ok: false, reason: 'invalid' };
      }
      if (typeof payload.e !== 'number' || payload.e < now()) return { ok: false, reason: 'expired' };
      if (payload.p !== identityDigest(principal)) return { ok: false, reason: 'principal' };
      return { ok: true, value: payload.v };
    },
  };
}

/** A key derived from another one and a label, following it when it is replaced. */
class DerivedKey extends SigningKey {
  constructor(private readonly base: SigningKey, private readonly label: string) {
    super(Buffer.alloc(0));
  }

  override get current(): Buffer {
    return createHmac('sha256', this.base.current).update(`phantom-mcp extension token ${this.label}`).digest();
  }
}

function identityDigest(principal: unknown): string {
  return createHash('sha256').update(canonicalJson(principalIdentity(principal) ?? null, 'a principal is')).digest('base64url');
}
