import { AuthorizationServerUnavailableError } from './token-errors';

/**
 * A value loaded from the authorization server once (its metadata): concurrent callers share the
 * attempt in flight, and after a failure every caller fails at once, without a request, until
 * `retryAfterMs` has passed; so an outage costs the server one request per interval, not one per
 * client request.
 */
export class RetriedLoad<T> {
  private loaded?: { readonly value: T };
  private pending?: Promise<T>;
  private retryAt = -Infinity;
  private failure?: AuthorizationServerUnavailableError;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly what: string,
    private readonly retryAfterMs: number,
    private readonly now: () => number,
    private readonly onFailure: (error: AuthorizationServerUnavailableError) => void,
  ) {}

  get(): Promise<T> {
    if (this.loaded) return Promise.resolve(this.loaded.value);
    const now = this.now();
    if (this.failure && now < this.retryAt) {
      return Promise.reject(new AuthorizationServerUnavailableError(this.failure.message, this.retryAt - now, { cause: this.failure }));
    }
    return (this.pending ??= this.attempt(now));
  }

  private async attempt(startedAt: number): Promise<T> {
    try {
      const value = await this.load();
      this.loaded = { value };
      return value;
    } catch (cause) {
      this.retryAt = startedAt + this.retryAfterMs;
      const detail = cause instanceof Error ? cause.message : String(cause);
      this.failure = new AuthorizationServerUnavailableError(`${this.what} could not be loaded: ${detail}`, this.retryAfterMs, { cause });
      this.onFailure(this.failure);
      throw this.failure;
    } finally {
      this.pending = undefined;
    }
  }
}
