/**
 * The calls a transport is running, so that closing can wait for them: `settled(ms)` resolves
 * once none is left or `ms` have passed, whichever comes first, and the transport then gives up on
 * those still here. One waiter at a time (a transport closes once).
 */
export class RunningCalls<Call> implements Iterable<Call> {
  private readonly calls = new Set<Call>();
  private emptied?: () => void;

  add(call: Call): void {
    this.calls.add(call);
  }

  delete(call: Call): void {
    if (this.calls.delete(call) && this.calls.size === 0) this.emptied?.();
  }

  get size(): number {
    return this.calls.size;
  }

  /** A snapshot: giving up on a call may remove it while the caller iterates. */
  [Symbol.iterator](): Iterator<Call> {
    return [...this.calls][Symbol.iterator]();
  }

  settled(ms: number): Promise<void> {
    if (this.calls.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emptied = undefined;
        resolve();
      };
      // Not unref'd: the deadline is part of closing, and must pass even with nothing else to do.
      const timer = setTimeout(done, ms);
      this.emptied = done;
    });
  }
}
