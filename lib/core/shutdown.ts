import { ErrorCode } from './error-codes';
import type { ErrorObject } from './error-mapper';
import { PhantomError } from './errors';

/** How long `close()` lets calls in flight finish before it cancels them, unless told otherwise. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * What `ctx.signal` is aborted with when the server closes before a call has finished
 * (`shutdownTimeoutMs` passed). The client has already been told that the call failed, so what the
 * handler does from then on reaches nobody: stop, and keep whatever must survive yourself.
 *
 * @example
 * if (ctx.signal.reason instanceof ServerClosingError) await this.jobs.saveCheckpoint(job);
 */
export class ServerClosingError extends PhantomError {
  override readonly name = 'ServerClosingError';
  constructor() {
    super('server_closing', 'The server closed before the request finished');
  }
}

/** The answers of a closing server, on every transport (over HTTP a refusal also has status 503). */
export const SHUTDOWN_ERRORS: Readonly<Record<'cancelled' | 'refused', ErrorObject>> = Object.freeze({
  cancelled: Object.freeze({ code: ErrorCode.ServerClosing, message: 'Server shutting down: the request did not finish in time and was cancelled' }),
  refused: Object.freeze({ code: ErrorCode.ServerClosing, message: 'Server shutting down: no new requests are accepted' }),
});

/** True for a cancellation the server made because it is closing (not the client's own). */
export function isServerClosing(reason: unknown): reason is ServerClosingError {
  return reason instanceof ServerClosingError;
}
