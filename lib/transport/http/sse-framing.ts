import type { JsonRpcMessage } from '../../core/jsonrpc';

/**
 * Server-Sent Events as MCP uses them: the only place an SSE event is spelled. Every `data:` line
 * is one `JSON.stringify` output, which escapes CR and LF, so a message never needs splitting
 * over several `data:` lines.
 */

/** The response headers of every SSE stream (`x-accel-buffering`: nginx must not hold events back). */
export const SSE_HEADERS = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
});

/** One JSON-RPC message as an SSE `message` event; with `id` when the stream is resumable. */
export function messageEvent(message: JsonRpcMessage, id?: string): string {
  const data = JSON.stringify(message);
  return id === undefined ? `event: message\ndata: ${data}\n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`;
}

/**
 * The priming event: an id and an empty `data`, so the client holds an id to resume from before
 * any message arrives, and the reconnection delay it should wait (`retry`, in ms).
 */
export function primingEvent(id: string, retryMs: number): string {
  return `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}
