/**
 * Resolves once `probe` says yes, asking every `everyMs`; fails naming `what` after `withinMs`.
 * For what happens in another process or a real clock (Redis TTLs, reconnection), never to
 * assert how long something takes.
 */
export async function eventually(what: string, probe: () => boolean | Promise<boolean>, withinMs = 5_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      if (await probe()) return;
      last = undefined;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${withinMs} ms${last instanceof Error ? ` (last: ${last.message})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
