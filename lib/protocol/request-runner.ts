import type { Context } from '../context/context';
import type { TaskStarter } from '../context/task-starter';
import type { Cancellation } from '../core/cancellation';
import type { JsonRpcRequest } from '../core/jsonrpc';
import type { JsonObject } from '../core/wire.types';
import type { Outcome, Router } from '../router/router';
import { isRouted, type Served } from './method-table';
import type { Refusal } from './refusal';
import type { BackgroundCall } from '../router/extensions/extension';

/** What a method may come to: a result (`undefined` when nothing is to be answered, e.g. a stream the client left), or an error. */
export type ServedOutcome = Outcome<JsonObject | undefined>;

/** What the runner needs of every era's request: its message, and the cancellation its handler sees. */
export interface RunnableRequest {
  readonly message: JsonRpcRequest;
  readonly cancellation: Cancellation;
}

/**
 * What differs between the protocol eras in answering one request, and nothing else: the handler's
 * context (its way back to the client: server requests in the session era, `input_required`
 * rounds in the stateless era), the answer's envelope and decoration, and the era's view of a
 * call that became a task. `R` is the era's request, `A` its answer.
 */
export interface EraCodec<R extends RunnableRequest, A, T = unknown> {
  /** What is sent when nothing is to be answered (the request was cancelled). */
  readonly nothing: A;
  /** The handler's context for `request`; `taskStarter` when the call may become a task. */
  context(request: R, taskStarter?: TaskStarter): Context;
  /** The answer to a call that went on in the background as `started` says (a task; its handler goes on). */
  taskCreated(request: R, started: T): A;
  /** The answer to what the request came to: a result or an error. */
  answer(request: R, outcome: Outcome): A;
  /** The answer to a request refused as such (unknown method, missing capability...), before any pipeline ran. */
  refused(request: R, refusal: Refusal): A;
}

/** How one method's answer relates to its cancellation. */
export interface RunOptions {
  /**
   * Answer what it came to even when its cancellation was cancelled: a `subscriptions/listen`
   * stream that the server closes (a closing transport cancels it) ends with its closing result,
   * and a stream its client left comes to nothing by itself. Default `false`: a cancelled request
   * gets no answer.
   */
  readonly answersWhenCancelled?: boolean;
}

/**
 * The one per-request core of both eras: serves the request with the context its era's codec
 * makes; a call that may become a task is answered with the task once it is stored (its handler
 * goes on, and its outcome goes to the task), else with what it came to; a request cancelled
 * meanwhile, or served with nothing to answer, gets no answer. Answered at once when serving it
 * did not have to wait: a promise is made only where something waits.
 */
export function runRequest<R extends RunnableRequest, A, T>(
  codec: EraCodec<R, A, T>,
  request: R,
  task: BackgroundCall<T> | undefined,
  serve: (ctx: Context) => ServedOutcome | Promise<ServedOutcome>,
  options: RunOptions = {},
): A | Promise<A> {
  return answerOf(codec, request, task, serve(codec.context(request, task?.starter)), options);
}

/** The answer to what serving the request came to (`handled`), once it is there. */
function answerOf<R extends RunnableRequest, A, T>(
  codec: EraCodec<R, A, T>,
  request: R,
  task: BackgroundCall<T> | undefined,
  handled: ServedOutcome | Promise<ServedOutcome>,
  options: RunOptions,
): A | Promise<A> {
  if (task) return raced(codec, request, task, handled, options);
  if (handled instanceof Promise) return handled.then((outcome) => answered(codec, request, outcome, options));
  return answered(codec, request, handled, options);
}

/** A router method's request: the default options (no answer once cancelled). */
const ROUTED_OPTIONS: RunOptions = Object.freeze({});

/** A call that may become a task: whichever comes first, its outcome or its task stored. */
async function raced<R extends RunnableRequest, A, T>(
  codec: EraCodec<R, A, T>,
  request: R,
  task: BackgroundCall<T>,
  handled: ServedOutcome | Promise<ServedOutcome>,
  options: RunOptions,
): Promise<A> {
  const outcome = await Promise.race([handled, task.started]);
  if (task.running !== undefined) {
    task.finish(Promise.resolve(handled) as Promise<Outcome>);
    return codec.taskCreated(request, task.running);
  }
  return answered(codec, request, outcome as ServedOutcome, options);
}

/** The answer to what the request came to: none when it was cancelled meanwhile, or came to nothing. */
function answered<R extends RunnableRequest, A, T>(codec: EraCodec<R, A, T>, request: R, served: ServedOutcome, options: RunOptions): A {
  if (request.cancellation.aborted && !options.answersWhenCancelled) return codec.nothing;
  if ('result' in served && served.result === undefined) return codec.nothing;
  return codec.answer(request, served as Outcome);
}

/** What the runner asks of the router: its own methods, and the pipeline for the protocol's. */
export type RunnerRouter = Pick<Router, 'route' | 'operate'>;

/**
 * Runs one request whose method the method table found: the router's through its own table, the
 * protocol's through the pipeline of its kind around its `serve`.
 */
export function runMethod<R extends RunnableRequest, A, T>(
  codec: EraCodec<R, A, T>,
  router: RunnerRouter,
  served: Served<R>,
  request: R,
  task?: BackgroundCall<T>,
): A | Promise<A> {
  const { method, params = {} } = request.message;
  // The router's own methods, the most frequent, with no closure made around the call.
  if (isRouted(served)) return answerOf(codec, request, task, router.route(method, params, codec.context(request, task?.starter)), ROUTED_OPTIONS);
  const operation = { kind: served.kind, method };
  return runRequest(codec, request, task, (ctx) => router.operate(operation, params, ctx, (checked) => served.serve(checked, request, ctx)), served);
}
