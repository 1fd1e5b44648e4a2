import { Context } from '../../context/context';
import type { TaskStarter } from '../../context/task-starter';
import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import { ProtocolError, requiredScopesOf } from '../../core/errors';
import { failure, success, type JsonRpcRequest } from '../../core/jsonrpc';
import type { JsonObject } from '../../core/wire.types';
import type { Outcome } from '../../router/router';
import { answer, NOTHING, refused, scopeRefused, type DispatchOutcome } from '../dispatch-outcome';
import type { Exchange } from '../in-flight';
import { REFUSAL_OF_CODE, type Refusal, type RefusalKind } from '../refusal';
import type { EraCodec, RunnableRequest } from '../request-runner';
import type { InputChannel } from './input-channel';
import type { RequestMeta } from './request-meta';
import type { RequestStateCodec } from './request-state.codec';
import type { ResultDecorator } from './result-decoration';

/** One request of the stateless era, as it serves it: the message, its `_meta`, and what the transport knows. */
export interface StatelessRequest extends RunnableRequest {
  readonly meta: RequestMeta;
  readonly principal: unknown;
  /** Where notifications about this request go, before its response. */
  readonly exchange: Exchange;
  /**
   * The handler's way back, for a method the router serves: what it asks the client ends the round
   * with `input_required`. The era's own methods have none.
   */
  readonly channel?: InputChannel;
}

/**
 * The stateless era's codec: the handler's context answers what it asks the client from
 * `inputResponses` (else the round ends with `input_required` and a signed `requestState`); a call
 * that became a task is answered with the tasks extension's `CreateTaskResult`; results are dressed
 * (`resultType`, the server's `_meta`, caching hints) and errors the revision names are refusals.
 */
export function statelessCodec(results: ResultDecorator, states: RequestStateCodec): EraCodec<StatelessRequest, DispatchOutcome, JsonObject> {
  return Object.freeze({
    nothing: NOTHING,
    context: contextOf,
    // What the extension that ran it in the background answers with (the tasks extension's CreateTaskResult), with the server's `_meta`.
    taskCreated: ({ message }: StatelessRequest, started: JsonObject) => answer(success(message.id, { ...started, _meta: results.meta(started._meta) })),
    refused: ({ message }: StatelessRequest, { kind, error }: Refusal) => refused(kind, message.id, error),
    answer: (request: StatelessRequest, outcome: Outcome): DispatchOutcome => {
      const { message, channel } = request;
      if (channel && channel.inputRequests.size > 0) return inputRequired(request, channel, states, results);
      if ('error' in outcome) return servedError(message, outcome.error);
      return answer(success(message.id, results.decorate(message.method, outcome.result, message.params ?? {})));
    },
  });
}

/** The round ends with what the handler asked the client, and the answers so far sealed in `requestState`. */
function inputRequired({ message, principal }: StatelessRequest, channel: InputChannel, states: RequestStateCodec, results: ResultDecorator): DispatchOutcome {
  const params = message.params ?? {};
  let requestState: string;
  try {
    requestState = states.seal({ method: message.method, params, principal }, channel.used);
  } catch (error) {
    return refused('invalid-params', message.id, asInvalidParams(error, 'The request cannot be continued').toJSON());
  }
  return answer(success(message.id, {
    resultType: 'input_required',
    inputRequests: Object.fromEntries([...channel.inputRequests].map(([key, input]) => [key, { method: input.method, params: input.params }])),
    requestState,
    _meta: results.meta(),
  }));
}

/** The handler's context for one request: who asked, with what, and its way back (none for the era's own methods). */
function contextOf({ message, meta, principal, cancellation, channel }: StatelessRequest, taskStarter?: TaskStarter): Context {
  return new Context({
    requestId: message.id,
    signal: cancellation,
    progressToken: meta.progressToken,
    clientInfo: meta.clientInfo,
    clientCapabilities: meta.clientCapabilities,
    principal,
    channel,
    era: 'stateless',
    protocolVersion: meta.protocolVersion,
    meta: message.params?._meta as JsonObject,
    taskStarter,
  });
}

/** A refusal for what an extension threw while checking a request: its code's refusal kind, else invalid params; anything but a `ProtocolError` is an internal error. */
export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof ProtocolError)) return { kind: 'internal-error', error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  return { kind: REFUSAL_OF_CODE.get(error.code) ?? 'invalid-params', error: error.toJSON() };
}

/** A `ProtocolError` as it is, anything else as invalid params saying `fallback`. */
export function asInvalidParams(error: unknown, fallback: string): ProtocolError {
  return error instanceof ProtocolError ? error : ProtocolError.invalidParams(fallback);
}

/** The one place where an error changes between eras: resource not found is -32602 here. */
function eraError(error: ErrorObject): ErrorObject {
  return error.code === ErrorCode.ResourceNotFound ? { ...error, code: ErrorCode.InvalidParams } : error;
}

/**
 * An error raised while serving: refused as such when the revision names it (a missing capability,
 * unknown or hidden methods) or the pipeline refused the call (a guard, the rate limit; a scope
 * guard's refusal as `insufficient-scope`, naming the scopes); any other is an ordinary answer.
 */
function servedError(message: JsonRpcRequest, error: ErrorObject): DispatchOutcome {
  const requiredScopes = requiredScopesOf(error);
  if (requiredScopes) return scopeRefused(failure(message.id, error), requiredScopes);
  const refusal: RefusalKind | undefined = REFUSAL_OF_CODE.get(error.code);
  return refusal === undefined ? answer(failure(message.id, eraError(error))) : refused(refusal, message.id, eraError(error));
}
