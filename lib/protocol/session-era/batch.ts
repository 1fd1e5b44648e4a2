import { Cancellation } from '../../core/cancellation';
import type { Diagnostics } from '../../core/diagnostics';
import type { AdmittedBatch, Exchange } from '../in-flight';
import type { SessionEngine } from './session-engine';
import { ErrorCode } from '../../core/error-codes';
import { toErrorObject, type ErrorObject } from '../../core/error-mapper';
import { classify, failure, type Classified, type JsonRpcResponse, type RequestId } from '../../core/jsonrpc';
import { Method } from '../../core/methods';
import type { SessionState } from '../seams/session-state';

export const EMPTY_BATCH: ErrorObject = Object.freeze({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: an empty batch' });

/** Why a batch is refused as a whole: only a 2025-03-26 session takes batches (see `allowsBatches`). */
export function batchRefusal(version: string | undefined): ErrorObject {
  const which = version === undefined ? 'outside a 2025-03-26 session' : `in protocol version ${version}`;
  return { code: ErrorCode.InvalidRequest, message: `Invalid Request: batches are not supported ${which}; send one message at a time` };
}

/** Each element of a batch sorted like a single message; `initialize` may not be one of them. */
export function classifyBatch(values: readonly unknown[], maxDepth: number): Classified[] {
  return values.map((value) => {
    const incoming = classify(value, maxDepth);
    if (incoming.kind !== 'request' || incoming.message.method !== Method.Initialize) return incoming;
    return { kind: 'invalid', id: incoming.message.id, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: initialize must not be part of a batch' } };
  });
}


/** One request of a batch: its cancellation, and its answer once it has one (`null`: cancelled, none). */
interface Slot {
  readonly id: RequestId;
  readonly cancellation: Cancellation;
  answer?: JsonRpcResponse | null;
}

/**
 * Admits the elements of a batch of a session in order: notifications and responses at once,
 * requests started concurrently on `exchange`. Resolves once admitted, so the caller can keep
 * later messages behind it; `answers` settles when every request has its response (a cancelled
 * one has none). `principal` is who sent the batch (its requests see it, not the session's first).
 */
export async function admitBatch(
  engine: SessionEngine,
  state: SessionState,
  items: readonly Classified[],
  exchange: Exchange,
  diagnostics: Diagnostics,
  principal: unknown = state.principal,
): Promise<AdmittedBatch> {
  const errors: JsonRpcResponse[] = [];
  const slots: Slot[] = [];
  const running: Promise<JsonRpcResponse | undefined>[] = [];
  for (const item of items) {
    if (item.kind === 'invalid') errors.push(failure(item.id, item.error));
    else if (item.kind === 'notification') await engine.notification(state, item.message);
    // One that matches no request is warned about by the engine, within the client-warning limit.
    else if (item.kind === 'response') engine.response(state, item.message);
    else {
      const { message } = item;
      const slot: Slot = { id: message.id, cancellation: new Cancellation() };
      slots.push(slot);
      // As a promise (each element is answered when all are), a throw of its own as a rejection.
      const answered = async () => engine.request(state, message, { exchange, cancellation: slot.cancellation }, principal);
      running.push(answered()
        .catch((error: unknown) => failure(message.id, toErrorObject(error, message.method, diagnostics)))
        .then((response) => { slot.answer = response ?? null; return response; }));
    }
  }
  const answers = Promise.all(running).then((responses) => [...errors, ...responses.filter((r): r is JsonRpcResponse => r !== undefined)]);
  const giveUp = (reason: Error, error: ErrorObject): JsonRpcResponse[] => {
    const given: JsonRpcResponse[] = [...errors];
    for (const slot of slots) {
      if (slot.answer === undefined) {
        slot.cancellation.cancel(reason);
        given.push(failure(slot.id, error));
      } else if (slot.answer !== null) given.push(slot.answer);
    }
    return given;
  };
  return { requests: running.length, answers, giveUp };
}
