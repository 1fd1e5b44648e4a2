/**
 * The calls a transport is running, so that closing can wait for them: `settled(ms)` resolves
 * once none is left or `ms` have passed, whichever comes first, and the transport then gives up on
 * those still here. One waiter at a time (a transport closes once).
 *
 * A lone call is held in a slot of its own, the rest in a Set: a client that waits for each answer
 * (a stdio pipe) would otherwise take the Set from empty to one call and back on every request,
 * and V8 reallocates a Set's table each way (measured: about a quarter of a microsecond a call).
 */
export class RunningCalls<Call> implements Iterable<Call> {
  /** The only call, when exactly one runs; `calls` is then empty. */
  private solo?: Call;
  private readonly calls = new Set<Call>();
  private emptied?: () => void;

  add(call: Call): void {
    if (this.solo === undefined && this.calls.size === 0) {
      this.solo = call;
      return;
    }
    // The Set keeps insertion order: the lone call goes in first, as the older one.
    if (this.solo !== undefined) {
      this.calls.add(this.solo);
      this.solo = undefined;
    }
    this.calls.add(call);
  }

  delete(call: Call): void {
    if (this.solo !== undefined && this.solo === call) {
      this.solo = undefined;
      this.emptied?.();
    } else if (this.calls.delete(call) && this.calls.size === 0) this.emptied?.();
  }

  get size(): number {
    return this.solo === undefined ? this.calls.size : 1;
  }

  /** A snapshot, in the order the calls were added: giving up on a call may remove it while the caller iterates. */
  [Symbol.iterator](): Iterator<Call> {
    return (this.solo === undefined ? [...this.calls] : [this.solo])[Symbol.iterator]();
  }

  settled(ms: number): Promise<void> {
    if (this.size === 0) return Promise.resolve();
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
