import type { createLocalJWKSet, CryptoKey, FlattenedJWSInput, JSONWebKeySet, JWSHeaderParameters } from 'jose';
import { jose } from './jose.module';
import { requestJson, type AuthorizationServerHttp } from './authorization-server.http';
import { AuthorizationServerUnavailableError } from './token-errors';

/** When the key set is fetched again; every value is in milliseconds. */
export interface JwksRefreshPolicy {
  /** After a fetch, how long a token naming an unknown key waits for the next one (a rotation is picked up then). */
  readonly cooldownMs: number;
  /** How old the keys may get before they are fetched again (kept, and used, if that fetch fails). */
  readonly maxAgeMs: number;
  /** After a failed fetch, how long before another is tried. */
  readonly retryAfterMs: number;
  readonly now: () => number;
}

type LocalKeys = ReturnType<typeof createLocalJWKSet>;

/**
 * The authorization server's signing keys (its JWKS), fetched when first needed and then only:
 * for a token whose `kid` is unknown (a key rotation), at most once per cooldown; when the keys
 * are older than their maximum age; after a failure, no sooner than the retry interval. Concurrent
 * needs share one fetch. Once keys are known, an unreachable server does not stop verification:
 * the last keys stay in use.
 */
export class JwksCache {
  private keys?: LocalKeys;
  private fetchedAt = -Infinity;
  private nextFetchAt = -Infinity;
  private failure?: AuthorizationServerUnavailableError;
  private pending?: Promise<void>;

  constructor(
    private readonly http: AuthorizationServerHttp,
    private readonly jwksUri: () => Promise<string>,
    private readonly policy: JwksRefreshPolicy,
    private readonly onFailure: (error: AuthorizationServerUnavailableError) => void,
  ) {}

  /** jose's key resolver: the key the token's header names. */
  readonly key = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    const now = this.policy.now();
    if (!this.keys) await this.fetchNow(now);
    else if (now - this.fetchedAt >= this.policy.maxAgeMs && now >= this.nextFetchAt) await this.refresh().catch(() => undefined);
    try {
      return await this.keys!(header, token);
    } catch (error) {
      if (!(error instanceof jose().errors.JWKSNoMatchingKey) || this.policy.now() < this.nextFetchAt) throw error;
      await this.refresh();
      return this.keys!(header, token);
    }
  };

  private fetchNow(now: number): Promise<void> {
    if (this.failure && now < this.nextFetchAt) {
      return Promise.reject(new AuthorizationServerUnavailableError(this.failure.message, this.nextFetchAt - now, { cause: this.failure }));
    }
    return this.refresh();
  }

  private refresh(): Promise<void> {
    return (this.pending ??= this.fetchKeys().finally(() => {
      this.pending = undefined;
    }));
  }

  private async fetchKeys(): Promise<void> {
    const startedAt = this.policy.now();
    try {
      const uri = await this.jwksUri();
      const { status, body } = await requestJson(this.http, uri);
      if (status !== 200) throw new Error(`${uri} answered HTTP ${status}`);
      this.keys = jose().createLocalJWKSet(body as JSONWebKeySet);
      this.fetchedAt = startedAt;
      this.nextFetchAt = startedAt + this.policy.cooldownMs;
      this.failure = undefined;
    } catch (cause) {
      this.nextFetchAt = startedAt + this.policy.retryAfterMs;
      this.failure = cause instanceof AuthorizationServerUnavailableError
        ? cause
        : new AuthorizationServerUnavailableError(`the JSON Web Key Set could not be fetched: ${cause instanceof Error ? cause.message : String(cause)}`, this.policy.retryAfterMs, { cause });
      this.onFailure(this.failure);
      throw this.failure;
    }
  }
}
