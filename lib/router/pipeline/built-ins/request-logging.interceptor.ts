import { inject, injectable } from 'tsyringe';
import { DIAGNOSTICS, STDERR_DIAGNOSTICS, type Diagnostics } from '../../../core/diagnostics';
import { CallEndedSignal } from '../../../core/errors';
import type { ExecutionContext, OperationKind } from '../execution-context';
import type { CallHandler, Interceptor } from '../interceptor';

/** One operation, as `RequestLoggingInterceptor` reports it. */
export interface RequestLogEntry {
  readonly kind: OperationKind;
  readonly method: string;
  readonly target?: string;
  readonly sessionId?: string;
  readonly requestId?: string | number;
  /** From the first interceptor to the handler's answer, in milliseconds. */
  readonly durationMs: number;
  /** `error` when the handler (or an inner interceptor) threw, or a tool returned an `isError` result. */
  readonly outcome: 'ok' | 'error';
  /** The thrown error's name (`ToolError`...), or `isError` for a tool's error result. */
  readonly error?: string;
}

/** Where the entries go when not to the server's diagnostics. */
export type RequestLogSink = (entry: RequestLogEntry) => void;

/**
 * A built-in interceptor: one entry per operation, with its duration and outcome. Registered as a
 * class (`server.use(RequestLoggingInterceptor)`) it writes one line per call to the server's
 * `Diagnostics` (`info`, else `warn`; stderr by default); made with a function
 * (`new RequestLoggingInterceptor((entry) => logger.info(entry))`) it hands that function each
 * entry instead, and made with nothing (`new RequestLoggingInterceptor()`, as a server whose
 * members come from `resolve` takes them) it writes the lines to stderr. It sees what interceptors see: calls that passed the guards and the argument pipes.
 * Arguments and results are never logged (they may hold secrets).
 *
 * @example
 * server.use(RequestLoggingInterceptor);
 * // [phantom-mcp] tools/call forecast (session 3f2a9c1e) ok in 12.4 ms
 * server.use(new RequestLoggingInterceptor()); // the same lines, always on stderr
 */
@injectable()
export class RequestLoggingInterceptor implements Interceptor {
  private readonly sink: RequestLogSink;

  constructor(@inject(DIAGNOSTICS) output: Diagnostics | RequestLogSink = STDERR_DIAGNOSTICS) {
    this.sink = typeof output === 'function' ? output : lineTo(output);
  }

  /** Runs the call and writes its entry once it ends (outcome `error` for a thrown error or an `isError` result); the result passes unchanged. */
  async intercept(call: ExecutionContext, next: CallHandler): Promise<unknown> {
    const started = performance.now();
    try {
      const value = await next();
      this.sink(entryOf(call, started, isErrorResult(value) ? 'isError' : undefined));
      return value;
    } catch (error) {
      // A call an extension ended with its own result answered with that result: logged as it.
      const ended = error instanceof CallEndedSignal ? error.result : undefined;
      this.sink(entryOf(call, started, ended ? (ended.isError === true ? 'isError' : undefined) : error instanceof Error ? error.name : typeof error));
      throw error;
    }
  }
}

function entryOf(call: ExecutionContext, started: number, error: string | undefined): RequestLogEntry {
  const { context } = call;
  const entry: { -readonly [K in keyof RequestLogEntry]: RequestLogEntry[K] } = {
    kind: call.kind, method: call.method, durationMs: performance.now() - started, outcome: error === undefined ? 'ok' : 'error',
  };
  if (call.target !== undefined) entry.target = call.target;
  if (context.sessionId !== undefined) entry.sessionId = context.sessionId;
  if (context.requestId !== undefined) entry.requestId = context.requestId;
  if (error !== undefined) entry.error = error;
  return entry;
}

function isErrorResult(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true;
}

function lineTo(diagnostics: Diagnostics): RequestLogSink {
  const write = diagnostics.info ? (line: string) => diagnostics.info!(line) : (line: string) => diagnostics.warn(line);
  return (entry) => write(formatEntry(entry));
}

/** `tools/call forecast (session 3f2a9c1e) ok in 12.4 ms`: the session id shortened, never the arguments. */
export function formatEntry(entry: RequestLogEntry): string {
  // A URI is the client's text: control characters would forge log lines, so those are quoted.
  const target = entry.target === undefined ? '' : ` ${/[\u0000-\u001f\u007f]/.test(entry.target) ? JSON.stringify(entry.target) : entry.target}`;
  const session = entry.sessionId === undefined ? '' : ` (session ${entry.sessionId.slice(0, 8)})`;
  const outcome = entry.outcome === 'ok' ? 'ok' : `failed (${entry.error})`;
  return `${entry.method}${target}${session} ${outcome} in ${entry.durationMs.toFixed(1)} ms`;
}
