import { createHash } from 'node:crypto';
import type { SigningKey } from '../../core/signing-key';
import { TokenSigner } from '../../core/token-signer';
import { principalIdentity } from '../../core/auth-info';
import { canonicalJson } from '../../core/canonical-json';
import { ProtocolError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';

/** What a `requestState` is bound to: the request it continues and who sent it (by identity: a refreshed token of the same subject may continue it). */
export interface StateBinding {
  readonly method: string;
  readonly params: JsonObject;
  readonly principal: unknown;
}

interface Payload {
  /** method */ readonly m: string;
  /** digest of the salient params */ readonly d: string;
  /** digest of the principal */ readonly p: string;
  /** expiry, ms since the epoch */ readonly e: number;
  /** the client's answers so far, by input key */ readonly r: JsonObject;
}

/** Params that change between rounds of one request, and so are not part of its identity. */
const ROUND_KEYS: ReadonlySet<string> = new Set(['_meta', 'inputResponses', 'requestState']);

/**
 * Seals the answers of earlier rounds into the opaque `requestState` the client echoes back:
 * HMAC-SHA256 over the method, a digest of the params, a digest of the principal and an expiry.
 * A state that was edited, has expired, or is replayed on another request or by another
 * principal is rejected with -32602. It is deliberately not single-use: 2026-07-28 asks only for
 * these bounds, a client may resend a retry whose response it lost, and single use would need a
 * store shared by every replica. Handlers with at-most-once effects guard them themselves.
 */
export class RequestStateCodec {
  private readonly signer: TokenSigner;

  constructor(key?: string | Buffer | SigningKey, private readonly ttlMs = 10 * 60 * 1000) {
    this.signer = new TokenSigner(key);
  }

  seal(binding: StateBinding, responses: JsonObject, now = Date.now()): string {
    const payload: Payload = { m: binding.method, d: paramsDigest(binding.params), p: digest(principalIdentity(binding.principal) ?? null), e: now + this.ttlMs, r: responses };
    return this.signer.seal(JSON.stringify(payload));
  }

  /** The answers carried by a valid state; throws invalid params otherwise. */
  open(state: unknown, binding: StateBinding, now = Date.now()): JsonObject {
    if (typeof state !== 'string') throw rejected('requestState must be a string');
    const text = this.signer.open(state);
    if (text === undefined) throw rejected('requestState failed verification');
    let payload: Payload;
    try {
      payload = JSON.parse(text) as Payload;
    } catch {
      throw rejected('requestState failed verification');
    }
    if (payload.e < now) throw rejected('requestState has expired');
    if (payload.m !== binding.method || payload.d !== paramsDigest(binding.params)) throw rejected('requestState belongs to another request');
    if (payload.p !== digest(principalIdentity(binding.principal) ?? null)) throw rejected('requestState belongs to another principal');
    return payload.r;
  }
}

function rejected(message: string): ProtocolError {
  return ProtocolError.invalidParams(`Invalid requestState: ${message}`);
}

function paramsDigest(params: JsonObject): string {
  return digest(Object.fromEntries(Object.entries(params).filter(([key]) => !ROUND_KEYS.has(key))));
}

/** SHA-256 of the canonical JSON form (object keys sorted), so key order never matters. */
function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value, 'params are')).digest('base64url');
}
