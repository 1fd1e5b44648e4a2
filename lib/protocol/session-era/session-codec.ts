import { Context } from '../../context/context';
import type { TaskStarter } from '../../context/task-starter';
import { failure, success, type JsonRpcResponse } from '../../core/jsonrpc';
import type { JsonObject } from '../../core/wire.types';
import type { Exchange } from '../in-flight';
import type { Refusal } from '../refusal';
import type { EraCodec, RunnableRequest } from '../request-runner';
import type { SessionState } from '../seams/session-state';
import type { TaskRecord } from '../seams/task-store';
import type { Outcome } from '../../router/router';
import { sessionTaskView } from '../tasks/task-views';
import { SessionChannel, type ChannelHost } from './session-channel';

/** One request of an initialised session, as the session era serves it. */
export interface SessionRequest extends RunnableRequest {
  readonly state: SessionState;
  /** Where what the handler sends during the request goes (its notifications, its requests to the client). */
  readonly exchange: Exchange;
  /** Who sent it: the session's owner, with this request's token. */
  readonly principal: unknown;
}

/** The session era's answer: a JSON-RPC response, or none (cancelled). */
export type SessionAnswer = JsonRpcResponse | undefined;

/**
 * The session era's codec: the handler's context reaches the client with server requests on the
 * request's exchange; a call that became a task is answered with its 2025-11-25 `Task`; results and
 * errors go out as they are.
 */
export function sessionCodec(host: ChannelHost, requestTimeoutMs: number | undefined): EraCodec<SessionRequest, SessionAnswer, TaskRecord> {
  return Object.freeze({
    nothing: undefined,
    context: ({ state, message, exchange, principal, cancellation }: SessionRequest, taskStarter?: TaskStarter) => {
      const sent = message.params?._meta;
      const meta = typeof sent === 'object' && sent !== null && !Array.isArray(sent) ? (sent as JsonObject) : undefined;
      const progressToken = meta?.progressToken;
      return new Context({
        requestId: message.id,
        sessionId: state.id,
        signal: cancellation,
        progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
        clientInfo: state.clientInfo,
        clientCapabilities: state.clientCapabilities,
        principal,
        channel: new SessionChannel(host, state, exchange),
        requestTimeoutMs,
        era: 'session',
        protocolVersion: state.protocolVersion,
        meta,
        taskStarter,
      });
    },
    taskCreated: ({ message }: SessionRequest, task: TaskRecord) => success(message.id, { task: sessionTaskView(task) }),
    refused: ({ message }: SessionRequest, { error }: Refusal) => failure(message.id, error),
    answer: ({ message }: SessionRequest, outcome: Outcome) => ('result' in outcome ? success(message.id, outcome.result) : failure(message.id, outcome.error)),
  });
}
