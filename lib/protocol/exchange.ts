import type { Cancellation } from '../core/cancellation';
import type { JsonRpcMessage } from '../core/jsonrpc';

/**
 * The way back for one incoming request: notifications and server-to-client requests related to
 * it travel here before its response (an SSE stream on HTTP, the pipe on stdio).
 */
export interface Exchange {
  send(message: JsonRpcMessage): void;
  /** False once the client has gone (stream closed): nothing sent after that arrives. */
  readonly open: boolean;
  /** Ends the carrying connection but keeps the stream resumable (HTTP only). */
  disconnect?(): Promise<void>;
}

/** What a transport opens for a request it admits: the way back, and the transport's own cancellation (closing, a stream gone). */
export interface Way {
  readonly exchange: Exchange;
  readonly cancellation: Cancellation;
}

/** Delivers messages that belong to no request: list changes, resource updates (the GET stream). */
export type StandaloneSink = (message: JsonRpcMessage) => void;

/**
 * A session's standalone stream that one node at a time holds, whichever node its client
 * connects to (an HTTP GET stream, resumable on any node that shares the event store).
 */
export interface StandaloneHold {
  /** The stream's id in the event store: told to the other nodes, so that one writing it lets it go. */
  readonly streamId: string;
  readonly send: StandaloneSink;
  /**
   * Another node holds the session's standalone stream now, the one `streamId` names: this node
   * stops carrying its own (and ends it, unless it is that very stream, which the other writes now).
   */
  released(streamId: string): void;
}

/** The exchange of requests that have none (a batch of notifications only): nothing goes anywhere. */
export const NO_EXCHANGE: Exchange = Object.freeze({ send: () => {}, open: false });
