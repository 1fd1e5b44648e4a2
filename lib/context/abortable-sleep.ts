import { PhantomError } from '../core/errors';

/** The longest wait a Node timer keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_SLEEP_MS = 2_147_483_647;

/**
 * Waits `ms` milliseconds unless `signal` aborts first. Either way it leaves nothing behind: the
 * abort listener goes when the time is up, the timer when the signal aborts, so a loop of a
 * thousand waits on one signal holds at most one listener at a time. Rejects with the signal's
 * reason when that is an `Error` (a `ServerClosingError`, an `AbortError`), else with a
 * `PhantomError` coded `cancelled` whose `cause` is the reason (the client's cancellation text);
 * and with `sleep_invalid` for an `ms` that is not a number from 0 to `MAX_SLEEP_MS`.
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_SLEEP_MS)) {
    return Promise.reject(new PhantomError('sleep_invalid', `ctx.sleep: ${String(ms)} is not a number of milliseconds from 0 to ${MAX_SLEEP_MS}`));
  }
  if (signal.aborted) return Promise.reject(abortError(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new PhantomError('cancelled', `Cancelled: ${typeof reason === 'string' ? reason : 'the call was aborted'}`, { cause: reason });
}
