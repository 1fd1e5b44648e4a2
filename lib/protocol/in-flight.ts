import type { Cancellation } from '../core/cancellation';
import type { ErrorObject } from '../core/error-mapper';
import type { JsonRpcMessage, JsonRpcResponse } from '../core/jsonrpc';

/*
 * The in-flight contract between the protocol and every transport (stdio, in-memory, Streamable
 * HTTP on Node and behind `fetch`), one name per idea:
 * - `Arrival` (arrival.ts): what arrives with a message, and how to open its request's way back;
 * - `InFlight`: a request (or a batch) admitted and running, as its transport holds it;
 * - `Exchange`: the way back to the client for one request;
 * - `StandaloneStream`: a session's stream for what belongs to no request.
 * This module imports nothing of the protocol: the engines use it as much as the transports do.
 */

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

/** The exchange of requests that have none (a batch of notifications only): nothing goes anywhere. */
export const NO_EXCHANGE: Exchange = Object.freeze({ send: () => {}, open: false });

/** A batch once admitted: whether it held requests, and every answer it gets (invalid elements' errors first). */
export interface AdmittedBatch {
  readonly requests: number;
  readonly answers: Promise<JsonRpcResponse[]>;
  /**
   * Gives up on the requests still running (the server is closing): cancels each with `reason`
   * (its handler's `ctx.signal`) and returns the batch's answers now, `error` for each of those.
   */
  giveUp(reason: Error, error: ErrorObject): JsonRpcResponse[];
}

/**
 * A request (or a batch) admitted and running, as its transport holds it until it is answered: its
 * way back, and the transport's own cancellation (closing, a stream gone), which is the handler's
 * `ctx.signal`. The elements of a batch share its exchange, each with a cancellation of its own.
 */
export interface InFlight {
  readonly exchange: Exchange;
  readonly cancellation: Cancellation;
  /** A batch's: told once its elements are admitted (so closing can give up on them). */
  admitted?(batch: AdmittedBatch): void;
}

/** How messages reach a session's standalone stream: list changes, resource updates. */
export type StandaloneSink = (message: JsonRpcMessage) => void;

/**
 * A session's standalone stream (HTTP's GET stream), which one node at a time holds, whichever
 * node its client connects to (resumable on any node that shares the event store). A pipe's
 * session has no such stream to hand over: the pipe attaches a bare {@link StandaloneSink}.
 */
export interface StandaloneStream {
  /** The stream's id in the event store: told to the other nodes, so that one writing it lets it go. */
  readonly streamId: string;
  readonly send: StandaloneSink;
  /**
   * Another node holds the session's standalone stream now, the one `streamId` names: this node
   * stops carrying its own (and ends it, unless it is that very stream, which the other writes now).
   */
  released(streamId: string): void;
}
