import type { JsonRpcBatchResponse, JsonRpcMessage } from '../../core/jsonrpc';

/**
 * A bidirectional message pipe (stdio, in-memory): whole JSON-RPC messages in and out, nothing
 * else. Its shape matches the official SDK's `Transport`, so either side of an in-memory pair can
 * be handed to the SDK's `Client`.
 *
 * @example
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * await new Client({ name: 'test', version: '1' }).connect(clientSide);
 */
export interface MessageTransport {
  /** Starts delivering what arrives to `onmessage`; called once, after the callbacks are set. */
  start(): Promise<void>;
  /** Sends one message, or the array of responses that answers a batch (protocol 2025-03-26 only). */
  send(message: JsonRpcMessage | JsonRpcBatchResponse): Promise<void>;
  /** Stops the pipe: nothing is sent or delivered any more, and `onclose` is called (once). Closing twice does nothing. */
  close(): Promise<void>;
  /** A parsed JSON value: the protocol layer decides whether it is a valid message. */
  onmessage?: (message: unknown) => void;
  /** Called once when the pipe ends, whichever side ended it (end of input, `close()`, the peer's close). */
  onclose?: () => void;
  /** Transport trouble; a `MalformedMessageError` means bytes that were not JSON. */
  onerror?: (error: Error) => void;
}

/** Bytes that did not parse as JSON: answered with a parse error (-32700). */
export class MalformedMessageError extends Error {
  override readonly name = 'MalformedMessageError';
}
