import type { JsonRpcBatchResponse, JsonRpcMessage } from '../../core/jsonrpc';
import type { MessageTransport } from './message-transport';

/**
 * Two linked ends in one process: what one sends, the other receives (as a copy, so neither side
 * can mutate the other's objects). For tests and in-process clients.
 */
export class InMemoryTransport implements MessageTransport {
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private peer?: InMemoryTransport;
  private closed = false;
  private readonly backlog: unknown[] = [];
  private started = false;

  /**
   * Two ends linked to each other: give one to `server.connect` and the other to a client. Messages
   * sent before the receiving end started wait for it.
   */
  static createLinkedPair(): [InMemoryTransport, InMemoryTransport] {
    const a = new InMemoryTransport();
    const b = new InMemoryTransport();
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  async start(): Promise<void> {
    this.started = true;
    for (const message of this.backlog.splice(0)) this.onmessage?.(message);
  }

  /**
   * After either end closed, messages go nowhere (as on a pipe whose reader has gone). Takes any
   * message object, not only ours: the end held by the official SDK's `Client` is handed the SDK's
   * own message type (an error response's `id` is optional there), and the receiving side checks
   * what it gets anyway.
   */
  async send(message: JsonRpcMessage | JsonRpcBatchResponse | object): Promise<void> {
    if (this.closed) return;
    this.peer?.receive(structuredClone(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const peer = this.peer;
    this.peer = undefined;
    this.onclose?.();
    await peer?.close();
  }

  private receive(message: unknown): void {
    // Delivered on a later tick, like a real pipe, so a sender never re-enters itself.
    queueMicrotask(() => {
      if (!this.started) this.backlog.push(message);
      else this.onmessage?.(message);
    });
  }
}
