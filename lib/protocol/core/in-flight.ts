import { Cancellation } from '../../context/cancellation';
import type { RequestId } from '../jsonrpc';

/** Requests being handled, by session and id, so `notifications/cancelled` can abort them. */
export class InFlight {
  private readonly running = new Map<string, Cancellation>();

  start(sessionId: string, id: RequestId): Cancellation {
    const controller = new Cancellation();
    this.running.set(keyOf(sessionId, id), controller);
    return controller;
  }

  finish(sessionId: string, id: RequestId): void {
    this.running.delete(keyOf(sessionId, id));
  }

  cancel(sessionId: string, id: unknown, reason?: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const controller = this.running.get(keyOf(sessionId, id));
    controller?.cancel(reason ?? 'cancelled by the client');
    return controller !== undefined;
  }

  cancelSession(sessionId: string): void {
    const prefix = `${sessionId}\u0000`;
    for (const [key, controller] of this.running) if (key.startsWith(prefix)) controller.cancel('session ended');
  }
}

function keyOf(sessionId: string, id: RequestId): string {
  return `${sessionId}\u0000${typeof id}:${id}`;
}
