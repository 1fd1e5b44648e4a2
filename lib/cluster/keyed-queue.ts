/**
 * Runs steps one after another per key, on this node: a step for a key starts once the one
 * before it has settled (either way). A shared store serialises its own read-change-write steps
 * on one record with it, so that two requests of one node do not race each other to Redis.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(step);
    const done = result.then(() => undefined, () => undefined);
    this.tails.set(key, done);
    void done.then(() => {
      if (this.tails.get(key) === done) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every step queued so far has settled. */
  async drained(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
