/**
 * A request's cancellation, cheap until someone looks: the `AbortSignal` a handler reads as
 * `ctx.signal` is only made when first asked for, since most calls finish without anybody
 * listening (an `AbortController` per request is a measurable cost at high rates).
 */
export class Cancellation {
  private controller?: AbortController;
  private cancelReason: unknown;
  private cancelled = false;
  private listeners?: Set<() => void>;

  get aborted(): boolean {
    return this.cancelled;
  }

  /** What it was cancelled with (`ctx.signal.reason`); `undefined` while it runs. */
  get reason(): unknown {
    return this.cancelReason;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.cancelReason);
    }
    return this.controller.signal;
  }

  cancel(reason?: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.cancelReason = reason;
    this.controller?.abort(reason);
    for (const listener of this.listeners ?? []) listener();
    this.listeners = undefined;
  }

  /** Runs `listener` once, on cancellation (at once if already cancelled); returns how to stop listening. */
  onCancel(listener: () => void): () => void {
    if (this.cancelled) {
      listener();
      return () => {};
    }
    (this.listeners ??= new Set()).add(listener);
    return () => this.listeners?.delete(listener);
  }
}
