import { AuthorizationServerUnavailableError } from './token-errors';

/**
 * A value loaded from the authorization server once (its metadata): concurrent callers share the
 * attempt in flight, a success is kept for good, a failure is tried again by the next caller. Its
 * one caller, the key set, already spaces its attempts out after a failure.
 */
export class RetriedLoad<T> {
  private loaded?: { readonly value: T };
  private pending?: Promise<T>;

  constructor(private readonly load: () => Promise<T>, private readonly what: string, private readonly retryAfterMs: number) {}

  get(): Promise<T> {
    if (this.loaded) return Promise.resolve(this.loaded.value);
    return (this.pending ??= this.attempt());
  }

  private async attempt(): Promise<T> {
    try {
      const value = await this.load();
      this.loaded = { value };
      return value;
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      throw new AuthorizationServerUnavailableError(`${this.what} could not be loaded: ${detail}`, this.retryAfterMs, { cause });
    } finally {
      this.pending = undefined;
    }
  }
}
