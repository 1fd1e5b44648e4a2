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
  start(): Promise<void>;
  /** Sends one message, or the array of responses that answers a batch (protocol 2025-03-26 only). */
  send(message: JsonRpcMessage | JsonRpcBatchResponse): Promise<void>;
  close(): Promise<void>;
  /** A parsed JSON value: the protocol layer decides whether it is a valid message. */
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  /** Transport trouble; a `MalformedMessageError` means bytes that were not JSON. */
  onerror?: (error: Error) => void;
}

/** Bytes that did not parse as JSON: answered with a parse error (-32700). */
export class MalformedMessageError extends Error {
  override readonly name = 'MalformedMessageError';
}
