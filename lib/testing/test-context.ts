import type { CreateMessageRequestParams, ElicitRequestParams } from '@modelcontextprotocol/sdk/types.js';
import { Context, type ChannelRequestOptions, type ClientCapabilities, type ClientChannel, type JsonObject, type LoggingLevel } from '..';
import type { Method, Notification } from '../entries/protocol';
import { answerTo, capabilitiesOf, type ClientAnswers } from './client-answers';

/** Options of `testContext`. */
export interface TestContextOptions extends ClientAnswers {
  /** What the authentication hook would have attached (`ctx.principal`; an `AuthInfo` is also `ctx.auth`). */
  readonly principal?: unknown;
  /** The least severe log level the client wants (default: every level is recorded). */
  readonly logLevel?: LoggingLevel | 'off';
  /** The request's progress token (default `'progress-1'`, so `ctx.progress` is recorded; `null` for none, as when the client asked for no progress). */
  readonly progressToken?: string | number | null;
  /** Aborts the call, as a client's cancellation does. */
  readonly signal?: AbortSignal;
}

/** One `ctx.progress(...)`. */
export interface RecordedProgress { readonly progress: number; readonly total?: number; readonly message?: string }

/** One `ctx.log.<level>(...)` the log level let through. */
export interface RecordedLog { readonly level: LoggingLevel; readonly data: unknown; readonly logger?: string }

/** A context for calling a handler method directly, and what the handler sent through it, in order. */
export interface TestContext {
  readonly ctx: Context;
  readonly progress: RecordedProgress[];
  readonly logs: RecordedLog[];
  /** The params of each `elicitation/create` (message, mode, requestedSchema or url). */
  readonly elicitations: ElicitRequestParams[];
  /** The params of each `sampling/createMessage`. */
  readonly samples: CreateMessageRequestParams[];
  /** The URIs passed to `ctx.resourceUpdated`. */
  readonly resourceUpdates: string[];
}

const DEFAULT_PROGRESS_TOKEN = 'progress-1';

/**
 * A `Context` connected to a recording client, for calling a handler method directly, without a
 * server: progress, logs, elicitations and samples are recorded, and `elicit`, `sample` and
 * `roots` answer the handler's requests (each one given declares its capability; without
 * `elicit`, `ctx.elicit` resolves `unsupported`, as for a client that cannot elicit).
 *
 * @example
 * const { ctx, progress, logs } = testContext({ elicit: { action: 'accept', content: { city: 'Oslo' } } });
 * expect(await new Trips(fakeApi).book(args, ctx)).to.equal('Booked Oslo');
 * expect(progress).to.deep.equal([{ progress: 1, total: 2 }]);
 */
export function testContext(options: TestContextOptions = {}): TestContext {
  const recorded: Omit<TestContext, 'ctx'> = { progress: [], logs: [], elicitations: [], samples: [], resourceUpdates: [] };
  const progressToken = options.progressToken === undefined ? DEFAULT_PROGRESS_TOKEN : options.progressToken ?? undefined;
  const channel = new RecordingChannel(recorded, options);
  const ctx = new Context({
    requestId: 'test-request',
    principal: options.principal,
    clientInfo: { name: 'phantom-mcp-testing', version: '1.0.0' },
    clientCapabilities: capabilitiesOf(options) as ClientCapabilities,
    progressToken,
    signal: options.signal,
    channel,
  });
  return { ctx, ...recorded };
}

/** The way back to the client of a test context: records notifications, answers requests from the test's answers. */
class RecordingChannel implements ClientChannel {
  readonly logLevel: LoggingLevel | 'off' | undefined;

  constructor(private readonly recorded: Omit<TestContext, 'ctx'>, private readonly answers: TestContextOptions) {
    this.logLevel = answers.logLevel;
  }

  async notify(method: Notification, params: JsonObject): Promise<void> {
    if (method === 'notifications/progress') {
      const { progressToken: _token, ...progress } = params;
      this.recorded.progress.push(progress as unknown as RecordedProgress);
    } else if (method === 'notifications/message') {
      this.recorded.logs.push(params as unknown as RecordedLog);
    }
  }

  async request(method: Method, params: JsonObject, _options: ChannelRequestOptions): Promise<JsonObject> {
    if (method === 'elicitation/create') this.recorded.elicitations.push(params as unknown as ElicitRequestParams);
    if (method === 'sampling/createMessage') this.recorded.samples.push(params as unknown as CreateMessageRequestParams);
    return await answerTo(this.answers, method, params) as JsonObject;
  }

  async resourceUpdated(uri: string): Promise<void> {
    this.recorded.resourceUpdates.push(uri);
  }
}
